//! A scenario builder for CLI tests: declare a HOME tree, the arguments and
//! what must come out, and the builder runs the real binary with HOME set to a
//! fresh temp dir (so nothing touches the developer's home).
//!
//! `{HOME}` in expected output stands for the temp HOME path.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const CONFIG: &str = ".config/twsrt/config.toml";

/// A small complete policy: config.toml plus srt and bash fragments.
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

pub struct Test {
    home: tempfile::TempDir,
    args: Vec<String>,
    env: Vec<(String, String)>,
    status: Option<i32>,
    stdout: Option<String>,
    stderr_contains: Vec<String>,
    stderr_lacks: Vec<String>,
    no_color: bool,
}

pub struct Output {
    pub home: tempfile::TempDir,
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn path(&self, rel: &str) -> PathBuf {
        self.home.path().join(rel)
    }

    pub fn read(&self, rel: &str) -> String {
        fs::read_to_string(self.path(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
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
        Test {
            home: tempfile::tempdir().expect("temp HOME"),
            args: Vec::new(),
            env: Vec::new(),
            status: Some(0),
            stdout: None,
            stderr_contains: Vec::new(),
            stderr_lacks: Vec::new(),
            no_color: true,
        }
    }

    /// Run without setting `NO_COLOR` (it is set by default).
    pub fn without_no_color(mut self) -> Self {
        self.no_color = false;
        self
    }

    /// A HOME with the base policy at the default config path.
    pub fn with_policy() -> Self {
        Self::new()
            .file(CONFIG, BASE_CONFIG)
            .file(".config/twsrt/srt/base.jsonc", BASE_SRT)
            .file(".config/twsrt/bash/base.jsonc", BASE_BASH)
    }

    pub fn home(&self) -> &Path {
        self.home.path()
    }

    /// Write a file under HOME (parent directories created).
    pub fn file(self, rel: &str, content: &str) -> Self {
        let path = self.home.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(&path, content).unwrap();
        self
    }

    pub fn mode(self, rel: &str, mode: u32) -> Self {
        fs::set_permissions(self.home.path().join(rel), fs::Permissions::from_mode(mode)).unwrap();
        self
    }

    pub fn symlink(self, rel: &str, target: &str) -> Self {
        let path = self.home.path().join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(target, &path).unwrap();
        self
    }

    pub fn dir(self, rel: &str) -> Self {
        fs::create_dir_all(self.home.path().join(rel)).unwrap();
        self
    }

    /// Append to the config (e.g. a [targets] table).
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

    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), value.into()));
        self
    }

    pub fn status(mut self, status: i32) -> Self {
        self.status = Some(status);
        self
    }

    /// Accept any exit status (the caller checks it).
    pub fn status_any(mut self) -> Self {
        self.status = None;
        self
    }

    pub fn stdout(mut self, text: &str) -> Self {
        self.stdout = Some(text.to_string());
        self
    }

    pub fn stderr_contains(mut self, fact: &str) -> Self {
        self.stderr_contains.push(fact.to_string());
        self
    }

    pub fn stderr_lacks(mut self, text: &str) -> Self {
        self.stderr_lacks.push(text.to_string());
        self
    }

    /// Every file and symlink under HOME with its content (for "nothing
    /// changed" assertions).
    pub fn tree(&self) -> BTreeMap<PathBuf, String> {
        tree(self.home.path())
    }

    pub fn run(self) -> Output {
        let home = self.home.path().to_path_buf();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_twsrt"));
        cmd.args(&self.args)
            .current_dir(&home)
            .env_clear()
            .env("HOME", &home)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default());
        if self.no_color {
            cmd.env("NO_COLOR", "1");
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        let out = cmd.output().expect("run twsrt");
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
        if let Some(expected) = &self.stdout {
            assert_eq!(&stdout, expected, "stdout\n{context}");
        }
        for fact in &self.stderr_contains {
            assert!(
                stderr.contains(fact.as_str()),
                "stderr lacks {fact:?}\n{context}"
            );
        }
        for text in &self.stderr_lacks {
            assert!(
                !stderr.contains(text.as_str()),
                "stderr has {text:?}\n{context}"
            );
        }
        Output {
            home: self.home,
            status,
            stdout,
            stderr,
        }
    }
}

pub fn tree(root: &Path) -> BTreeMap<PathBuf, String> {
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
            if meta.file_type().is_symlink() {
                out.insert(
                    rel,
                    format!("-> {}", fs::read_link(&path).unwrap().display()),
                );
            } else if meta.is_dir() {
                out.insert(rel, "dir".into());
                stack.push(path);
            } else {
                let mode = meta.permissions().mode() & 0o777;
                let content = String::from_utf8_lossy(&fs::read(&path).unwrap()).into_owned();
                out.insert(rel, format!("{mode:o} {content}"));
            }
        }
    }
    out
}
