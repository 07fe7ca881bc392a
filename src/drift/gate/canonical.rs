//! A canonical output file against the compiled document, with directions.

use serde_json::Value;

use crate::compile::Canonical;
use crate::drift::canonical::{DOCUMENT, compare, schema};
use crate::drift::report::{Status, Target};
use crate::drift::{Difference, Direction, Side};
use crate::error::Result;

/// The drift of one canonical output. A file that holds the document is no
/// drift (see [`Canonical::matches_output`]); an absent one is missing; one
/// that is not JSON is one widening difference (its reader enforces nothing
/// of it), named by what is wrong with it, never by the file's path.
pub fn target(doc: &Canonical) -> Result<Target> {
    let mut target = Target {
        name: doc.kind.name().to_string(),
        path: doc.output.display().to_string(),
        status: Status::NoDrift,
        differences: Vec::new(),
        listed: None,
    };
    if doc.matches_output()? {
        return Ok(target);
    }
    target.status = Status::Drift;
    match crate::apply::read_existing(&doc.output) {
        Ok(None) => target.status = Status::Missing,
        Ok(Some(bytes)) => match serde_json::from_slice::<Value>(&bytes) {
            Ok(on_disk) => {
                target.differences = compare(doc.value(), &on_disk, schema(doc.kind));
            }
            Err(e) => target.differences.push(unreadable(&format!(
                "not JSON (line {}, column {})",
                e.line(),
                e.column()
            ))),
        },
        Err(_) => target.differences.push(unreadable("unreadable")),
    }
    Ok(target)
}

fn unreadable(what: &str) -> Difference {
    Difference::plain(DOCUMENT, what, Side::Extra, Direction::Widening)
}
