//! The srt row: the compiled srt settings decided the way srt enforces them
//! on this platform ([`crate::drift::access`]).

use serde_json::Value;

use super::{ExplainLayers, Layer, Subject, not_covered};
use crate::drift::access::{self, Decision};
use crate::srt::path::Places;

/// The srt row comes first.
pub const RANK: u16 = 0;

static SRT: Layer = Layer {
    rank: RANK,
    layer: "srt",
    agent: "srt",
};

/// The compiled srt settings and where their paths resolve.
pub struct Srt<'a> {
    settings: &'a Value,
    places: &'a Places<'a>,
}

impl<'a> Srt<'a> {
    pub fn new(settings: &'a Value, places: &'a Places<'a>) -> Self {
        Srt { settings, places }
    }
}

impl ExplainLayers for Srt<'_> {
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
        let (srt, places) = (self.settings, self.places);
        let decision = match subject {
            Subject::Write(p) => access::srt_write(srt, p, places),
            Subject::Read(p) => access::srt_read(srt, p, places),
            Subject::Domain(d) => access::srt_network(srt, d),
            Subject::Command(_) => {
                not_covered("srt confines what a command touches, not which runs")
            }
        };
        vec![(&SRT, decision)]
    }
}
