//! The agents' rows decided on what the renderers produce for the mode
//! asked, the text `generate` prints and `-w` writes: Claude Code's settings
//! (its `permissions` lists and `sandbox.enabled`) and Copilot's launch
//! flags. So explain cannot disagree with generate: a rule the mode does not
//! write (the yolo file has no `ask` list) decides nothing here either, and
//! a rule the compile adds (the policy files' `Edit` denies) shows up by
//! itself.

use std::path::Path;

use serde_json::Value;

use crate::agent::copilot::Copilot;
use crate::agent::{Ctx, registry};
use crate::drift::access::{
    Decision, Places, Verdict, command_matches, domain_matches, path_matches,
};
use crate::error::Result;

/// The rendered documents of one mode.
pub struct Rendered {
    /// Claude Code's generated settings (`generate claude` prints them).
    pub claude: Value,
    /// Copilot's launch flags as argv words (`twsrt run -- copilot` adds them).
    pub copilot: Vec<String>,
}

impl Rendered {
    /// Render Claude's settings and Copilot's flags for `ctx`'s mode. The
    /// renderers' warnings are generate's business, not explain's.
    pub fn of(ctx: &Ctx) -> Result<Self> {
        let mut warnings = Vec::new();
        let claude = match registry().iter().find(|a| a.name() == "claude") {
            Some(agent) => {
                serde_json::from_str(&agent.preview(ctx, &mut warnings)?).unwrap_or(Value::Null)
            }
            None => Value::Null,
        };
        let copilot = Copilot::launch_args(ctx, &mut warnings)?;
        Ok(Rendered { claude, copilot })
    }

    /// `permissions.<list>` of the Claude settings.
    fn claude_list(&self, list: &str) -> impl Iterator<Item = &str> {
        self.claude
            .get("permissions")
            .and_then(|p| p.get(list))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
    }

    /// Whether the rendered Claude settings switch the sandbox on.
    pub fn claude_sandbox_on(&self) -> bool {
        self.claude.pointer("/sandbox/enabled") == Some(&Value::Bool(true))
    }

    /// The value of each `flag` in the Copilot flags, in order.
    fn copilot_values<'a>(&'a self, flag: &'a str) -> impl Iterator<Item = &'a str> {
        self.copilot
            .windows(2)
            .filter(move |w| w[0] == flag)
            .map(|w| w[1].as_str())
    }

    fn copilot_yolo(&self) -> bool {
        self.copilot.iter().any(|w| w == "--yolo")
    }
}

/// What one Claude permission entry (`Tool(spec)`) names.
struct Entry<'a> {
    /// `permissions.deny`, `.ask` or `.allow`.
    list: &'static str,
    verdict: Verdict,
    text: &'a str,
    spec: &'a str,
}

/// The entries for `tool` in the order Claude Code applies them: every deny,
/// then every ask, then every allow.
fn entries<'a>(r: &'a Rendered, tool: &str) -> Vec<Entry<'a>> {
    let mut out = Vec::new();
    for (list, verdict) in [
        ("deny", Verdict::Deny),
        ("ask", Verdict::Ask),
        ("allow", Verdict::Allow),
    ] {
        for text in r.claude_list(list) {
            let spec = text
                .strip_prefix(tool)
                .and_then(|t| t.strip_prefix('('))
                .and_then(|t| t.strip_suffix(')'));
            if let Some(spec) = spec {
                out.push(Entry {
                    list,
                    verdict,
                    text,
                    spec,
                });
            }
        }
    }
    out
}

/// The policy rule a Read/Edit spec was written from: `//abs` is `/abs`,
/// a `/**` suffix marks the directory's contents.
fn path_rule(spec: &str) -> &str {
    let spec = spec
        .strip_prefix('/')
        .filter(|s| s.starts_with('/'))
        .unwrap_or(spec);
    match spec.strip_suffix("/**") {
        Some(stem) if !stem.is_empty() => stem,
        _ => spec,
    }
}

