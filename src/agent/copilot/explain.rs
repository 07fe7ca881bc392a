//! Copilot CLI's row in `twsrt explain`: the launch flags `twsrt run --
//! copilot` adds for the mode, as argv words, decided the way Copilot reads
//! them (a `--deny-*` flag before an `--allow-*` one; what no flag names is
//! asked, or allowed under `--yolo`). One layer, `flags`, rank 30: after
//! the Codex rows.

use serde_json::Value;

use super::Copilot;
use crate::agent::Ctx;
use crate::drift::access::{Decision, Verdict, command_matches, domain_matches, srt_matched};
use crate::error::Result;
use crate::explain::{ExplainLayers, Layer, Subject};
use crate::source::SourceKind;

static FLAGS: Layer = Layer {
    rank: 30,
    layer: "flags",
    agent: "copilot",
};

/// The flags of the mode, and the bash lists their rules came from.
pub struct Layers<'a> {
    /// The launch flags as argv words (`--deny-tool`, `shell(rm)`, ...).
    flags: Vec<String>,
    /// The compiled bash document (which list a `--deny-tool` rule is in).
    bash: &'a Value,
}

impl<'a> Layers<'a> {
    /// Render the flags for `ctx`'s mode. The renderer's warnings are
    /// generate's business, not explain's.
    pub fn of(ctx: &Ctx<'a>) -> Result<Self> {
        Ok(Layers {
            flags: Copilot::launch_args(ctx, &mut Vec::new())?,
            bash: ctx.compiled.document(SourceKind::Bash),
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
        vec![(&FLAGS, decision)]
    }
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

/// The `--deny-tool 'shell(X)'` flags for `command`, the longest first;
/// the bash document says which list `X` came from (an ask rule is a deny
/// flag outside yolo).
fn command(l: &Layers, command: &str) -> Decision {
    let denied = l
        .values("--deny-tool")
        .filter_map(|t| t.strip_prefix("shell(")?.strip_suffix(')'))
        .filter(|rule| command_matches(rule, command))
        .max_by_key(|rule| rule.len());
    if let Some(rule) = denied {
        let in_list = |key: &str| {
            l.bash
                .get(key)
                .and_then(Value::as_array)
                .is_some_and(|list| list.iter().any(|v| v == rule))
        };
        let (list, note) = if in_list("deny") {
            ("deny", format!("--deny-tool 'shell({rule})'"))
        } else {
            (
                "ask",
                format!("--deny-tool 'shell({rule})': no ask tier, the ask rule is a deny"),
            )
        };
        return Decision::rule(Verdict::Deny, (list.into(), rule.into()), Some(&note));
    }
    if l.values("--allow-tool").any(|t| t == "shell") {
        return Decision::without_rule(
            Verdict::Allow,
            Some("--allow-tool 'shell' allows what no --deny-tool stops"),
        );
    }
    rest(l, "no --deny-tool flag covers it")
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
