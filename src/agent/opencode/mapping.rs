//! The canonical rules as OpenCode permission entries, with a warning for
//! what OpenCode cannot enforce. The OpenCode 1.18.33 facts behind each row
//! are in doc/clients.md "OpenCode".
//!
//! | policy         | OpenCode entry                                                   |
//! |----------------|------------------------------------------------------------------|
//! | bash deny      | `bash`: `"CMD *": "deny"` (the command, alone or with arguments) |
//! | bash ask       | `bash`: `"CMD *": "ask"` (`--auto` approves it in a yolo launch)  |
//! | bash allow     | nothing: OpenCode allows every command unless a rule says else   |
//! | denyRead       | `read`: the path below home (or /) in any directory;             |
//! |                | `external_directory`: `"PATH/*": "deny"` (outside the project)   |
//! | denyWrite      | `edit`: the path below home (or /) in any directory              |
//! | deniedDomains  | `webfetch`: `"ask"`: it takes no URL patterns                     |
//! | allowWrite, allowedDomains, the rest of srt | nothing: left to the sandbox        |

use rustc_hash::FxHashMap;

use super::codes;
use crate::agent::Warnings;
use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::quoted;

/// What an entry does when it is the last one matching.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    Allow,
    Ask,
    Deny,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Deny => "deny",
        }
    }

    /// The action OpenCode reads from a config value; `None` for anything
    /// else (OpenCode refuses to start on it).
    pub fn parse(text: &str) -> Option<Verdict> {
        match text {
            "allow" => Some(Verdict::Allow),
            "ask" => Some(Verdict::Ask),
            "deny" => Some(Verdict::Deny),
            _ => None,
        }
    }
}

/// The permission keys twsrt writes entries under, in the order it writes
/// them (after every other key of the `permission` object).
pub const OWNED_KEYS: [&str; 5] = ["external_directory", "read", "edit", "bash", "webfetch"];

/// `webfetch` accepts only one action, no `{pattern: action}` map.
pub const FLAT_KEY: &str = "webfetch";

/// One entry of a `permission` map: under `key`, `pattern` gets `verdict`.
/// For [`FLAT_KEY`] the pattern is `*` and the entry is written as the
/// key's plain action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub key: &'static str,
    pub pattern: String,
    pub verdict: Verdict,
    /// The policy rule it was compiled from (not written to the file).
    pub origin: Origin,
}

/// A policy rule: its list (`deny`, `ask` for bash, dotted for srt) and
/// its text as the fragment spells it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub list: &'static str,
    pub rule: String,
}

