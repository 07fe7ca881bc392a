//! What an access reaches beyond the path its text spells, before each
//! path is compared with the policy by the caller's `one`: the paths a
//! `/proc/<pid>/root` spelling names ([`super::proc_paths`]), the matches
//! of a glob expanded against the file system ([`super::globs::expand`];
//! bash's rules for Bash, ripgrep's for Claude Code's Glob tool), and what
//! a recursive program reaches below a directory ([`super::walks`]).

use std::cell::Cell;
use std::path::Path;

use super::Verdict;
use super::event::Event;
use super::globs::{self, Glob, Style};
use super::operands::{Access, Operand, Touch};
use super::policy::{self, Policy};
use super::proc_paths::{self, Named};
use super::walks::{self, Found};

/// How many brace alternatives one Glob tool pattern may have.
const MAX_ALTERNATIVES: usize = 64;

/// The budgets one event's expansions and walks share.
pub struct Budget {
    listed: Cell<usize>,
    walked: Cell<usize>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            listed: Cell::new(globs::MAX_LISTED),
            walked: Cell::new(walks::MAX_WALKED),
        }
    }
}

/// The verdict on `touch`, each path it reaches judged by `one`.
pub fn judge(
    touch: &Touch,
    event: &Event,
    policy: &Policy,
    budget: &Budget,
    one: &dyn Fn(&Touch) -> Verdict,
) -> Verdict {
    match &touch.operand {
        Operand::Unknown(written) if touch.by == "Glob" => {
            tool_glob(touch, written, event, policy, budget, one)
        }
        Operand::Unknown(written) if Glob::parse(written).is_some() => {
            let style = Style::bash(event.tool_input["command"].as_str().unwrap_or(""));
            let pattern = absolute(written, &event.cwd, policy.home());
            expanded(touch, &pattern, style, event, policy, budget, one)
        }
        Operand::Path(text) => path(touch, text, event, policy, budget, one),
        _ => one(touch),
    }
}

/// A literal path: itself, what it names through `/proc`, and what a
/// walk below it reaches.
fn path(
    touch: &Touch,
    text: &str,
    event: &Event,
    policy: &Policy,
    budget: &Budget,
    one: &dyn Fn(&Touch) -> Verdict,
) -> Verdict {
    let abs = absolute(text, &event.cwd, policy.home());
    let mut verdict = match proc_paths::named(&abs) {
        Named::Unknown(why) => return ask(touch, &why),
        Named::Itself => one(touch),
        Named::Also(paths) => paths
            .iter()
            .map(|p| {
                let style = Style::bash("");
                expanded(touch, p, style, event, policy, budget, one)
            })
            .fold(one(touch), Verdict::stricter),
    };
    if verdict == Verdict::Pass && walks::walks(&touch.by, touch.access) {
        verdict = walk(touch, text, event, policy, budget);
    }
    verdict
}

/// The matches of `pattern` (absolute), each judged; no match: the word
/// itself (bash passes an unmatched pattern on as it is).
fn expanded(
    touch: &Touch,
    pattern: &str,
    style: Style,
    event: &Event,
    policy: &Policy,
    budget: &Budget,
    one: &dyn Fn(&Touch) -> Verdict,
) -> Verdict {
    let spellings = match proc_paths::named(pattern) {
        Named::Unknown(why) => return ask(touch, &why),
        Named::Itself => vec![pattern.to_string()],
        Named::Also(mut also) => {
            also.insert(0, pattern.to_string());
            also
        }
    };
    let mut verdict = Verdict::Pass;
    for spelling in spellings {
        let mut left = budget.listed.get();
        let matches = globs::expand(&spelling, style, &mut left);
        budget.listed.set(left);
        let matches = match matches {
            Ok(m) if m.is_empty() => vec![spelling],
            Ok(m) => m,
            Err(why) => return ask(touch, &why),
        };
        for m in matches {
            let each = Touch {
                operand: Operand::Path(m.clone()),
                ..touch.clone()
            };
            verdict = verdict.stricter(path(&each, &m, event, policy, budget, one));
            if matches!(verdict, Verdict::Deny(_)) {
                return verdict;
            }
        }
    }
    verdict
}

