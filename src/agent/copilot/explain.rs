//! Copilot CLI's row in `twsrt explain`: the launch flags `twsrt run --
//! copilot` adds for the mode, as argv words, decided the way Copilot reads
//! them (a `--deny-*` flag before an `--allow-*` one; what no flag names is
//! asked, or allowed under `--yolo`). One layer, `flags`, rank 30: after
//! the Codex rows; with `[targets] copilot_sandbox = true` a second one,
//! `sandbox`, rank 31: the command sandbox twsrt writes, decided as it was
//! measured (doc/clients.md, "Copilot CLI's command sandbox, measured").

use serde_json::Value;

use super::Copilot;
use crate::agent::Ctx;
use crate::drift::access::{Decision, Verdict, command_matches, domain_matches, srt_matched};
use crate::error::Result;
use crate::explain::{ExplainLayers, Layer, Subject};
use crate::source::SourceKind;
use crate::srt::path::{Places, path_matches};

static FLAGS: Layer = Layer {
    rank: 30,
    layer: "flags",
    agent: "copilot",
};

static SANDBOX: Layer = Layer {
    rank: 31,
    layer: "sandbox",
    agent: "copilot",
};

/// The flags of the mode, and the bash lists their rules came from.
pub struct Layers<'a> {
    /// The launch flags as argv words (`--deny-tool`, `shell(rm)`, ...).
    flags: Vec<String>,
    /// The compiled bash document (which list a `--deny-tool` rule is in).
    bash: &'a Value,
    /// The command sandbox twsrt writes, while `copilot_sandbox` is on.
    sandbox: Option<Value>,
    places: &'a Places<'a>,
}

impl<'a> Layers<'a> {
    /// Render the flags for `ctx`'s mode. The renderer's warnings are
    /// generate's business, not explain's.
    pub fn of(ctx: &Ctx<'a>, places: &'a Places<'a>) -> Result<Self> {
        Ok(Layers {
            flags: Copilot::launch_args(ctx, &mut Vec::new())?,
            bash: ctx.compiled.document(SourceKind::Bash),
            sandbox: super::sandbox::policy(ctx, &mut Vec::new()),
            places,
        })
    }

    /// The value of each `flag`, in order.
    fn values<'v>(&'v self, flag: &'v str) -> impl Iterator<Item = &'v str> {
        self.flags
            .windows(2)
            .filter(move |w| w[0] == flag)
            .map(|w| w[1].as_str())
    }

    fn yolo(&self) -> bool {
        self.flags.iter().any(|w| w == "--yolo")
    }
}

impl ExplainLayers for Layers<'_> {
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
        let decision = match subject {
            Subject::Read(_) => path(self, false),
            Subject::Write(_) => path(self, true),
            Subject::Domain(d) => domain(self, d),
            Subject::Command(c) => command(self, c),
        };
        let mut rows = vec![(&FLAGS, decision)];
        if let Some(sandbox) = &self.sandbox {
            rows.push((&SANDBOX, in_sandbox(sandbox, subject, self.places)));
        }
        rows
    }
}

