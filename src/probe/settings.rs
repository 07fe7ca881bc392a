//! Setup: the settings file to probe, what srt would refuse in it, where srt
//! and curl are, and the preflight run. Every failure here is exit 2.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::run::{self, RunEnv};
use crate::compile::Canonical;
use crate::compose::equality_key;
use crate::error::Error;
use crate::srt::domain;
use crate::srt::schema as srt_schema;
use crate::ui;

pub fn setup_error(message: impl Into<String>) -> Error {
    Error::Setup(message.into())
}

/// The srt settings on disk, and whether they differ from the compile.
pub fn load(doc: &Canonical) -> Result<(Value, bool), Error> {
    let path = &doc.output;
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(setup_error(format!(
                "{} does not exist: run `twsrt generate -w` first (twsrt test probes the \
                 settings file srt reads)",
                path.display()
            )));
        }
        Err(e) => return Err(setup_error(format!("{}: {e}", path.display()))),
    };
    let value: Value = serde_json::from_str(&text).map_err(|e| {
        setup_error(format!(
            "{}:{}:{}: not valid JSON, srt refuses it: {e}",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    let differs = equality_key(&value) != equality_key(doc.value());
    Ok((value, differs))
}

/// Everything in a settings file that srt 0.0.78-0.0.83 refuses, one line
/// each (srt names the same problems, but all in one long line).
pub fn srt_problems(settings: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(root) = settings.as_object() else {
        problems.push("the file is not a JSON object".into());
        return problems;
    };
    for (section, lists) in [
        ("network", &["allowedDomains", "deniedDomains"][..]),
        ("filesystem", &["denyRead", "allowWrite", "denyWrite"][..]),
    ] {
        let Some(value) = root.get(section) else {
            problems.push(format!("`{section}` is missing (srt requires it)"));
            continue;
        };
        let Some(object) = value.as_object() else {
            problems.push(format!("`{section}` must be an object"));
            continue;
        };
        for key in lists {
            match object.get(*key) {
                None => problems.push(format!(
                    "`{section}.{key}` is missing (srt requires the list, even empty)"
                )),
                Some(list) => check_list(section, key, list, &mut problems),
            }
        }
        if section == "filesystem"
            && let Some(list) = object.get("allowRead")
        {
            check_list(section, "allowRead", list, &mut problems);
        }
    }
    problems
}

fn check_list(section: &str, key: &str, list: &Value, problems: &mut Vec<String>) {
    let Some(items) = list.as_array() else {
        problems.push(format!("`{section}.{key}` must be a list"));
        return;
    };
    for (i, item) in items.iter().enumerate() {
        let at = format!("`{section}.{key}[{i}]`");
        let Some(text) = item.as_str() else {
            problems.push(format!("{at} must be a string"));
            continue;
        };
        match key {
            "allowedDomains" if !domain::srt_accepts(text, false) => problems.push(format!(
                "{at} {text:?}: srt refuses this domain pattern (no \"*\", \"*.tld\", URL, \
                 path or bad port)"
            )),
            "deniedDomains" if !domain::srt_accepts(text, true) => {
                problems.push(format!("{at} {text:?}: srt refuses this domain pattern"))
            }
            _ if section == "filesystem" && text.is_empty() => {
                problems.push(format!("{at}: empty path"))
            }
            _ => {}
        }
    }
}

/// Keys srt silently drops (a misspelled `denyread` loses its rules).
pub fn unknown_keys(settings: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for (section, known) in [
        ("network", srt_schema::NETWORK_KEYS),
        ("filesystem", srt_schema::FILESYSTEM_KEYS),
    ] {
        if let Some(object) = settings.get(section).and_then(Value::as_object) {
            for key in object.keys() {
                if !known.contains(&key.as_str()) {
                    out.push(format!("{section}.{key}"));
                }
            }
        }
    }
    out
}

/// A program on PATH (or a path with a slash) that exists and is executable.
pub fn find_program(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
}

/// `TWSRT_SRT` if set, else `srt` on PATH.
pub fn find_srt() -> Result<PathBuf, Error> {
    match std::env::var("TWSRT_SRT") {
        Ok(name) if !name.is_empty() => find_program(&name).ok_or_else(|| {
            setup_error(format!(
                "TWSRT_SRT={name} is not an executable srt (Sandbox Runtime) binary"
            ))
        }),
        _ => find_program("srt").ok_or_else(|| {
            setup_error(
                "srt (Sandbox Runtime) not found on PATH: install it with \
                 `npm install -g @anthropic-ai/sandbox-runtime` (it needs bubblewrap, socat \
                 and ripgrep on Linux; scripts/install-srt.sh does all of it) or set TWSRT_SRT \
                 to its path",
            )
        }),
    }
}

/// srt's version: the `version` of the package.json beside srt's real
/// file (npm installs `bin/srt` as a link into the package), else what
/// `srt --version` prints, else "unknown".
pub fn srt_version(env: &RunEnv) -> String {
    let from_package = std::fs::canonicalize(&env.srt)
        .ok()
        .and_then(|real| Some(real.parent()?.parent()?.join("package.json")))
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| serde_json::from_str::<Value>(&text).ok())
        .and_then(|v| {
            let named = v.get("name")?.as_str()? == "@anthropic-ai/sandbox-runtime";
            named.then(|| v.get("version")?.as_str().map(str::to_string))?
        });
    if let Some(version) = from_package {
        return version;
    }
    let mut cmd = std::process::Command::new(&env.srt);
    cmd.arg("--version").env("TMPDIR", &env.scratch);
    match run::exec(cmd, PREFLIGHT_TIMEOUT) {
        Ok(out) if out.exit == Some(0) => {
            let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
            if text.is_empty() {
                "unknown".into()
            } else {
                text
            }
        }
        _ => "unknown".into(),
    }
}

/// The preflight's own limit, whatever `--timeout` says.
const PREFLIGHT_TIMEOUT: Duration = Duration::from_secs(30);

/// Static problems first (each named), then `srt -s SETTINGS -c true`.
/// `differs`: the file on disk is not what the policy compiles to (then
/// rewriting it may help, and the message says so).
pub fn preflight(env: &RunEnv, settings: &Value, differs: bool) -> Result<(), Error> {
    for key in unknown_keys(settings) {
        ui::warning(&format!(
            "{}: `{key}` is not a setting srt knows; srt ignores it silently",
            env.settings.display()
        ));
    }
    let problems = srt_problems(settings);
    // srt's own message repeats the problems in one long line.
    let said_max = if problems.is_empty() { 600 } else { 160 };
    let out = run::exec(env.sandboxed("true"), PREFLIGHT_TIMEOUT);
    let srt_says = match &out {
        Ok(o) if o.exit == Some(0) && !o.timed_out => None,
        Ok(o) if o.timed_out => Some(format!("timed out after {} s", PREFLIGHT_TIMEOUT.as_secs())),
        Ok(o) => Some(format!(
            "exit {}: {}",
            run::exit_text(o.exit),
            run::trim_stderr(&o.stderr, said_max)
        )),
        Err(e) => Some(format!("could not run {}: {e}", env.srt.display())),
    };
    if problems.is_empty() && srt_says.is_none() {
        return Ok(());
    }
    let mut message = format!("preflight failed for {}", env.settings.display());
    if !problems.is_empty() {
        message.push_str(": srt refuses this settings file:");
        for p in &problems {
            message.push_str(&format!("\n  - {p}"));
        }
    }
    match &srt_says {
        Some(said) => message.push_str(&format!(
            "\n`{} -s {} -c true` failed ({said})",
            env.srt.display(),
            env.settings.display()
        )),
        None => message.push_str(&format!(
            "\n(this srt, {}, accepted it; twsrt refuses it anyway because srt 0.0.78-0.0.83 \
             do not)",
            env.srt.display()
        )),
    }
    if srt_says
        .as_deref()
        .is_some_and(|s| s.contains("sandbox_apply"))
    {
        message.push_str(
            "\nsrt could not apply its sandbox (sandbox_apply): inside another sandbox or a \
             container that forbids namespaces, srt cannot nest; run twsrt test outside it.",
        );
    }
    if differs {
        message.push_str(
            "\nThe file differs from the policy: `twsrt generate -w` rewrites it from the policy.",
        );
    }
    Err(setup_error(message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ok() -> Value {
        json!({
            "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["."], "denyWrite": []},
            "network": {"allowedDomains": ["github.com"], "deniedDomains": ["*"]}
        })
    }

    #[test]
    fn a_complete_file_has_no_problem() {
        assert!(srt_problems(&ok()).is_empty());
    }

    #[test]
    fn each_refused_item_is_named() {
        let mut v = ok();
        v["network"]
            .as_object_mut()
            .unwrap()
            .remove("deniedDomains");
        v["network"]["allowedDomains"] = json!(["*", "*.com", "https://x.org", "ok.io"]);
        v["filesystem"]["denyRead"] = json!(["", 3]);
        let problems = srt_problems(&v);
        assert_eq!(problems.len(), 6, "{problems:#?}");
        assert!(problems[3].contains("`network.deniedDomains` is missing"));
        assert!(problems[0].contains("`network.allowedDomains[0]` \"*\""));
        assert!(problems[4].contains("`filesystem.denyRead[0]`: empty path"));
        assert!(problems[5].contains("`filesystem.denyRead[1]` must be a string"));
    }

    #[test]
    fn missing_sections_and_unknown_keys() {
        let problems = srt_problems(&json!({"network": []}));
        assert_eq!(
            problems,
            vec![
                "`network` must be an object",
                "`filesystem` is missing (srt requires it)"
            ]
        );
        let mut v = ok();
        v["filesystem"]["denyread"] = json!(["x"]);
        assert_eq!(unknown_keys(&v), vec!["filesystem.denyread"]);
    }
}
