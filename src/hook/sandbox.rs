//! The hook's sandbox mode (`[targets] claude_hook = "sandbox"`, `twsrt
//! hook claude --sandbox`): a Bash command the analysis cannot see through
//! is not asked about (or, in yolo mode, refused) but allowed with its text
//! replaced by `<srt> -s <settings> -c '<command>'`, so it runs inside the
//! kernel sandbox with the compiled policy.
//!
//! srt is `$TWSRT_SRT` when set, else `srt` on `PATH`, taken as an absolute
//! path; an srt that is a Node script (`#!/usr/bin/env node`) is run by the
//! `node` on the hook's `PATH`, named absolutely, so a `PATH` the agent
//! changes in its shell cannot put another `node` in between. Both, and the
//! `node_modules` tree srt runs from, are write-denied while the mode is on
//! ([`Sandbox::protected`]): an agent that replaced them would run every
//! wrapped command outside the sandbox. The settings are the srt source's output file, used only while its
//! bytes are exactly what the policy compiles to now (an edited or stale
//! file is not the policy). Without either the command is answered as
//! without the mode: ask, or deny in yolo mode.
//!
//! Claude Code matches its `Bash(...)` deny and ask rules against the
//! rewritten command (measured with 2.1.332), where they never match. So a
//! command that may fall under a bash deny or ask rule is never wrapped: it
//! mentions the rule's words in order ([`Sandbox::held_by`], a match on
//! words after quote removal, wider than Claude's own), nor one the meaning
//! match ([`super::meaning`]) asks about.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::compile::Compiled;
use crate::rules::{Action, Scope};
use crate::shellwords::single_quote;
use crate::source::SourceKind;

/// Where a wrapped command's srt and settings are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    pub srt: PathBuf,
    /// The interpreter of an srt that is a Node script, absolute.
    pub node: Option<PathBuf>,
    pub settings: PathBuf,
    /// The bash deny and ask rules: (as written, the words to look for).
    held: Vec<(String, Vec<String>)>,
    /// The directory srt starts in (the project root), where it anchors
    /// the settings' relative entries (`.claude/settings.json`, `.`);
    /// `None`: the command's own directory.
    pub root: Option<PathBuf>,
    /// The hook's `PATH`, where the inert programs are looked up
    /// ([`super::inert`]); `None`: no external program is inert.
    pub path: Option<String>,
}

impl Sandbox {
    /// srt and the settings for `compiled`, or why the mode cannot wrap.
    pub fn find(
        compiled: &Compiled,
        env_srt: Option<&str>,
        path: Option<&str>,
    ) -> Result<Sandbox, String> {
        let srt = find_srt(env_srt, path)?;
        let node = if is_node_script(&srt) {
            let node = find_on_path("node", path);
            Some(node.ok_or("srt is a Node script and node is not on PATH")?)
        } else {
            None
        };
        let srt_doc = compiled
            .canonical
            .iter()
            .find(|c| c.kind == SourceKind::Srt)
            .ok_or("the config has no srt source, so there are no sandbox settings")?;
        let settings = srt_doc.output.clone();
        if !settings.is_absolute() {
            return Err(format!(
                "the srt output {} is not absolute",
                settings.display()
            ));
        }
        let rules = compiled.rules();
        let held = rules
            .iter()
            .filter(|r| r.is(Scope::Execute, Action::Deny) || r.is(Scope::Execute, Action::Ask))
            .map(|r| r.pattern);
        match std::fs::read_to_string(&settings) {
            Ok(text) if text == srt_doc.text() => Ok(Sandbox {
                node,
                path: path.map(str::to_string),
                ..Sandbox::new(srt, settings, held)
            }),
            Ok(_) => Err(format!(
                "{} is not what the policy compiles to (run `twsrt generate -w`)",
                settings.display()
            )),
            Err(e) => Err(format!("cannot read {}: {e}", settings.display())),
        }
    }

