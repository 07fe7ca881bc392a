//! A scenario builder for CLI tests: declare a HOME tree, the arguments and
//! what must come out, and the builder runs the real binary with HOME set to a
//! fresh temp dir (so nothing touches the developer's home).
//!
//! Strict by default: a scenario expects exit 0, an empty stdout and an empty
//! stderr unless it says otherwise. Exact text is given with `.stdout(..)` /
//! `.stderr(..)`; anything looser is an explicit opt-out that reads as such
//! (`.stderr_contains(..)`, `.any_stdout()`), so a test never checks less
//! than it appears to. `.unchanged()` is the one way to say "this run wrote
//! nothing": every entry under HOME (the config dir included), with its
//! type, mode and content, is the same after the run as before.
//!
//! `{HOME}` in expected output stands for the temp HOME path.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

pub const CONFIG: &str = ".config/twsrt/config.toml";
pub const SRT_FRAGMENT: &str = ".config/twsrt/srt/base.jsonc";
pub const BASH_FRAGMENT: &str = ".config/twsrt/bash/base.jsonc";

/// The base fixture every scenario starts from (`Test::with_policy`): a
/// minimal valid policy, config.toml plus one srt and one bash fragment.
pub const BASE_CONFIG: &str = r#"schema_version = 1
default_profile = "default"

[sources.srt]
output = "~/.srt-settings.json"

[sources.srt.fragments.base]
path = "srt/base.jsonc"

[sources.bash]
output = "bash-rules.json"

[sources.bash.fragments.base]
path = "bash/base.jsonc"

[profiles.default]
srt = ["base"]
bash = ["base"]
"#;

pub const BASE_SRT: &str = r#"{
  "filesystem": {"denyRead": ["~/.ssh"], "allowWrite": ["."]},
  "network": {"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"]}
}"#;

pub const BASE_BASH: &str = r#"{"ask": ["git push"], "deny": ["rm"]}"#;

/// What every run that renders Copilot from the base policy warns.
pub const NO_ASK_TIER: &str = "Warning: allowWrite '.' emits --allow-tool 'shell' (with read, \
     edit and write), which lets Copilot run every shell command without asking; only the \
     --deny-tool rules still stop one\n\
     Warning: Copilot has no ask tier: bash ask rule 'git push' becomes --deny-tool\n";

/// The notes of every run of `all` while the agents added after 3.3.3
/// (Gemini CLI, OpenCode) are not configured (the scenarios predating them
/// leave `gemini_policy` and `opencode_config` unset).
pub const NEW_AGENTS_SKIPPED: &str = "Info: gemini skipped: [targets].gemini_policy is not set in config.toml\n\
     Info: opencode skipped: [targets].opencode_config is not set in config.toml\n";

/// The line every preview ends with (stderr).
pub const PREVIEW_END: &str = "Info: preview only, no file was written. Add -w/--write to \
     write the files listed above.\n";

/// What a preview of the base policy lists before that line, in every case
/// (the canonical outputs are always written).
pub const WOULD_WRITE_CANONICAL: &str = "Would write canonical: {HOME}/.srt-settings.json\n\
     Would write canonical: {HOME}/.config/twsrt/bash-rules.json\n";

/// The note of a run of `all` while `[targets]` sets no agent.
pub const NO_AGENTS: &str = "Info: no agent is configured in [targets] of config.toml; only \
     the canonical outputs are handled. Set claude_settings, copilot_output, codex_config, \
     gemini_policy or opencode_config to add one.\n";

/// `[targets]` configuring Copilot alone (`config_append` it).
pub const COPILOT_ONLY: &str = "\n[targets]\ncopilot_output = \"~/flags/copilot.txt\"\n";

/// The warning before `twsrt test` probes a settings file the policy does
/// not compile to.
pub const DIFFERS: &str = "Warning: {HOME}/.srt-settings.json differs from what profile \
     'default' compiles to; probing the policy against it: each rule it lacks and each entry \
     that widens is a FAIL (`twsrt diff` shows the drift, `twsrt generate -w` rewrites it)\n";

/// Every agent target in HOME (`Test::targets`), for the scenarios that
/// write or read the agents' own files.
pub const TARGETS: &str = r#"
[targets]
claude_settings = "~/.claude/settings.full.json"
codex_config = "~/.codex/config.toml"
codex_rules = "~/.codex/rules/twsrt.rules"
copilot_output = "~/flags/copilot.txt"
"#;

