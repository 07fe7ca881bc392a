//! The canonical rules as Gemini CLI policy rules, with a warning for what
//! Gemini cannot enforce. The Gemini CLI 0.61.0 facts behind each row are
//! in doc/clients.md "Gemini CLI".
//!
//! | policy            | Gemini rule                                                    |
//! |-------------------|----------------------------------------------------------------|
//! | bash deny         | deny `run_shell_command`, `commandPrefix`                      |
//! | bash ask          | ask_user, same shape; dropped in yolo (as for Claude)          |
//! | bash allow        | not compiled (see [`ALLOW_SKIPPED`])                           |
//! | denyRead          | deny the read, list, glob and search tools by path             |
//! | denyWrite         | deny `write_file` and `replace` by path                        |
//! | deniedDomains     | deny `web_fetch` when its prompt holds a URL for the host      |
//! | allowWrite, allowedDomains, the rest of srt | nothing: left to the sandbox         |

use crate::agent::gemini::codes;
use crate::diag::Code;
use std::path::Path;

use super::pattern::{self, Anchor};
use super::render::{Decision, Matcher, Origin, Rule};
use crate::agent::Warnings;
use crate::error::{Error, Result};
use crate::rules::{Action, Scope, SecurityRule};
use crate::source::quoted;

const SHELL: &[&str] = &["run_shell_command"];
/// The tools that read a path the model names: `read_file` (`file_path`),
/// `read_many_files` (`include`), and `list_directory`, `glob` and
/// `grep_search` (`dir_path`). A rule for `grep_search` also matches its
/// legacy name `search_file_content` (`getToolAliases`).
const READ_TOOLS: &[&str] = &[
    "read_file",
    "read_many_files",
    "list_directory",
    "glob",
    "grep_search",
];
const READ_KEYS: &[&str] = &["file_path", "include", "dir_path"];
/// `glob` also takes the path in its `pattern` (an absolute glob).
const GLOB_TOOL: &[&str] = &["glob"];
const WRITE_TOOLS: &[&str] = &["write_file", "replace"];
const FETCH_TOOL: &[&str] = &["web_fetch"];

/// Tools, and the arguments of theirs that name the path.
type ToolsAndKeys = (&'static [&'static str], &'static [&'static str]);

/// Why bash allow rules have no Gemini output.
pub const ALLOW_SKIPPED: &str = "in Gemini CLI an allow rule with a command prefix runs the \
    command without asking and also skips Gemini's own shell checks for it (a command it \
    considers dangerous, a directory outside the workspace, git in an untrusted folder), and its \
    prefix also matches the command followed by a quote (`git diff\"x\"` runs `git diffx`)";

/// The rules for `rules` in the mode (`yolo` drops ask), in policy order,
/// each once; `~` is `home`.
pub fn translate(
    rules: &[SecurityRule],
    yolo: bool,
    home: &Path,
    warnings: &mut Warnings,
) -> Result<Vec<Rule>> {
    let mut out: Vec<Rule> = Vec::new();
    let mut skipped = Skipped::default();
    for rule in rules {
        check_nul(rule)?;
        let made = match (rule.scope, rule.action) {
            (Scope::Execute, Action::Deny) => shell(rule.pattern, Decision::Deny, &mut skipped)?,
            (Scope::Execute, Action::Ask) if !yolo => {
                shell(rule.pattern, Decision::AskUser, &mut skipped)?
            }
            (Scope::Execute, Action::Allow) => {
                skipped.allow.push(rule.pattern);
                Vec::new()
            }
            (Scope::Read, Action::Deny) => paths(rule, home, &mut skipped)?,
            (Scope::Write, Action::Deny) => paths(rule, home, &mut skipped)?,
            (Scope::Network, Action::Deny) => fetch(rule.pattern, &mut skipped),
            (Scope::Network, Action::Allow) => {
                skipped.allowed_domains += 1;
                Vec::new()
            }
            _ => Vec::new(),
        };
        for made in made {
            check_accepted(&made)?;
            // Two spellings of one path make one rule (the first names it).
            let same = |r: &Rule| {
                (r.tools, &r.matcher, r.decision) == (made.tools, &made.matcher, made.decision)
            };
            if !out.iter().any(same) {
                out.push(made);
            }
        }
    }
    skipped.warn(warnings);
    Ok(out)
}