/// The entries for `rules`, in policy order, each (key, pattern) once: a
/// deny wins over an ask for the same pattern. Both modes write the same
/// entries: a yolo launch (`--auto`) approves what asks and keeps the
/// denies.
pub fn translate(rules: &[SecurityRule], warnings: &mut Warnings) -> Result<Vec<Entry>> {
    let mut out: Vec<Entry> = Vec::new();
    // (key, pattern) -> its place in `out`.
    let mut at: FxHashMap<(&'static str, String), usize> = FxHashMap::default();
    let mut seen = Seen::default();
    for rule in rules {
        if rule.pattern.contains('\0') {
            return Err(Error::Policy(format!(
                "rule {} holds a NUL character, which no OpenCode rule can match; remove it",
                rule.pattern.escape_debug()
            )));
        }
        let made = match (rule.scope, rule.action) {
            (Scope::Execute, Action::Deny) => shell(rule.pattern, Verdict::Deny, &mut seen)?,
            (Scope::Execute, Action::Ask) => shell(rule.pattern, Verdict::Ask, &mut seen)?,
            (Scope::Read, Action::Deny) => {
                seen.paths = true;
                let origin = origin("filesystem.denyRead", rule.pattern);
                let mut made = by_tail("read", rule.pattern, &origin);
                made.extend(outside(rule.pattern, &origin));
                made
            }
            (Scope::Write, Action::Deny) => {
                seen.paths = true;
                by_tail(
                    "edit",
                    rule.pattern,
                    &origin("filesystem.denyWrite", rule.pattern),
                )
            }
            (Scope::Network, Action::Deny) => {
                seen.domains = true;
                vec![Entry {
                    key: FLAT_KEY,
                    pattern: "*".to_string(),
                    verdict: Verdict::Ask,
                    origin: origin("network.deniedDomains", rule.pattern),
                }]
            }
            (Scope::Network, Action::Allow) => {
                seen.allowed_domains += 1;
                Vec::new()
            }
            _ => Vec::new(),
        };
        for entry in made {
            add(&mut out, &mut at, entry);
        }
    }
    seen.warn(warnings);
    Ok(out)
}

/// Add `entry` unless its (key, pattern) is there already; a deny replaces
/// an ask of the same pattern.
fn add(out: &mut Vec<Entry>, at: &mut FxHashMap<(&'static str, String), usize>, entry: Entry) {
    match at.get(&(entry.key, entry.pattern.clone())) {
        Some(&i) if out[i].verdict < entry.verdict => out[i] = entry,
        Some(_) => {}
        None => {
            at.insert((entry.key, entry.pattern.clone()), out.len());
            out.push(entry);
        }
    }
}

fn origin(list: &'static str, rule: &str) -> Origin {
    Origin {
        list,
        rule: rule.to_string(),
    }
}

/// A bash deny or ask rule: OpenCode checks each command of a list or
/// pipeline (and of `$(...)`) against the patterns, and a pattern ending in
/// ` *` also matches the command without arguments.
fn shell(command: &str, verdict: Verdict, seen: &mut Seen) -> Result<Vec<Entry>> {
    let prefix = command.trim();
    if prefix.is_empty() {
        return Err(Error::Policy(format!(
            "bash rule {} holds no command",
            quoted(command)
        )));
    }
    if prefix.contains(['|', ';', '&']) {
        seen.compound.push(command.to_string());
    }
    seen.shell = true;
    let list = match verdict {
        Verdict::Deny => "deny",
        _ => "ask",
    };
    Ok(vec![Entry {
        key: "bash",
        pattern: format!("{prefix} *"),
        verdict,
        origin: origin(list, command),
    }])
}

/// A path as OpenCode's read and edit patterns see it: the path relative
/// to the project, which for a file outside it starts with `../` and ends
/// with the path below the home directory (or the root) from where the
/// two part. So a deny names that tail in every directory: alone, below
/// any directory, and everything under it.
///
/// A `**/` inside the tail may match no directory in srt, while OpenCode's
/// `*` (and so `**`) needs the `/` after it: the tail without the `**/`s
/// is written too.
fn by_tail(key: &'static str, path: &str, origin: &Origin) -> Vec<Entry> {
    let tail = tail_of(path);
    let mut tails = vec![tail.clone()];
    if tail.contains("**/") {
        tails.push(tail.replace("**/", ""));
    }
    tails
        .iter()
        .flat_map(|tail| {
            [
                tail.clone(),
                format!("*/{tail}"),
                format!("{tail}/*"),
                format!("*/{tail}/*"),
            ]
        })
        .map(|pattern| Entry {
            key,
            pattern,
            verdict: Verdict::Deny,
            origin: origin.clone(),
        })
        .collect()
}

/// The tail a path rule is matched by: a home path below `~/`, an
/// absolute one below `/`, a relative one as it is (`./` and `**/`
/// dropped); `*` for the home directory or the root itself.
pub fn tail_of(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    let mut rest = if let Some(r) = trimmed.strip_prefix("~/") {
        r
    } else if trimmed == "~" {
        ""
    } else {
        trimmed.trim_start_matches('/')
    };
    loop {
        if let Some(r) = rest.strip_prefix("./") {
            rest = r;
        } else if let Some(r) = rest.strip_prefix("**/") {
            rest = r;
        } else {
            break;
        }
    }
    if rest.is_empty() {
        "*".to_string()
    } else {
        rest.to_string()
    }
}

fn is_absolute(path: &str) -> bool {
    path.starts_with('/') || path.starts_with('~')
}

/// Everything below an absolute denyRead path, for a tool reaching outside
/// the project: OpenCode asks `external_directory` with the directory of
/// the path and `/*` (`~/` expands to the home directory).
fn outside(path: &str, origin: &Origin) -> Option<Entry> {
    let trimmed = path.trim_end_matches('/');
    (is_absolute(trimmed) && trimmed != "~").then(|| Entry {
        key: "external_directory",
        pattern: format!("{trimmed}/*"),
        verdict: Verdict::Deny,
        origin: origin.clone(),
    })
}

/// What the rules held that OpenCode matches differently than meant.
#[derive(Default)]
struct Seen {
    shell: bool,
    paths: bool,
    domains: bool,
    allowed_domains: usize,
    compound: Vec<String>,
}

impl Seen {
    fn warn(self, warnings: &mut Warnings) {
        if !self.compound.is_empty() {
            let list: Vec<String> = self.compound.iter().map(|c| quoted(c)).collect();
            warnings.push(super::warning(
                codes::COMPOUND_RULE,
                format!(
                    "OpenCode checks each command of a list or pipeline on its own, so these bash \
                     rules joining commands never match: {}",
                    list.join(", ")
                ),
            ));
        }
        if self.shell {
            warnings.push(super::warning(codes::COMMAND_TEXT, COMMAND_TEXT));
        }
        if self.paths {
            warnings.push(super::warning(codes::PATH_NAME, PATH_NAME));
        }
        if self.domains {
            warnings.push(super::warning(codes::FETCH_WHOLE, FETCH_WHOLE));
        }
        if self.allowed_domains > 0 {
            warnings.push(super::warning(
                codes::ALLOWED_DOMAINS,
                format!(
                    "OpenCode's webfetch takes no URL patterns, so {} allowedDomains {} not \
                     enforced for it; the sandbox (`twsrt run --srt -- opencode`) enforces them \
                     for everything OpenCode runs",
                    self.allowed_domains,
                    if self.allowed_domains == 1 {
                        "entry is"
                    } else {
                        "entries are"
                    }
                ),
            ));
        }
    }
}

const COMMAND_TEXT: &str = "OpenCode matches bash rules against each command's text as written: \
    another spelling (extra spaces, quotes, a path to the binary, `bash -c '...'`, an alias) \
    passes them";

const PATH_NAME: &str = "OpenCode matches read and edit rules against the path relative to the \
    project it runs in, so each denyRead or denyWrite path is denied by its path below the home \
    directory (or the root) under any directory, and what lies under a denied directory outside \
    the project through external_directory; a project inside the denied path's own parent sees it \
    by a shorter name, a symlink in the project to a denied file is read by the link's name, and \
    its bash tool reads any file, and so does its grep tool inside the \
    project (it asks by the search pattern, not the file: it prints the lines of a denied `.env`); \
    the sandbox (`twsrt run --srt -- opencode`) denies the paths to all of them";

const FETCH_WHOLE: &str = "OpenCode's webfetch takes one action for every URL, so the \
    deniedDomains entries make every fetch ask (a yolo launch, `--auto`, approves it); the sandbox \
    (`twsrt run --srt -- opencode`) denies the domains themselves";
