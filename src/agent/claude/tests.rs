//! Test fixtures: compiled documents fed to the Claude agent as they are,
//! and the reference outputs recorded in `testdata/<case>/` (see its README).
//! The documents bypass the compiler on purpose: what the compiler adds or
//! reorders (sorted lists, the policy files in denyWrite) is its own tested
//! job, and the Claude output is a function of the compiled document.

mod allow_read;
mod anchor;
mod diff;
mod render;
mod sandbox;
mod stage;

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::agent::Ctx;
use crate::compile::{Canonical, Compiled, compile};
use crate::config::Config;
use crate::source::SourceKind;

/// The overrides `twsrt config --init` writes, used when a case has none.
const STARTER_OVERRIDES: &str = "[sandbox_overrides.yolo]
enabled = true
autoAllowBashIfSandboxed = true
allowUnsandboxedCommands = false

[sandbox_overrides.full]
enabled = false
";

pub struct Fixture {
    pub dir: TempDir,
    pub config: Config,
    pub compiled: Compiled,
}

impl Fixture {
    /// The compiled srt and bash documents (JSON) and the overrides given
    /// directly; `targets` adds lines to the `[targets]` table.
    pub fn new(srt: &str, bash: &str, overrides: Option<&str>, targets: &str) -> Fixture {
        let dir = TempDir::new().unwrap();
        std::fs::write(dir.path().join("srt.jsonc"), "{}").unwrap();
        std::fs::write(dir.path().join("bash.jsonc"), "{}").unwrap();
        std::fs::create_dir(dir.path().join("home")).unwrap();
        let targets = if targets.contains("claude_settings =") {
            targets.to_string()
        } else {
            format!("claude_settings = \"claude/settings.full.json\"\n{targets}")
        };
        let text = format!(
            "schema_version = 1
default_profile = \"default\"

[sources.srt]
output = \"out/srt.json\"
[sources.srt.fragments.base]
path = \"srt.jsonc\"

[sources.bash]
output = \"out/bash.json\"
[sources.bash.fragments.base]
path = \"bash.jsonc\"

[profiles.default]
srt = [\"base\"]
bash = [\"base\"]

[targets]
{targets}

{}",
            overrides.unwrap_or(STARTER_OVERRIDES)
        );
        let path = dir.path().join("config.toml");
        std::fs::write(&path, &text).unwrap();
        let config = crate::config::parse(&text, &path).unwrap();
        let mut compiled = compile(&config, None).unwrap();
        compiled.canonical = vec![
            Canonical::new(
                SourceKind::Srt,
                dir.path().join("out/srt.json"),
                document(srt),
            ),
            Canonical::new(
                SourceKind::Bash,
                dir.path().join("out/bash.json"),
                document(bash),
            ),
        ];
        Fixture {
            dir,
            config,
            compiled,
        }
    }

    /// A recorded case: the documents the reference compiled, its
    /// overrides and home directory entries.
    pub fn case(name: &str) -> Fixture {
        let overrides = read_opt(name, "overrides.toml");
        let fixture = Fixture::new(
            &read(name, "srt.json"),
            &read(name, "bash.json"),
            overrides.as_deref(),
            "",
        );
        for line in read_opt(name, "home.txt").unwrap_or_default().lines() {
            match line.split_once(' ') {
                Some(("dir", p)) => std::fs::create_dir_all(fixture.home().join(p)).unwrap(),
                Some(("file", p)) => std::fs::write(fixture.home().join(p), "secret\n").unwrap(),
                _ => panic!("bad home.txt line {line:?}"),
            }
        }
        fixture
    }

    pub fn ctx(&self, yolo: bool) -> Ctx<'_> {
        Ctx::new(&self.config, &self.compiled, yolo)
    }

    /// The temp home directory a denyRead `~` points at.
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// `claude/` in the temp directory: where the targets and anchor live.
    pub fn claude_dir(&self) -> PathBuf {
        self.dir.path().join("claude")
    }

    /// The canonical outputs on disk, as an earlier `generate -w` left
    /// them (twsrt's record of what it wrote).
    pub fn previous(&self, srt: &str, bash: &str) {
        for (doc, text) in self.compiled.canonical.iter().zip([srt, bash]) {
            std::fs::create_dir_all(doc.output.parent().unwrap()).unwrap();
            std::fs::write(&doc.output, text).unwrap();
            let files = [(doc.output.as_path(), text.as_bytes())];
            crate::apply::written::remember(&self.config.path, files).unwrap();
        }
    }

    /// `settings.json` as a symlink to the mode's target, as `generate -w`
    /// leaves it.
    pub fn link_anchor(&self, yolo: bool) {
        let anchor = crate::agent::claude::anchor::anchor_path(&self.config);
        let target = crate::agent::claude::anchor::target_path(&self.config, yolo);
        std::fs::create_dir_all(anchor.parent().unwrap()).unwrap();
        let _ = std::fs::remove_file(&anchor);
        std::os::unix::fs::symlink(target.file_name().unwrap(), &anchor).unwrap();
    }

    pub fn put(&self, name: &str, content: &str) -> PathBuf {
        let path = self.claude_dir().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
        path
    }
}

fn document(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

fn data_path(case: &str, file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/agent/claude/testdata")
        .join(case)
        .join(file)
}

pub fn read(case: &str, file: &str) -> String {
    let path = data_path(case, file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn read_opt(case: &str, file: &str) -> Option<String> {
    std::fs::read_to_string(data_path(case, file)).ok()
}

/// The cases recorded from the reference.
pub const CASES: [&str; 10] = [
    "policy",
    "anchoring",
    "overrides",
    "starter",
    "empty",
    "passthrough",
    "drift",
    "equality",
    "nulls",
    "absent",
];