    /// srt at `srt` with `settings`, never wrapping what the bash rules
    /// `held` (deny and ask patterns) may cover.
    pub fn new<'a>(
        srt: PathBuf,
        settings: PathBuf,
        held: impl Iterator<Item = &'a str>,
    ) -> Sandbox {
        let held = held
            .map(|p| (p.to_string(), rule_words(p)))
            .filter(|(_, words)| !words.is_empty())
            .collect();
        Sandbox {
            srt,
            node: None,
            settings,
            held,
            root: None,
            path: None,
        }
    }

    /// What a wrapped command's confinement depends on besides the
    /// settings (a policy file already): srt as named and as its real
    /// file, the `node_modules` tree it runs from, and node.
    pub fn protected(&self) -> Vec<PathBuf> {
        let real = std::fs::canonicalize(&self.srt).unwrap_or_else(|_| self.srt.clone());
        let tree = real
            .ancestors()
            .find(|a| a.file_name().is_some_and(|n| n == "node_modules"))
            .map(Path::to_path_buf);
        let node = self.node.iter().flat_map(|n| {
            [
                n.clone(),
                std::fs::canonicalize(n).unwrap_or_else(|_| n.clone()),
            ]
        });
        let mut out = vec![self.srt.clone(), real];
        out.extend(tree);
        out.extend(node);
        out.dedup();
        out
    }

    /// The bash deny or ask rule `command` may fall under: the rule's words
    /// appear in it one after the other.
    pub fn held_by(&self, command: &str) -> Option<&str> {
        let words = words(command);
        self.held
            .iter()
            .find(|(_, rule)| words.windows(rule.len()).any(|w| w == rule.as_slice()))
            .map(|(written, _)| written.as_str())
    }

    /// `input` (a Bash tool input) with its command, to be run in `cwd`,
    /// run inside srt ([`Sandbox::wrap_in`]).
    pub fn wrap_input(&self, input: &Value, command: &str, cwd: &Path) -> Value {
        let mut input = input.clone();
        input["command"] = Value::String(self.wrap_in(command, cwd));
        input
    }

    /// [`Sandbox::wrap`] for a command run in `cwd`: where that is not
    /// [`Sandbox::root`], srt is started in the root (in a subshell, so the
    /// agent's shell stays where it is) and the command changes to `cwd`
    /// inside, or does not run. srt anchors a relative entry where it
    /// starts (measured with srt 0.0.78), so from a subfolder the project's
    /// `.claude/settings*.json` would otherwise be writable.
    pub fn wrap_in(&self, command: &str, cwd: &Path) -> String {
        match &self.root {
            Some(root) if root != cwd => format!(
                "(cd -- {} && exec {})",
                single_quote(&root.to_string_lossy()),
                self.wrap(&format!(
                    "cd -- {} || exit\n{command}",
                    single_quote(&cwd.to_string_lossy())
                ))
            ),
            _ => self.wrap(command),
        }
    }

    /// `command` as a command line that runs it inside srt: the shell that
    /// runs the line hands srt the text unchanged as the value of `-c`, and
    /// srt runs it with `bash -c`. A text starting with `-` or `+` would be
    /// options there (and for srt), so it is handed over as `eval '<text>'`,
    /// which is how Claude Code's Bash tool runs every command.
    pub fn wrap(&self, command: &str) -> String {
        let text = if command.starts_with(['-', '+']) {
            format!("eval {}", single_quote(command))
        } else {
            command.to_string()
        };
        let runner = match &self.node {
            Some(node) => format!(
                "{} {}",
                single_quote(&node.to_string_lossy()),
                single_quote(
                    &std::fs::canonicalize(&self.srt)
                        .unwrap_or_else(|_| self.srt.clone())
                        .to_string_lossy()
                )
            ),
            None => single_quote(&self.srt.to_string_lossy()),
        };
        format!(
            "{runner} -s {} -c {}",
            single_quote(&self.settings.to_string_lossy()),
            single_quote(&text)
        )
    }
}

/// The characters that end a word for [`words`]: blanks and the shell's
/// operators and expansions.
const SEPARATORS: &[char] = &[
    ' ', '\t', '\n', ';', '|', '&', '(', ')', '<', '>', '`', '$', '{', '}',
];

