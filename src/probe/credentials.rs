//! The probes of srt's declared credentials (`credentials.files`,
//! `credentials.envVars`; doc/clients.md, "srt 0.0.83's credentials, strict
//! allowlist and allowRead, read"): a denied file must be unreadable in the
//! sandbox, a masked one must not show its real bytes; a denied variable
//! must be unset there, a masked one must not hold its real value. A
//! variable unset where `twsrt test` runs, and a file that is missing, are
//! a SKIP: there is nothing to hide.

use super::derive::ProbeSite;
use super::model::{Action, Expect, Probe, Section};
use crate::srt::credentials::{self, Mode};
use serde_json::Value;

/// The credential probes of `policy`, files first, in the order declared.
pub fn probes(ctx: &ProbeSite, policy: &Value) -> Vec<Probe> {
    let probe = |rule: String, action: Result<Action, String>| Probe {
        section: Section::Credentials,
        rule,
        expect: Expect::Deny,
        action,
        drift: None,
    };
    let files = credentials::files(policy).map(|file| {
        let path = ctx.absolute(file.name);
        let action = if !path.is_file() {
            Err("not a file present on host".into())
        } else if file.mode == Mode::Mask {
            Ok(Action::Content(path))
        } else {
            Ok(Action::Read(path))
        };
        probe(format!("{} ({})", file.name, file.mode.name()), action)
    });
    let env_vars = credentials::env_vars(policy).map(|var| {
        let action = if std::env::var_os(var.name).is_some_and(|v| !v.is_empty()) {
            Ok(Action::Env {
                name: var.name.to_string(),
                masked: var.mode == Mode::Mask,
            })
        } else {
            Err("not set where twsrt test runs".into())
        };
        probe(format!("${} ({})", var.name, var.mode.name()), action)
    });
    files.chain(env_vars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_credential_is_one_probe_with_the_access_its_mode_needs() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("tok");
        std::fs::write(&file, "secret").unwrap();
        let f = file.to_string_lossy();
        let policy = json!({"credentials": {
            "files": [{"path": f, "mode": "deny"}, {"path": f, "mode": "mask"},
                      {"path": "/nonexistent/x", "mode": "deny"}],
            "envVars": [{"name": "PATH", "mode": "mask"},
                        {"name": "TWSRT_SURELY_UNSET_9", "mode": "deny"}]}});
        let ctx = ProbeSite::new(dir.path().to_path_buf(), true);
        let got: Vec<String> = probes(&ctx, &policy)
            .iter()
            .map(|p| match &p.action {
                Ok(a) => format!("{} {} | {}", p.kind(), p.rule, a.command()),
                Err(r) => format!("{} {} | SKIP {r}", p.kind(), p.rule),
            })
            .collect();
        assert_eq!(
            got,
            [
                format!("credential {f} (deny) | head -c 1 -- {f}"),
                format!("credential {f} (mask) | head -c 256 -- {f}"),
                "credential /nonexistent/x (deny) | SKIP not a file present on host".into(),
                "credential $PATH (mask) | printenv PATH".into(),
                "credential $TWSRT_SURELY_UNSET_9 (deny) | SKIP not set where twsrt test runs"
                    .into(),
            ]
        );
    }
}
