//! `twsrt test`: probe the compiled srt policy with the real Sandbox Runtime.
//! (Being written; see issue 8.)

use std::path::Path;

use clap::Args;

use crate::error::{Error, Result};

#[derive(Debug, Args)]
pub struct TestArgs {
    /// The profile to compile instead of default_profile.
    #[arg(short, long, value_name = "NAME")]
    pub profile: Option<String>,
}

pub fn run(_config_path: &Path, _args: &TestArgs) -> Result<i32> {
    Err(Error::WithCode {
        message: "twsrt test is not available yet".into(),
        code: 2,
    })
}