pub const CLAUDE_TARGET: &str = ".claude/settings.full.json";
pub const CLAUDE_YOLO: &str = ".claude/settings.yolo.json";
pub const ANCHOR: &str = ".claude/settings.json";
pub const CODEX_CONFIG: &str = ".codex/config.toml";
pub const CODEX_RULES: &str = ".codex/rules/twsrt.rules";
pub const COPILOT: &str = "flags/copilot.txt";
pub const COPILOT_YOLO: &str = "flags/copilot.yolo.txt";
pub const SRT_OUT: &str = ".srt-settings.json";
pub const BASH_OUT: &str = ".config/twsrt/bash-rules.json";

/// A second profile (`Test::work_profile`): `work` extends `default` with
/// one more srt fragment, so two runs can write different content.
pub const WORK_CONFIG: &str = r#"
[sources.srt.fragments.work]
path = "srt/work.jsonc"

[profiles.work]
extends = ["default"]
srt = ["work"]
"#;

pub const WORK_SRT: &str = r#"{"filesystem": {"denyRead": ["~/work/.vault"]}, "network": {"allowedDomains": ["corp.example.com"]}}"#;

/// How long a run may take before it counts as blocked (most likely on a
/// FIFO) and fails the test instead of hanging it.
const TIMEOUT: Duration = Duration::from_secs(60);

/// What one output stream must be.
#[derive(Debug)]
enum Expect {
    /// This text, exactly (the default is the empty text).
    Exact(String),
    /// Holds every one of these (an explicit opt-out of exactness).
    Contains(Vec<String>),
    /// Anything (an explicit opt-out; the caller checks it).
    Any,
}

impl Expect {
    #[track_caller]
    fn push(&mut self, name: &str, fact: &str) {
        match self {
            Expect::Contains(facts) => facts.push(fact.to_string()),
            // Exact only by default, or anything: the fact narrows it.
            Expect::Exact(text) if text.is_empty() => *self = Expect::Contains(vec![fact.into()]),
            Expect::Any => *self = Expect::Contains(vec![fact.into()]),
            other => panic!("{name}: `contains` after {other:?}"),
        }
    }