/// A NUL cannot be meant, and Gemini strips it from paths before use
/// (`resolveDefensiveToolPath`), so the rule would name another file.
fn check_nul(rule: &SecurityRule) -> Result<()> {
    if rule.pattern.contains('\0') {
        return Err(Error::Policy(format!(
            "rule {} holds a NUL character, which no Gemini CLI rule can match; remove it",
            rule.pattern.escape_debug()
        )));
    }
    Ok(())
}

/// A pattern Gemini would drop with an error (too long, or one its ReDoS
/// check rejects) is an error here: a dropped deny rule denies nothing.
fn check_accepted(rule: &Rule) -> Result<()> {
    if let Matcher::ArgsPattern(regex) = &rule.matcher
        && !pattern::gemini_accepts(regex)
    {
        return Err(Error::Policy(format!(
            "the Gemini CLI rule for {} would need a pattern of {} characters; Gemini drops \
             patterns over {} (or ones it takes for a ReDoS risk), so it cannot be written",
            rule.message,
            pattern::utf16_len(regex),
            pattern::MAX_PATTERN_LEN
        )));
    }
    Ok(())
}

/// A bash deny or ask rule. `commandPrefix` matches the command's start
/// followed by whitespace, a quote or the end (`buildArgsPatterns`), and
/// Gemini splits compound commands (`&&`, `;`, `|`, `$(...)`, `bash -c`)
/// and checks each part (`checkShellCommand`).
fn shell<'a>(command: &'a str, decision: Decision, skipped: &mut Skipped<'a>) -> Result<Vec<Rule>> {
    let prefix = command.trim();
    if prefix.is_empty() {
        // Gemini reads an empty prefix as no prefix: every command.
        return Err(Error::Policy(format!(
            "bash rule {} holds no command",
            quoted(command)
        )));
    }
    if prefix.contains(['|', ';', '&']) {
        skipped.compound.push(command);
    }
    skipped.shell = true;
    let verb = match decision {
        Decision::Deny => "deny",
        Decision::AskUser => "ask",
    };
    Ok(vec![Rule {
        tools: SHELL,
        matcher: Matcher::CommandPrefix(prefix.to_string()),
        decision,
        message: format!("twsrt policy: bash {verb} rule {}", quoted(command)),
        origin: Origin {
            list: verb,
            rule: command.to_string(),
        },
    }])
}

/// A denyRead or denyWrite path.
fn paths<'a>(rule: &SecurityRule<'a>, home: &Path, skipped: &mut Skipped<'a>) -> Result<Vec<Rule>> {
    let Some(anchor) = pattern::anchor(rule.pattern, home)? else {
        skipped.other_users.push(rule.pattern);
        return Ok(Vec::new());
    };
    skipped.paths = true;
    let (kind, groups): (&str, &[ToolsAndKeys]) = match rule.scope {
        Scope::Read => (
            "denyRead",
            &[(READ_TOOLS, READ_KEYS), (GLOB_TOOL, &["pattern"])],
        ),
        _ => ("denyWrite", &[(WRITE_TOOLS, &["file_path"])]),
    };
    // `**/x` says "at any depth" itself; a plain relative path does not.
    if matches!(&anchor, Anchor::AnyDepth(rest) if !rest.is_empty())
        && !rule.pattern.starts_with("**/")
    {
        skipped.relative.push(rule.pattern);
    }
    Ok(groups
        .iter()
        .map(|(tools, keys)| Rule {
            tools,
            matcher: Matcher::ArgsPattern(pattern::path_pattern(&anchor, keys)),
            decision: Decision::Deny,
            message: format!("twsrt policy: {kind} {}", quoted(rule.pattern)),
            origin: Origin {
                list: match rule.scope {
                    Scope::Read => "filesystem.denyRead",
                    _ => "filesystem.denyWrite",
                },
                rule: rule.pattern.to_string(),
            },
        })
        .collect())
}

/// A deniedDomains entry.
fn fetch<'a>(entry: &'a str, skipped: &mut Skipped<'a>) -> Vec<Rule> {
    let Some(host) = pattern::host(entry) else {
        skipped.domains.push(entry);
        return Vec::new();
    };
    skipped.fetch = true;
    vec![Rule {
        tools: FETCH_TOOL,
        matcher: Matcher::ArgsPattern(pattern::fetch_pattern(host)),
        decision: Decision::Deny,
        message: format!("twsrt policy: deniedDomains {}", quoted(entry)),
        origin: Origin {
            list: "network.deniedDomains",
            rule: entry.to_string(),
        },
    }]
}

