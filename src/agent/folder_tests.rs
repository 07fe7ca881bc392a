//! The agent is the unit: an agent's name appears in `src/` only inside
//! its own folder (`src/agent/<name>/`, `src/agent/<name>.rs`), so adding an
//! agent means its folder and one registry line, and no command or engine
//! dispatches on a name. Inside an agent's folder the other agents' names
//! count the same way: an agent does not reach into another's folder.
//!
//! The rule, in code: any case-insensitive occurrence of `claude`, `codex`,
//! `copilot` or `gemini` in the text of a `.rs` file outside the comments
//! counts, whether in an identifier (`claude_settings`, `ClaudeSync`,
//! `CLAUDE_CODE_VERSION`), a string literal (`"claude"`, `".claude/agents"`)
//! or a path, in production and test code alike. Comments (`//`, `///`,
//! `//!`, `/* */`) may name agents: they explain, they do not dispatch
//! (doc comments of clap arguments are the `--help` text, which names the
//! agents a command serves). A `.claude` path in a comment is prose; the
//! same path in code counts.
//!
//! [`ALLOWED`] lists the files that may still name agents, each with the
//! exact number of lines that do and why; the test fails when a file has
//! more or fewer, so the list only shrinks. `TODO(lead)` entries are in
//! files other helpers own in this wave: the lead clears them after merging.

use std::path::{Path, PathBuf};

/// This test, which names the agents it looks for (exempt).
const THIS_FILE: &str = "src/agent/folder_tests.rs";

const NAMES: [&str; 5] = ["claude", "codex", "copilot", "gemini", "opencode"];

/// (file, lines of code naming an agent, why).
const ALLOWED: &[(&str, usize, &str)] = &[
    // The registry itself: one module line and one registry line per agent.
    (
        "src/agent/mod.rs",
        10,
        "the registry: `pub mod <name>;` and `Box::new(<name>::<Agent>)`",
    ),
    // User-facing text that must name agents.
    (
        "src/cli.rs",
        1,
        "help text: the `about` line names the targets",
    ),
    (
        "src/hook.rs",
        1,
        "a verdict's reason: the guard hook is Claude Code's, and says why it does not wrap",
    ),
    // config.toml's schema. Config sits below the agents (every agent reads
    // a `Config`), so these names cannot move into an agent's folder
    // without a module cycle.
    (
        "src/config/keys.rs",
        2,
        "the sandbox key lists' release, named in the override errors",
    ),
    (
        "src/config/sandbox_keys.rs",
        1,
        "the Claude Code release the sandbox key lists are read from",
    ),
    // Test-only files that span agents.
    (
        "src/config/tests.rs",
        34,
        "test-only: `[targets]` parsing tested with the keys the agents declare",
    ),
    (
        "src/agent/launch/tests.rs",
        45,
        "test-only: the launch registry, every agent's lines",
    ),
    (
        "src/agent/launch/grammar_tests.rs",
        61,
        "test-only: every agent's launch grammar",
    ),
    (
        "src/agent/launch/gap_tests.rs",
        12,
        "test-only: launch gaps across agents",
    ),
    (
        "src/agent/launch/fixture.rs",
        31,
        "test-only: the launch fixtures of every agent",
    ),
    (
        "src/agent/launch/registry_tests.rs",
        3,
        "test-only: the unknown-binary message lists them",
    ),
    // TODO(lead): files other helpers own in this wave.
    (
        "src/agent/codex/doctor_tests.rs",
        2,
        "TODO(lead) warnings helper: a Codex doctor test expects Claude's relative-path finding",
    ),
    (
        "src/commands/generate/project.rs",
        9,
        "TODO(lead) warnings helper: `generate --project` is Claude's; move it behind an Agent method",
    ),
    (
        "src/lint/srt_paths.rs",
        3,
        "TODO(lead) warnings helper: messages naming Claude Code (allowWrite auto-approval, Claude-only keys)",
    ),
    (
        "src/lint/tests.rs",
        2,
        "TODO(lead) warnings helper: the expected text of those messages",
    ),
    (
        "src/probe/schedule.rs",
        4,
        "srt's own: srt write-denies `.claude/commands` and `.claude/agents` in the working \
         directory whatever the policy says, and the prover keeps its runs apart around them",
    ),
    (
        "src/plan.rs",
        3,
        "TODO(lead) memory helper: a plan test uses agent names as labels",
    ),
];