/// The command sandbox on one access of a shell command: a denied path is
/// refused, a read-only one refused for writing, a granted one allowed;
/// anything else is Copilot's own default scope, and the network is not
/// the sandbox's as twsrt writes it.
fn in_sandbox(sandbox: &Value, subject: &Subject, places: &Places) -> Decision {
    let list = |key: &str| -> Vec<&str> {
        sandbox
            .pointer(&format!("/userPolicy/filesystem/{key}"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    };
    let covering = |key: &str, path: &std::path::Path| {
        list(key)
            .into_iter()
            .filter(|p| path_matches(p, path, places))
            .max_by_key(|p| p.len())
            .map(str::to_string)
    };
    let (path, write) = match subject {
        Subject::Read(p) => (p, false),
        Subject::Write(p) => (p, true),
        Subject::Domain(_) => {
            return Decision::without_rule(
                Verdict::NotCovered,
                Some("twsrt leaves the network to Copilot's defaults"),
            );
        }
        Subject::Command(_) => {
            return Decision::without_rule(
                Verdict::NotCovered,
                Some("the sandbox confines what a command touches, not which runs"),
            );
        }
    };
    if let Some(rule) = covering("deniedPaths", path) {
        let note = format!("sandbox.userPolicy.filesystem.deniedPaths {rule}");
        return Decision::rule(Verdict::Deny, ("deniedPaths".into(), rule), Some(&note));
    }
    if let Some(rule) = covering("readonlyPaths", path) {
        let verdict = if write { Verdict::Deny } else { Verdict::Allow };
        let note = format!("sandbox.userPolicy.filesystem.readonlyPaths {rule}");
        return Decision::rule(verdict, ("readonlyPaths".into(), rule), Some(&note));
    }
    let cwd = sandbox.get("addCurrentWorkingDirectory") == Some(&Value::Bool(true))
        && path.starts_with(places.cwd);
    if let Some(rule) = covering("readwritePaths", path).or(cwd.then(|| ".".to_string())) {
        let note = format!("granted read/write: {rule}");
        return Decision::rule(Verdict::Allow, ("readwritePaths".into(), rule), Some(&note));
    }
    Decision::without_rule(
        Verdict::NotCovered,
        Some("no policy path: Copilot's default scope decides (temp directory writable)"),
    )
}

/// The flags for a read or write: only the tool switches decide.
fn path(l: &Layers, write: bool) -> Decision {
    let tools: &[&str] = if write { &["write", "edit"] } else { &["read"] };
    if let Some(tool) = l.values("--allow-tool").find(|t| tools.contains(t)) {
        return Decision::without_rule(
            Verdict::Allow,
            Some(&format!("--allow-tool '{tool}': no path rule stops it")),
        );
    }
    rest(l, "no app-layer rule")
}

/// The URL flags for `domain`: a deny first, then an allow.
fn domain(l: &Layers, domain: &str) -> Decision {
    let patterns = || {
        l.values("--deny-url")
            .chain(l.values("--allow-url"))
            .map(|p| p.strip_prefix("http://").unwrap_or(p))
    };
    srt_matched(url_rules(l, domain), patterns(), domain)
}

fn url_rules(l: &Layers, domain: &str) -> Decision {
    let denied = l.values("--deny-url").find(|p| {
        let host = p.strip_prefix("http://").unwrap_or(p);
        domain_matches(host, domain)
    });
    if let Some(pattern) = denied {
        let rule = pattern.strip_prefix("http://").unwrap_or(pattern);
        return Decision::rule(
            Verdict::Deny,
            ("network.deniedDomains".into(), rule.into()),
            Some(&format!("--deny-url '{pattern}'")),
        );
    }
    if let Some(pattern) = l.values("--allow-url").find(|p| domain_matches(p, domain)) {
        return Decision::rule(
            Verdict::Allow,
            ("network.allowedDomains".into(), pattern.into()),
            Some(&format!("--allow-url '{pattern}'")),
        );
    }
    rest(l, "no rule for this domain")
}

/// The `--deny-tool 'shell(X:*)'` flags for `command`, each simple command
/// of a list, pipeline or subshell on its own ([`super::shell::parts`], as
/// Copilot checks them), the longest first;
/// the bash document says which list `X` came from (an ask rule is a deny
/// flag outside yolo). A bash rule joining commands that covers `command`
/// has no flag ([`super::shell::is_compound`]): "not enforced", unless a
/// flag denies the command anyway.
fn command(l: &Layers, command: &str) -> Decision {
    let parts = super::shell::parts(command);
    let denied = l
        .values("--deny-tool")
        .filter_map(super::shell::rule_of)
        .filter(|rule| parts.iter().any(|part| command_matches(rule, part)))
        .max_by_key(|rule| rule.len());
    if let Some(rule) = denied {
        let (list, note) = if in_list(l.bash, "deny", rule) {
            ("deny", format!("--deny-tool 'shell({rule}:*)'"))
        } else {
            (
                "ask",
                format!("--deny-tool 'shell({rule}:*)': no ask tier, the ask rule is a deny"),
            )
        };
        return Decision::rule(Verdict::Deny, (list.into(), rule.into()), Some(&note));
    }
    if let Some((list, rule)) = unenforced(l, command) {
        let note = "Copilot checks each command of a list or pipeline on its own: no \
                    --deny-tool pattern can hold a rule joining commands";
        return Decision::rule(Verdict::NotEnforced, (list.into(), rule), Some(note));
    }
    if l.values("--allow-tool").any(|t| t == "shell") {
        return Decision::without_rule(
            Verdict::Allow,
            Some("--allow-tool 'shell' allows what no --deny-tool stops"),
        );
    }
    rest(l, "no --deny-tool flag covers it")
}

fn in_list(bash: &Value, key: &str, rule: &str) -> bool {
    bash.get(key)
        .and_then(Value::as_array)
        .is_some_and(|list| list.iter().any(|v| v.as_str().map(str::trim) == Some(rule)))
}

/// The longest bash deny (and, outside yolo, ask) rule joining commands
/// that covers `command`, with its list.
fn unenforced(l: &Layers, command: &str) -> Option<(&'static str, String)> {
    let lists: &[&'static str] = if l.yolo() {
        &["deny"]
    } else {
        &["deny", "ask"]
    };
    lists
        .iter()
        .flat_map(|&key| {
            l.bash
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(move |rule| (key, rule))
        })
        .filter(|(_, rule)| super::shell::is_compound(rule) && command_matches(rule, command))
        .max_by_key(|(_, rule)| rule.len())
        .map(|(key, rule)| (key, rule.to_string()))
}

/// What no flag names: `--yolo` lets it through, else Copilot asks.
fn rest(l: &Layers, note: &str) -> Decision {
    if l.yolo() {
        Decision::without_rule(
            Verdict::Allow,
            Some("--yolo allows what no --deny-* flag stops"),
        )
    } else {
        Decision::without_rule(Verdict::NotCovered, Some(note))
    }
}