/// `'a', 'b'`, for a warning.
fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|p| quoted(p))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What could not be said, or said only in part, for the warnings.
#[derive(Default)]
struct Skipped<'a> {
    allow: Vec<&'a str>,
    compound: Vec<&'a str>,
    /// Some bash rule was written (its caveat is due).
    shell: bool,
    other_users: Vec<&'a str>,
    domains: Vec<&'a str>,
    allowed_domains: usize,
    /// Some path rule was written (its caveat is due).
    paths: bool,
    relative: Vec<&'a str>,
    fetch: bool,
}

impl Skipped<'_> {
    fn warn(self, warnings: &mut Warnings) {
        if !self.allow.is_empty() {
            warnings.push(warning(
                codes::BASH_ALLOW_SKIPPED,
                format!(
                    "{} bash allow rule(s) skipped: {ALLOW_SKIPPED}: {}",
                    self.allow.len(),
                    list(&self.allow)
                ),
            ));
        }
        if self.shell {
            warnings.push(warning(
                codes::COMMAND_TEXT,
                "Gemini CLI matches bash rules against the command's text: another spelling of \
                 the same command (`/usr/bin/rm`, `sudo rm`, `env rm`, `X=1 rm`, a tab after \
                 `rm`) escapes a `rm` rule; only a sandbox stops what such a command does",
            ));
        }
        if !self.compound.is_empty() {
            warnings.push(warning(
                codes::COMPOUND_RULE,
                format!(
                    "Gemini CLI checks each part of a compound command (joined by |, ; or &&) \
                 against the rules on its own, so these bash rules match only a command that \
                 starts with their exact text: {}",
                    list(&self.compound)
                ),
            ));
        }
        if !self.other_users.is_empty() {
            warnings.push(warning(
                codes::OTHER_USER_PATH,
                format!(
                    "{} path(s) under another user's home (~user) skipped: Gemini CLI sees \
                 absolute paths and twsrt does not resolve ~user for it: {}",
                    self.other_users.len(),
                    list(&self.other_users)
                ),
            ));
        }
        self.warn_paths_and_network(warnings);
    }

    fn warn_paths_and_network(&self, warnings: &mut Warnings) {
        if self.paths {
            warnings.push(warning(
                codes::PATH_SPELLING,
                "Gemini CLI matches path rules against the path as the model spells it in the \
                 tool call: another spelling of the same file (`..`, `//`, a symlink, a glob or \
                 a parent directory given to glob or grep) escapes them, and its shell tool is \
                 not covered at all; only a sandbox enforces denyRead and denyWrite",
            ));
        }
        if !self.relative.is_empty() {
            warnings.push(warning(codes::RELATIVE_PATH, format!(
                "Relative paths are denied in every directory for Gemini CLI (twsrt cannot know \
                 the directory it runs in): `secrets/x` matches any path ending in /secrets/x: \
                 {}",
                list(&self.relative)
            )));
        }
        if !self.domains.is_empty() {
            warnings.push(warning(codes::DOMAIN_SKIPPED, format!(
                "{} deniedDomains entr(ies) skipped: Gemini CLI rules can match only a host name \
                 or *.domain in a web_fetch URL: {}",
                self.domains.len(),
                list(&self.domains)
            )));
        }
        if self.fetch {
            warnings.push(warning(
                codes::FETCH_ONLY,
                "Gemini CLI deny rules for deniedDomains cover only web_fetch, by the URL text \
                 in its prompt (a percent-encoded, Unicode or IP spelling of the host escapes \
                 them); run_shell_command and google_web_search reach the network unchecked",
            ));
        }
        if self.allowed_domains > 0 {
            warnings.push(warning(
                codes::ALLOWED_DOMAINS,
                format!(
                    "{} allowedDomains entr(ies) have no Gemini CLI counterpart: its rules cannot \
                 limit web_fetch or the shell to a list of hosts",
                    self.allowed_domains
                ),
            ));
        }
    }
}

/// A generation warning of this agent.
fn warning(code: Code, message: impl Into<String>) -> crate::diag::Diagnostic {
    crate::agent::warning("gemini", code, message)
}