    #[track_caller]
    fn check(&self, name: &str, actual: &str, context: &str) {
        match self {
            Expect::Exact(text) => assert_eq!(actual, text, "{name}\n{context}"),
            Expect::Contains(facts) => {
                for fact in facts {
                    assert!(
                        actual.contains(fact.as_str()),
                        "{name} lacks {fact:?}\n{context}"
                    );
                }
            }
            Expect::Any => {}
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unchanged {
    Always,
    IfItFails,
}

#[must_use = "a scenario does nothing until `.run()`"]
pub struct Test {
    home: tempfile::TempDir,
    args: Vec<String>,
    env: Vec<(String, String)>,
    wrapper: Vec<String>,
    no_color: bool,
    status: Option<i32>,
    stdout: Expect,
    stderr: Expect,
    lacks: Vec<String>,
    unchanged: Option<Unchanged>,
    tmpdir: Option<tempfile::TempDir>,
    cwd: Option<String>,
}

pub struct Output {
    pub home: tempfile::TempDir,
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn home(&self) -> &Path {
        self.home.path()
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.home.path().join(rel)
    }

    #[track_caller]
    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
    }

    pub fn snapshot(&self) -> BTreeMap<PathBuf, String> {
        snapshot(self.home.path())
    }

    /// A new scenario in the same HOME (a second command after a first).
    pub fn then(self) -> Test {
        Test::in_home(self.home)
    }
}

impl Default for Test {
    fn default() -> Self {
        Self::new()
    }
}

impl Test {
    /// An empty HOME.
    pub fn new() -> Self {
        Self::in_home(tempfile::tempdir().expect("temp HOME"))
    }

    fn in_home(home: tempfile::TempDir) -> Self {
        Test {
            home,
            args: Vec::new(),
            env: Vec::new(),
            wrapper: Vec::new(),
            no_color: true,
            status: Some(0),
            stdout: Expect::Exact(String::new()),
            stderr: Expect::Exact(String::new()),
            lacks: Vec::new(),
            unchanged: None,
            tmpdir: None,
            cwd: None,
        }
    }

    /// A HOME with the base policy at the default config path.
    pub fn with_policy() -> Self {
        Self::new()
            .file(CONFIG, BASE_CONFIG)
            .file(SRT_FRAGMENT, BASE_SRT)
            .file(BASH_FRAGMENT, BASE_BASH)
    }

    /// Add the [targets] table of `TARGETS` to the config.
    pub fn targets(self) -> Self {
        self.config_append(TARGETS)
    }

    /// Add the `work` profile and its fragment.
    pub fn work_profile(self) -> Self {
        self.config_append(WORK_CONFIG)
            .file(".config/twsrt/srt/work.jsonc", WORK_SRT)
    }

    /// Run without setting `NO_COLOR` (it is set by default).
    pub fn without_no_color(mut self) -> Self {
        self.no_color = false;
        self
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Write a file under HOME (parent directories created).
    #[track_caller]
    pub fn file(self, rel: &str, content: impl AsRef<[u8]>) -> Self {
        let path = self.home.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
        self
    }

    #[track_caller]
    /// `file`, recorded as twsrt's own output in `written.json` beside
    /// the default config (what an earlier `generate -w` leaves).
    pub fn file_by_twsrt(self, rel: &str, content: impl AsRef<[u8]>) -> Self {
        let content = content.as_ref().to_vec();
        let test = self.file(rel, &content);
        let record = test.home.path().join(".config/twsrt/written.json");
        let mut map: serde_json::Map<String, serde_json::Value> = fs::read(&record)
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or_default();
        let path = test.home.path().join(rel).to_string_lossy().into_owned();
        map.insert(path, serde_json::json!([twsrt_digest(&content)]));
        fs::create_dir_all(record.parent().unwrap()).unwrap();
        fs::write(&record, serde_json::to_vec(&map).unwrap()).unwrap();
        test
    }

    pub fn mode(self, rel: &str, mode: u32) -> Self {
        fs::set_permissions(self.home.path().join(rel), fs::Permissions::from_mode(mode)).unwrap();
        self
    }

    /// A symlink at `rel` to `target` (whatever was at `rel` is replaced).
    #[track_caller]
    pub fn symlink(self, rel: &str, target: &str) -> Self {
        let path = self.home.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let _ = fs::remove_file(&path);
        std::os::unix::fs::symlink(target, &path).unwrap();
        self
    }

    #[track_caller]
    pub fn dir(self, rel: &str) -> Self {
        fs::create_dir_all(self.home.path().join(rel)).unwrap();
        self
    }

    /// A FIFO at `rel` (a reader of it would block forever).
    #[track_caller]
    pub fn fifo(self, rel: &str) -> Self {
        let path = self.home.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success(), "mkfifo {rel}");
        self
    }

    /// Append to the config (e.g. a [targets] table).
    #[track_caller]
    pub fn config_append(self, text: &str) -> Self {
        let path = self.home.path().join(CONFIG);
        let mut config = fs::read_to_string(&path).unwrap_or_default();
        config.push_str(text);
        fs::write(&path, config).unwrap();
        self
    }

    pub fn args(mut self, args: &[&str]) -> Self {
        self.args = args.iter().map(|s| s.to_string()).collect();
        self
    }

    /// Run in this directory below HOME (created), not in HOME.
    #[track_caller]
    pub fn cwd(mut self, rel: &str) -> Self {
        fs::create_dir_all(self.home.path().join(rel)).unwrap();
        self.cwd = Some(rel.to_string());
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    /// Run twsrt through `wrapper`, a command that execs its arguments
    /// (`setpriv ... --`, `sh -c 'umask 000 && exec "$0" "$@"'`).
    pub fn wrapper(mut self, wrapper: &[&str]) -> Self {
        self.wrapper = wrapper.iter().map(|s| s.to_string()).collect();
        self
    }

    pub fn status(mut self, status: i32) -> Self {
        self.status = Some(status);
        self
    }

    /// Accept any exit status (the caller checks it).
    pub fn any_status(mut self) -> Self {
        self.status = None;
        self
    }

    /// stdout is exactly `text`.
    pub fn stdout(mut self, text: &str) -> Self {
        self.stdout = Expect::Exact(text.to_string());
        self
    }

    /// stderr is exactly `text`.
    pub fn stderr(mut self, text: &str) -> Self {
        self.stderr = Expect::Exact(text.to_string());
        self
    }

    /// stdout holds `fact` (instead of being exact).
    #[track_caller]
    pub fn stdout_contains(mut self, fact: &str) -> Self {
        self.stdout.push("stdout", fact);
        self
    }

    /// stderr holds `fact` (instead of being exact).
    #[track_caller]
    pub fn stderr_contains(mut self, fact: &str) -> Self {
        self.stderr.push("stderr", fact);
        self
    }

    /// stdout is not checked here (the caller checks what it needs).
    pub fn any_stdout(mut self) -> Self {
        self.stdout = Expect::Any;
        self
    }

    /// stderr is not checked here (the caller checks what it needs).
    pub fn any_stderr(mut self) -> Self {
        self.stderr = Expect::Any;
        self
    }

    /// Neither stream holds `text`, on top of what they must be.
    pub fn lacks(mut self, text: &str) -> Self {
        self.lacks.push(text.to_string());
        self
    }

    /// The run changes nothing under HOME: no entry is added, removed or
    /// altered (type, mode, content, symlink target).
    pub fn unchanged(mut self) -> Self {
        self.unchanged = Some(Unchanged::Always);
        self
    }

    /// `unchanged()` for a run whose outcome the test cannot know in
    /// advance (a mutated policy): when it exits non-zero, nothing changed.
    pub fn unchanged_if_it_fails(mut self) -> Self {
        self.unchanged = Some(Unchanged::IfItFails);
        self
    }

    /// TMPDIR is a fresh directory that must be empty again after the run
    /// (`twsrt test` removes what its probes leave there).
    pub fn clean_tmpdir(mut self) -> Self {
        self.tmpdir = Some(tempfile::tempdir().expect("temp TMPDIR"));
        self
    }

    /// Every entry under HOME (see `snapshot`).
    pub fn snapshot(&self) -> BTreeMap<PathBuf, String> {
        snapshot(self.home.path())
    }

    #[track_caller]
    pub fn run(self) -> Output {
        let home = self.home.path().to_path_buf();
        let before = self.unchanged.map(|when| (when, snapshot(&home)));
        let bin = env!("CARGO_BIN_EXE_twsrt");
        let mut cmd = match self.wrapper.split_first() {
            Some((program, rest)) => {
                let mut cmd = Command::new(program);
                cmd.args(rest).arg(bin);
                cmd
            }
            None => Command::new(bin),
        };
        cmd.args(&self.args)
            .current_dir(home.join(self.cwd.as_deref().unwrap_or("")))
            .env_clear()
            .env("HOME", &home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.no_color {
            cmd.env("NO_COLOR", "1");
        }
        if let Some(tmp) = &self.tmpdir {
            cmd.env("TMPDIR", tmp.path());
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let out = wait_with_timeout(cmd, &self.args);
        let home_text = home.display().to_string();
        let stdout = String::from_utf8_lossy(&out.stdout).replace(&home_text, "{HOME}");
        let stderr = String::from_utf8_lossy(&out.stderr).replace(&home_text, "{HOME}");
        let status = out.status.code().unwrap_or(-1);
        let context = format!(
            "args {:?}\n--- stdout\n{stdout}--- stderr\n{stderr}",
            self.args
        );
        assert!(!stderr.contains("panicked"), "twsrt panicked\n{context}");
        if let Some(expected) = self.status {
            assert_eq!(status, expected, "exit status\n{context}");
        }
        self.stdout.check("stdout", &stdout, &context);
        self.stderr.check("stderr", &stderr, &context);
        for text in &self.lacks {
            assert!(
                !stdout.contains(text.as_str()) && !stderr.contains(text.as_str()),
                "output shows {text:?}\n{context}"
            );
        }
        if let Some((when, before)) = before
            && (when == Unchanged::Always || status != 0)
        {
            assert_eq!(snapshot(&home), before, "files changed\n{context}");
        }
        if let Some(tmp) = &self.tmpdir {
            let left = snapshot(tmp.path());
            assert!(left.is_empty(), "left in TMPDIR: {left:?}\n{context}");
        }
        Output {
            home: self.home,
            status,
            stdout,
            stderr,
        }
    }
}

/// Run `cmd` to the end; a run that does not finish within `TIMEOUT` is
/// killed and fails the test (twsrt blocked, most likely reading a FIFO).
#[track_caller]
fn wait_with_timeout(mut cmd: Command, args: &[String]) -> std::process::Output {
    let child = cmd.spawn().expect("run twsrt");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(TIMEOUT) {
        Ok(out) => out.expect("wait for twsrt"),
        Err(_) => {
            // Only this run's own child, by its pid.
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("twsrt {args:?} did not finish (blocked reading a FIFO?)");
        }
    }
}

/// Every entry under `root`, by relative path: a regular file as
/// `"{mode:o} {content}"`, a directory as `"dir {mode:o}"`, a symlink as
/// `"-> {target}"`, a FIFO or socket as `"fifo {mode:o}"` / `"socket
/// {mode:o}"`. Nothing but regular files and directories is opened, so a
/// FIFO never blocks the snapshot.
pub fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(root).unwrap().to_path_buf();
            let meta = fs::symlink_metadata(&path).unwrap();
            let ft = meta.file_type();
            let mode = meta.permissions().mode() & 0o7777;
            let desc = if ft.is_symlink() {
                format!("-> {}", fs::read_link(&path).unwrap().display())
            } else if ft.is_dir() {
                stack.push(path);
                format!("dir {mode:o}")
            } else if ft.is_fifo() {
                format!("fifo {mode:o}")
            } else if ft.is_socket() {
                format!("socket {mode:o}")
            } else {
                // An unreadable file (mode 000) is listed by its mode alone.
                match fs::read(&path) {
                    Ok(bytes) => format!("{mode:o} {}", String::from_utf8_lossy(&bytes)),
                    Err(e) => format!("{mode:o} unreadable: {}", e.kind()),
                }
            };
            out.insert(rel, desc);
        }
    }
    out
}

/// No twsrt temp file is left anywhere under `root`.
#[track_caller]
pub fn assert_no_temp(root: &Path) {
    for rel in snapshot(root).keys() {
        assert!(
            !rel.to_string_lossy().contains("twsrt-tmp"),
            "temp file left behind: {}",
            rel.display()
        );
    }
}

/// The digest twsrt's record of written files keeps (length, FNV-1a 64).
pub fn twsrt_digest(content: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in content {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}:{hash:016x}", content.len())
}

/// A temporary HOME holding `files` (a path under HOME and its text), each
/// with its folders.
pub fn planted_home(files: &[(&str, &str)]) -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("temp HOME");
    for (rel, text) in files {
        let path = home.path().join(rel);
        fs::create_dir_all(path.parent().expect("a parent")).expect("dirs");
        fs::write(path, text).expect("a fixture file");
    }
    home
}

/// The guard hook's answer (its stdout) to one `tool` call, from
/// `twsrt hook claude ARGS` run in `cwd` with HOME `home`, the test's PATH
/// and `env` as its whole environment. The hook must exit 0.
pub fn hook_answer<V: AsRef<std::ffi::OsStr>>(
    home: &Path,
    cwd: &Path,
    args: &[&str],
    env: &[(&str, V)],
    tool: &str,
    input: serde_json::Value,
) -> String {
    use std::io::Write;
    let event = serde_json::json!({
        "session_id": "s", "transcript_path": "", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse",
        "tool_name": tool, "tool_input": input, "tool_use_id": "t",
    });
    let mut child = Command::new(env!("CARGO_BIN_EXE_twsrt"))
        .args(["-c", &home.join(CONFIG).to_string_lossy(), "hook", "claude"])
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("HOME", home)
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .envs(env.iter().map(|(k, v)| (k, v.as_ref())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("twsrt runs");
    let mut stdin = child.stdin.take().expect("a stdin pipe");
    stdin
        .write_all(event.to_string().as_bytes())
        .expect("the event is written");
    drop(stdin);
    let out = child.wait_with_output().expect("twsrt ends");
    assert_eq!(out.status.code(), Some(0), "{tool} {input}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The permission decision in a hook answer; `None` when it is empty (the
/// call passes).
pub fn decision_in(answer: &str) -> Option<String> {
    if answer.is_empty() {
        return None;
    }
    let answer: serde_json::Value =
        serde_json::from_str(answer).unwrap_or_else(|_| panic!("not JSON: {answer}"));
    let decision = &answer["hookSpecificOutput"]["permissionDecision"];
    Some(decision.as_str().unwrap_or("?").to_string())
}

/// The guard hook's decision on one `tool` call (`None`: it passes), as
/// [`hook_answer`] runs it.
pub fn hook_decision(
    home: &Path,
    cwd: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    tool: &str,
    input: serde_json::Value,
) -> Option<String> {
    decision_in(&hook_answer(home, cwd, args, env, tool, input))
}

/// The findings with `code` that `doctor --json` reports for `test`'s HOME.
pub fn doctor_findings(test: Test, code: &str) -> Vec<serde_json::Value> {
    let out = test
        .args(&["doctor", "--json"])
        .any_status()
        .any_stdout()
        .any_stderr()
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("doctor's JSON");
    doc["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["code"] == code)
        .cloned()
        .collect()
}

/// The row of `explain --json ARGS` for `agent`'s `layer` in `test`'s HOME
/// (the run must change nothing).
pub fn explain_row(test: Test, args: &[&str], agent: &str, layer: &str) -> serde_json::Value {
    let mut all = vec!["explain", "--json"];
    all.extend_from_slice(args);
    let out = test
        .args(&all)
        .stdout_contains("\"rows\"")
        .any_stderr()
        .unchanged()
        .run();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).expect("explain's JSON");
    doc["rows"]
        .as_array()
        .and_then(|rows| {
            rows.iter()
                .find(|r| r["agent"] == agent && r["layer"] == layer)
        })
        .cloned()
        .unwrap_or_else(|| panic!("no {agent} {layer} row: {doc}"))
}