/// The first verdict list of the entries for `tool` with one matching,
/// and within it the longest spec: (entry, the policy rule it names).
fn deciding<'e, 'a>(
    entries: &'e [Entry<'a>],
    matches: impl Fn(&'a str) -> Option<&'a str>,
) -> Option<(&'e Entry<'a>, &'a str)> {
    for verdict in [Verdict::Deny, Verdict::Ask, Verdict::Allow] {
        let found = entries
            .iter()
            .filter(|e| e.verdict == verdict)
            .filter_map(|e| matches(e.spec).map(|rule| (e, rule)))
            .max_by_key(|(e, _)| e.spec.len());
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A decision by a rendered entry: the policy rule it names (`list` says
/// where the policy has it, for its fragment line) and the entry itself.
fn by_entry(verdict: Verdict, list: &str, rule: &str, entry: &str) -> Decision {
    Decision::rule(
        verdict,
        (list.to_string(), rule.to_string()),
        Some(&format!("permissions entry {entry}")),
    )
}

/// Claude Code's permission rules for a read or write of `path`.
pub fn claude_path(r: &Rendered, path: &Path, write: bool, places: &Places) -> Decision {
    let (tool, lists) = if write {
        ("Edit", ["filesystem.denyWrite", "filesystem.allowWrite"])
    } else {
        ("Read", ["filesystem.denyRead", "filesystem.allowRead"])
    };
    let found = entries(r, tool);
    let matched = deciding(&found, |spec| {
        let rule = path_rule(spec);
        path_matches(rule, path, places).then_some(rule)
    });
    match matched {
        Some((e, rule)) => {
            let list = if e.verdict == Verdict::Allow {
                lists[1]
            } else {
                lists[0]
            };
            by_entry(e.verdict, list, rule, e.text)
        }
        None if write => Decision::default(Verdict::NotCovered, Some("no Edit rule: Claude asks")),
        None => Decision::default(Verdict::NotCovered, Some("no Read rule")),
    }
}

/// Claude Code's `WebFetch(domain:...)` rules for `domain`.
pub fn claude_domain(r: &Rendered, domain: &str) -> Decision {
    let found = entries(r, "WebFetch");
    let matched = deciding(&found, |spec| {
        let pattern = spec.strip_prefix("domain:")?;
        domain_matches(pattern, domain).then_some(pattern)
    });
    match matched {
        Some((e, rule)) => {
            let list = match e.verdict {
                Verdict::Allow => "network.allowedDomains",
                _ => "network.deniedDomains",
            };
            by_entry(e.verdict, list, rule, e.text)
        }
        None => Decision::default(Verdict::NotCovered, Some("no rule for this domain")),
    }
}

/// Claude Code's `Bash(...)` rules for `command`: `Bash(X)` is the command
/// `X` itself, `Bash(X *)` it with arguments.
pub fn claude_command(r: &Rendered, command: &str) -> Decision {
    let words = crate::shellwords::split(command)
        .unwrap_or_else(|_| command.split_whitespace().map(str::to_string).collect());
    let found = entries(r, "Bash");
    let matched = deciding(&found, |spec| {
        let (rule, args) = match spec.strip_suffix(" *") {
            Some(rule) => (rule, true),
            None => (spec, false),
        };
        let rule_words = crate::shellwords::split(rule).ok()?.len();
        let fits = command_matches(rule, command) && (words.len() > rule_words) == args;
        fits.then_some(rule)
    });
    match matched {
        Some((e, rule)) => by_entry(e.verdict, e.list, rule, e.text),
        None => Decision::default(
            Verdict::NotCovered,
            Some("no Bash rule (twsrt writes no Bash allow rule for Claude)"),
        ),
    }
}

/// Copilot's flags for a read or write: only the tool switches decide.
pub fn copilot_path(r: &Rendered, write: bool) -> Decision {
    let tools: &[&str] = if write { &["write", "edit"] } else { &["read"] };
    if let Some(tool) = r.copilot_values("--allow-tool").find(|t| tools.contains(t)) {
        return Decision::default(
            Verdict::Allow,
            Some(&format!("--allow-tool '{tool}': no path rule stops it")),
        );
    }
    copilot_rest(r, "no app-layer rule")
}

/// Copilot's URL flags for `domain`: a deny first, then an allow.
pub fn copilot_domain(r: &Rendered, domain: &str) -> Decision {
    let denied = r.copilot_values("--deny-url").find(|p| {
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
    if let Some(pattern) = r
        .copilot_values("--allow-url")
        .find(|p| domain_matches(p, domain))
    {
        return Decision::rule(
            Verdict::Allow,
            ("network.allowedDomains".into(), pattern.into()),
            Some(&format!("--allow-url '{pattern}'")),
        );
    }
    copilot_rest(r, "no rule for this domain")
}

/// Copilot's `--deny-tool 'shell(X)'` flags for `command`, the longest
/// first; `bash` says which bash list `X` came from (an ask rule is a deny
/// flag outside yolo).
pub fn copilot_command(r: &Rendered, command: &str, bash: &Value) -> Decision {
    let denied = r
        .copilot_values("--deny-tool")
        .filter_map(|t| t.strip_prefix("shell(")?.strip_suffix(')'))
        .filter(|rule| command_matches(rule, command))
        .max_by_key(|rule| rule.len());
    if let Some(rule) = denied {
        let in_list = |key: &str| {
            bash.get(key)
                .and_then(Value::as_array)
                .is_some_and(|l| l.iter().any(|v| v == rule))
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
    if r.copilot_values("--allow-tool").any(|t| t == "shell") {
        return Decision::default(
            Verdict::Allow,
            Some("--allow-tool 'shell' allows what no --deny-tool stops"),
        );
    }
    copilot_rest(r, "no --deny-tool flag covers it")
}

/// What no flag names: `--yolo` lets it through, else Copilot asks.
fn copilot_rest(r: &Rendered, note: &str) -> Decision {
    if r.copilot_yolo() {
        Decision::default(
            Verdict::Allow,
            Some("--yolo allows what no --deny-* flag stops"),
        )
    } else {
        Decision::default(Verdict::NotCovered, Some(note))
    }
}

/// The Claude sandbox's lists as Claude Code builds them from the rendered
/// settings, in srt's shape: `sandbox.filesystem` and `sandbox.network` as
/// written (an override included), joined by the permission rules the
/// sandbox also reads (a `Read` deny is a denyRead, an `Edit` deny a
/// denyWrite, an `Edit` allow an allowWrite, a `WebFetch(domain:...)` deny
/// or allow a denied or allowed domain).
pub fn claude_sandbox_lists(r: &Rendered) -> Value {
    let written = |section: &str, key: &str| -> Vec<Value> {
        r.claude
            .pointer(&format!("/sandbox/{section}/{key}"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let from_rules = |tool: &str, verdict: Verdict, web: bool| -> Vec<Value> {
        entries(r, tool)
            .into_iter()
            .filter(|e| e.verdict == verdict)
            .filter_map(|e| match web {
                true => e.spec.strip_prefix("domain:"),
                false => Some(path_rule(e.spec)),
            })
            .map(|rule| Value::String(rule.to_string()))
            .collect()
    };
    let join = |mut a: Vec<Value>, b: Vec<Value>| {
        for v in b {
            if !a.contains(&v) {
                a.push(v);
            }
        }
        Value::Array(a)
    };
    serde_json::json!({
        "filesystem": {
            "denyRead": join(written("filesystem", "denyRead"), from_rules("Read", Verdict::Deny, false)),
            "allowRead": written("filesystem", "allowRead"),
            "denyWrite": join(written("filesystem", "denyWrite"), from_rules("Edit", Verdict::Deny, false)),
            "allowWrite": join(written("filesystem", "allowWrite"), from_rules("Edit", Verdict::Allow, false)),
        },
        "network": {
            "deniedDomains": join(written("network", "deniedDomains"), from_rules("WebFetch", Verdict::Deny, true)),
            "allowedDomains": join(written("network", "allowedDomains"), from_rules("WebFetch", Verdict::Allow, true)),
        },
    })
}