/// The text of `source` with every comment blanked (newlines kept, so line
/// numbers stay), string and char literals kept.
fn code_of(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let at = |i: usize, s: &str| {
        s.chars()
            .enumerate()
            .all(|(k, c)| chars.get(i + k) == Some(&c))
    };
    while i < chars.len() {
        let c = chars[i];
        if at(i, "//") {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if at(i, "/*") {
            let mut depth = 0;
            while i < chars.len() {
                if at(i, "/*") {
                    depth += 1;
                    i += 2;
                } else if at(i, "*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if let Some(hashes) = raw_string_start(&chars, i) {
            let end: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let open = chars[i..].iter().position(|&c| c == '"').unwrap_or(0) + 1;
            out.extend(&chars[i..i + open]);
            i += open;
            while i < chars.len() && !at(i, &end) {
                out.push(chars[i]);
                i += 1;
            }
            out.push_str(&end);
            i += end.chars().count();
        } else if c == '"' {
            out.push(c);
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(chars[i]);
                    i += 1;
                }
                if let Some(&c) = chars.get(i) {
                    out.push(c);
                }
                i += 1;
            }
            out.push('"');
            i += 1;
        } else if c == '\'' && (chars.get(i + 1) == Some(&'\\') || chars.get(i + 2) == Some(&'\''))
        {
            // A char literal ('"', '\''), not a lifetime.
            let from = if chars.get(i + 1) == Some(&'\\') {
                i + 3
            } else {
                i + 2
            };
            let close = (from..chars.len()).find(|&k| chars[k] == '\'').unwrap_or(i);
            out.extend(&chars[i..=close]);
            i = close + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The number of `#` of a raw string starting at `i` (`r"`, `r#"`, `br"`).
fn raw_string_start(chars: &[char], i: usize) -> Option<usize> {
    let before = i.checked_sub(1).map(|k| chars[k]);
    if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut k = i;
    if chars.get(k) == Some(&'b') {
        k += 1;
    }
    if chars.get(k) != Some(&'r') {
        return None;
    }
    k += 1;
    let hashes = chars[k..].iter().take_while(|&&c| c == '#').count();
    (chars.get(k + hashes) == Some(&'"')).then_some(hashes)
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The agent whose folder holds `file`, if any.
fn owner(file: &str) -> Option<&'static str> {
    NAMES.into_iter().find(|name| {
        file == format!("src/agent/{name}.rs") || file.starts_with(&format!("src/agent/{name}/"))
    })
}

/// Whether `file` (relative, `/`-separated) is inside an agent's folder.
fn in_own_folder(file: &str) -> bool {
    owner(file).is_some()
}

/// Every line of code (comments blanked) of `source` naming an agent.
fn naming_lines(source: &str) -> Vec<(usize, String)> {
    naming_others(source, None)
}

/// Every line of code of `source` naming an agent other than `own`.
fn naming_others(source: &str, own: Option<&str>) -> Vec<(usize, String)> {
    code_of(source)
        .lines()
        .enumerate()
        .filter(|(_, line)| {
            let lower = line.to_lowercase();
            NAMES
                .iter()
                .filter(|name| Some(**name) != own)
                .any(|name| lower.contains(name))
        })
        .map(|(n, line)| (n + 1, line.trim().to_string()))
        .collect()
}

#[test]
fn no_agent_is_named_outside_its_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    assert!(files.len() > 50, "the walk found {} files", files.len());
    let mut problems = Vec::new();
    let mut seen = Vec::new();
    for path in &files {
        let file = path
            .strip_prefix(root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        // This file names the agents it looks for.
        if file == THIS_FILE {
            continue;
        }
        let source = std::fs::read_to_string(path).unwrap_or_default();
        // Inside an agent's folder, only the other agents count.
        let lines = naming_others(&source, owner(&file));
        let allowed = ALLOWED.iter().find(|(f, _, _)| *f == file);
        if let Some((_, count, _)) = allowed {
            seen.push(file.clone());
            if lines.len() != *count {
                problems.push(format!(
                    "{file}: {} lines name an agent, the allow-list says {count} (update it: the list only shrinks)",
                    lines.len()
                ));
            }
            continue;
        }
        for (n, line) in lines {
            problems.push(format!("{file}:{n}: {line}"));
        }
    }
    for (file, _, _) in ALLOWED {
        if !seen.iter().any(|s| s == file) {
            problems.push(format!(
                "{file}: allowed, but names no agent or is gone: drop it"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "agent names outside src/agent/<name>/ (move the knowledge into the agent, or make it \
         data of the agent):\n{}",
        problems.join("\n")
    );
}

#[test]
fn comments_are_blanked_and_code_kept() {
    let source = "let a = 1; // claude\n/// codex\n/* gemini\n */ let b = \"copilot\";\n\
                  let c = r#\"// \"claude\"#; let d = '\"'; let e = \"// codex\";\n";
    assert_eq!(
        naming_lines(source),
        [
            (4, "let b = \"copilot\";".to_string()),
            (
                5,
                "let c = r#\"// \"claude\"#; let d = '\"'; let e = \"// codex\";".to_string()
            ),
        ]
    );
    assert!(naming_lines("fn f<'a>(x: &'a str) {} // Claude's\n").is_empty());
    assert!(naming_lines("let q = '\\''; // codex\nlet n = '\\n'; /* gemini */\n").is_empty());
    assert_eq!(naming_lines("let k = \"claude_settings\";\n").len(), 1);
    assert_eq!(naming_lines("struct ClaudeSync;\n").len(), 1);
}

#[test]
fn only_the_agents_own_folders_are_exempt() {
    assert!(in_own_folder("src/agent/claude.rs"));
    assert!(in_own_folder("src/agent/codex/render.rs"));
    assert!(!in_own_folder("src/agent/mod.rs"));
    assert!(!in_own_folder("src/agent/launch/tests.rs"));
    assert!(!in_own_folder("src/agent/claudex.rs"));
    assert!(!in_own_folder("src/commands/hook.rs"));
    assert_eq!(owner("src/agent/gemini/launch.rs"), Some("gemini"));
    let own = "let a = \".claude\"; let b = \"codex\";\nlet c = Claude;\n";
    assert_eq!(naming_others(own, Some("claude")).len(), 1);
}