/// The words of `text` with quotes and backslashes removed, a command path
/// as its last segment (`/usr/bin/dd` is `dd`).
fn words(text: &str) -> Vec<String> {
    let unquoted: String = text
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect();
    unquoted
        .split(SEPARATORS)
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.rsplit('/')
                .find(|s| !s.is_empty())
                .unwrap_or(w)
                .to_string()
        })
        .collect()
}

/// The words a rule's command starts with (`git push *` and `npm:*` as
/// `git push` and `npm`); a rule with an operator in it (`curl | sh`) by
/// its first word alone.
fn rule_words(pattern: &str) -> Vec<String> {
    let pattern = pattern.trim_end_matches(":*");
    let mut out: Vec<String> = words(pattern).into_iter().filter(|w| w != "*").collect();
    if pattern.contains(
        SEPARATORS
            .iter()
            .filter(|c| !c.is_whitespace())
            .copied()
            .collect::<Vec<_>>()
            .as_slice(),
    ) {
        out.truncate(1);
    }
    out
}

/// `$TWSRT_SRT` (which must be an executable file), else the first `srt`
/// on `path`.
fn find_srt(env_srt: Option<&str>, path: Option<&str>) -> Result<PathBuf, String> {
    if let Some(named) = env_srt.filter(|s| !s.is_empty()) {
        let p = Path::new(named);
        return if p.is_absolute() && is_executable(p) {
            Ok(p.to_path_buf())
        } else {
            Err(format!(
                "TWSRT_SRT={named} is not an absolute path to an executable"
            ))
        };
    }
    find_on_path("srt", path)
        .ok_or_else(|| "srt is not on PATH (nor named by TWSRT_SRT)".to_string())
}

/// The first executable `name` in the absolute directories of `path`.
fn find_on_path(name: &str, path: Option<&str>) -> Option<PathBuf> {
    path.into_iter()
        .flat_map(|p| p.split(':'))
        .filter(|dir| dir.starts_with('/'))
        .map(|dir| Path::new(dir).join(name))
        .find(|p| is_executable(p))
}

/// The file starts with `#!/usr/bin/env node` (npm's srt does).
fn is_node_script(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 64];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    let line = head[..n].split(|b| *b == b'\n').next().unwrap_or(&[]);
    line.starts_with(b"#!")
        && line
            .split(|b| *b == b' ' || *b == b'/')
            .any(|w| w == b"node")
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside the root, srt starts in the root (a subshell) and the
    /// command changes back to its directory first, or does not run.
    #[test]
    fn a_command_outside_the_root_starts_srt_in_the_root() {
        let mut s = Sandbox::new("/srt".into(), "/s.json".into(), std::iter::empty());
        let sub = Path::new("/p/it's");
        assert_eq!(s.wrap_in("ls", sub), s.wrap("ls"));
        s.root = Some("/p".into());
        assert_eq!(s.wrap_in("ls", Path::new("/p")), s.wrap("ls"));
        assert_eq!(
            s.wrap_in("-x", sub),
            format!(
                "(cd -- '/p' && exec {})",
                s.wrap("cd -- '/p/it'\\''s' || exit\n-x")
            )
        );
    }

    #[test]
    fn a_command_that_may_fall_under_a_bash_rule_is_held() {
        let rules = [
            "dd",
            "git push",
            "npm install:*",
            "curl | sh",
            "rm -rf /",
            "git commit *",
        ];
        let s = Sandbox::new("/srt".into(), "/s.json".into(), rules.into_iter());
        for (command, rule) in [
            ("dd if=$X of=/dev/null", Some("dd")),
            ("cat $X | /usr/bin/dd of=y", Some("dd")),
            ("\\dd if=$X", Some("dd")),
            ("'d'd if=$X", Some("dd")),
            ("cd $D && git  push origin", Some("git push")),
            ("git \"push\" $R", Some("git push")),
            ("npm install $P", Some("npm install:*")),
            ("curl $U -o x", Some("curl | sh")),
            ("rm -rf / $X", Some("rm -rf /")),
            ("git commit -m $M", Some("git commit *")),
            ("echo $(git push)", Some("git push")),
            ("cat $X", None),
            ("git status $X", None),
            ("ddx $X", None),
            ("git log --grep=push $X", None),
        ] {
            assert_eq!(s.held_by(command), rule, "{command}");
        }
    }
}