/// Claude Code's Glob tool: ripgrep `--files --hidden --glob PATTERN` in
/// the tool's directory; an absolute pattern searches from its literal
/// directory. Braces are alternatives, `**` any run of directories, a
/// pattern matches at any depth below the directory (taken so for every
/// relative pattern, which can only find more), letters in any case.
fn tool_glob(
    touch: &Touch,
    pattern: &str,
    event: &Event,
    policy: &Policy,
    budget: &Budget,
    one: &dyn Fn(&Touch) -> Verdict,
) -> Verdict {
    let dir = event.tool_input["path"].as_str().unwrap_or(".");
    let dir = absolute(dir, &event.cwd, policy.home());
    let Some(alternatives) = globs::braces(pattern, MAX_ALTERNATIVES) else {
        return ask(
            touch,
            &format!("`{pattern}` has more than {MAX_ALTERNATIVES} alternatives"),
        );
    };
    let style = Style {
        dotglob: true,
        nocase: true,
        globstar: true,
        follow: true,
    };
    let mut verdict = Verdict::Pass;
    for alt in alternatives {
        let full = if alt.starts_with('/') || alt.starts_with('~') {
            absolute(&alt, &event.cwd, policy.home())
        } else if alt.starts_with("**") {
            format!("{}/{alt}", dir.trim_end_matches('/'))
        } else {
            format!("{}/**/{alt}", dir.trim_end_matches('/'))
        };
        let access = Touch {
            access: Access::Read,
            ..touch.clone()
        };
        verdict = verdict.stricter(expanded(&access, &full, style, event, policy, budget, one));
    }
    verdict
}

/// The walk below a recursive operand that passed.
fn walk(touch: &Touch, text: &str, event: &Event, policy: &Policy, budget: &Budget) -> Verdict {
    let resolved = policy::resolve(text, &event.cwd, policy.home());
    let root = Path::new(resolved.real());
    if !root.is_dir() {
        return Verdict::Pass;
    }
    let (entries, list) = match touch.access {
        Access::RecursiveRead => (policy.deny_read(), "denyRead"),
        _ => (policy.deny_write(), "denyWrite"),
    };
    let command = event.tool_input["command"].as_str().unwrap_or("");
    let follow = walks::follow(&touch.by, touch.access, command);
    let mut left = budget.walked.get();
    let found = walks::walk(root, follow, entries, policy, &mut left);
    budget.walked.set(left);
    match found {
        Found::Nothing => Verdict::Pass,
        // A write walk takes every link as followed: it may not be.
        Found::Protected { path, to, entry } => (if touch.access == Access::RecursiveRead {
            Verdict::Deny
        } else {
            Verdict::Ask
        })(format!(
            "twsrt: {} {} {text} recursively, which reaches {} ({}), which the policy's {list} entry {entry} covers",
            touch.by,
            touch.access.verb(),
            path.display(),
            if path == to {
                "by its name".to_string()
            } else {
                format!("another name of {}", to.display())
            },
        )),
        Found::Unknown(why) => ask(touch, &why),
    }
}

fn ask(touch: &Touch, why: &str) -> Verdict {
    Verdict::Ask(format!(
        "twsrt: cannot tell which file {} {}: {why}; the policy denies some paths",
        touch.by,
        touch.access.verb()
    ))
}

/// `text` as an absolute path text (`~` expanded, relative ones below
/// `cwd`), `..` not folded and patterns kept.
fn absolute(text: &str, cwd: &Path, home: &Path) -> String {
    let expanded = policy::expand_home(text, home);
    if expanded.starts_with('/') {
        expanded
    } else {
        format!("{}/{expanded}", cwd.to_string_lossy().trim_end_matches('/'))
    }
}
