//! The Copilot renderer over arbitrary rule strings.
//!
//! Input records: 0 options (first byte `y`: yolo mode); 1.. rule records.
//!
//! Properties: the flags, read by a POSIX shell (see `shell_words`), are
//! exactly the expected flag/value pairs: no value breaks out of its quotes
//! and nothing is expanded; and `diff` right after writing the flags file
//! reports no drift.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use twsrt::agent::copilot::Copilot;
use twsrt::agent::{Agent, AgentDiff, Ctx};
use twsrt::rules::{Action, Scope, SecurityRule};

fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("twsrt-fuzz-copilot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    })
}

fuzz_target!(|data: &[u8]| {
    let records = twsrt_fuzz::records(data);
    let yolo = records[0].starts_with('y');
    let rules = twsrt_fuzz::rules(&records[1..]);
    let mut config = twsrt_fuzz::config();
    let flags_file = scratch().join("flags");
    config.targets.copilot_output = Some(flags_file.clone());
    config.targets.copilot_output_yolo = Some(flags_file.clone());
    let compiled = twsrt_fuzz::compiled(Value::Object(Default::default()));
    let ctx = Ctx::with_rules(&config, &compiled, rules.clone(), yolo);
    let mut warnings = Vec::new();
    let rendering = match Copilot.preview(&ctx, &mut warnings) {
        Ok(r) => r,
        Err(e) => {
            // Only a value no command line can carry may be refused.
            assert!(
                expected(&rules, yolo).iter().any(|w| w.contains('\0')),
                "refused: {e}"
            );
            return;
        }
    };
    let words = twsrt_fuzz::shell_words(&rendering)
        .unwrap_or_else(|e| panic!("not a plain command line ({e:?}):\n{rendering}"));
    assert_eq!(words, expected(&rules, yolo), "flags differ:\n{rendering}");

    // What `generate copilot -w` writes, then what `diff copilot` says.
    std::fs::write(&flags_file, format!("{rendering}\n")).expect("write flags");
    let diff = Copilot.diff(&ctx, &mut Vec::new()).expect("diff");
    assert_eq!(
        diff,
        AgentDiff::Compared(Vec::new()),
        "drift right after writing:\n{rendering}"
    );
});

/// The words the flags must make, from the rules (written independently of
/// the renderer, from its documentation).
fn expected(rules: &[SecurityRule], yolo: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if yolo {
        out.push("--yolo".into());
    }
    let mut write_tools = false;
    let mut pair = |flag: &str, value: String| {
        out.push(flag.into());
        out.push(value);
    };
    for r in rules {
        match (r.scope, r.action) {
            (Scope::Write, Action::Allow) if !yolo && !write_tools => {
                write_tools = true;
                for tool in ["shell", "read", "edit", "write"] {
                    pair("--allow-tool", tool.into());
                }
            }
            (Scope::Network, Action::Allow) if !yolo => pair("--allow-url", r.pattern.to_string()),
            (Scope::Network, Action::Deny) => pair("--deny-url", r.pattern.to_string()),
            (Scope::Execute, Action::Ask) if !yolo => {
                pair("--deny-tool", format!("shell({})", r.pattern))
            }
            (Scope::Execute, Action::Deny) => pair("--deny-tool", format!("shell({})", r.pattern)),
            _ => {}
        }
    }
    out
}
