//! Deterministic mutation test: hundreds of damaged policies run through
//! `generate -w`, `--yolo`, `-p` and `diff`. Whatever the damage, twsrt must
//! exit 0, 1 or 2 without panicking; when it fails, every file under HOME is
//! byte-identical to before; when it succeeds, every JSON/TOML file it wrote
//! parses.

use crate::support::*;
use std::path::Path;

/// Richer fragments than the base fixture's: more for a mutation to damage.
const SRT: &str = r#"{
  // kernel layer
  "enabled": true,
  "filesystem": {
    "denyRead": ["~/.ssh", "~/.aws", "**/secrets/**"],
    "denyWrite": ["**/.env", "~/.bashrc"],
    "allowWrite": [".", "/tmp", "~/dev", "build/"]
  },
  "network": {
    "allowedDomains": ["github.com", "*.github.com", "pypi.org"],
    "deniedDomains": ["evil.com"],
    "allowUnixSockets": ["/var/run/docker.sock"],
    "allowLocalBinding": true,
    "httpProxyPort": 8080
  }
}"#;

const BASH: &str =
    r#"{"allow": ["gh pr view"], "ask": ["git push"], "deny": ["rm -rf", "sudo", "echo \"a b\""]}"#;

/// The base fixture's config with the `work` profile, every target and a
/// yolo override, so the mutations reach every part of the schema.
fn config_text() -> String {
    format!("{BASE_CONFIG}{WORK_CONFIG}{TARGETS}\n[sandbox_overrides.yolo]\nenabled = true\n")
}

const CODEX_EXISTING: &str =
    "# my codex\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"x\"\nenv = { TOKEN = \"tok\" }\n";
const CLAUDE_EXISTING: &str =
    r#"{"model": "opus", "env": {"KEY": "k"}, "permissions": {"allow": ["Read"]}}"#;

/// A small deterministic PRNG (xorshift) so every run tries the same cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const SNIPPETS: &[&str] = &[
    "", ",", "}", "{", "[", "]", "\"", "'", "//", "/*", "NaN", "true", "1.5", "-0", "null", "\\",
    "~", "..", "/~/", "*", "é", "\n", "\"x\"", "[]", "{}", "= ", "[[", "#",
];

/// One mutation of `text`: a byte-level edit, a snippet insertion, a
/// deleted or duplicated line, or a swapped pair of lines.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let chars: Vec<char> = text.chars().collect();
    let pos = rng.below(chars.len().max(1));
    let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
    let mut lines: Vec<&str> = text.lines().collect();
    match rng.below(6) {
        0 => chars[..pos]
            .iter()
            .chain(chars[(pos + 1).min(chars.len())..].iter())
            .collect(),
        1 => {
            let mut s: String = chars[..pos].iter().collect();
            s.push_str(snippet);
            s.extend(&chars[pos..]);
            s
        }
        2 if !lines.is_empty() => {
            lines.remove(rng.below(lines.len()));
            lines.join("\n")
        }
        3 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines.insert(i, lines[i]);
            lines.join("\n")
        }
        4 if lines.len() > 1 => {
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(i, j);
            lines.join("\n")
        }
        _ => {
            // Replace a quoted value with another type.
            let mut s: String = chars[..pos].iter().collect();
            let rest: String = chars[pos..].iter().collect();
            match rest.find('"') {
                Some(q) => {
                    s.push_str(&rest[..q]);
                    s.push_str(["1", "[1]", "{}", "false", "\"\""][rng.below(5)]);
                    let after = &rest[q + 1..];
                    s.push_str(after.find('"').map(|e| &after[e + 1..]).unwrap_or(after));
                }
                None => s.push_str(&rest),
            }
            s
        }
    }
}

const COMMANDS: &[&[&str]] = &[
    &["generate", "-w"],
    &["generate", "-w", "--yolo"],
    &["generate", "-w", "-p", "work"],
    &["generate", "-w", "claude"],
    &["generate", "-w", "codex"],
    &["generate"],
    &["diff"],
];

/// Every JSON/TOML file the command wrote or changed must parse.
fn check_written(home: &Path, before: &std::collections::BTreeMap<std::path::PathBuf, String>) {
    for (rel, entry) in snapshot(home) {
        if before.get(&rel) == Some(&entry) || entry.starts_with("->") || entry.starts_with("dir ")
        {
            continue;
        }
        let content = entry.split_once(' ').map(|(_, c)| c).unwrap_or("");
        let name = rel.to_string_lossy();
        if name.contains("twsrt-tmp") {
            panic!("temp file left behind: {name}");
        }
        if name.ends_with(".json") && !name.contains("/srt/") {
            serde_json::from_str::<serde_json::Value>(content)
                .unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
        }
        if name.ends_with(".toml") && name.contains(".codex") {
            content
                .parse::<toml_edit::DocumentMut>()
                .unwrap_or_else(|e| panic!("{name} does not parse: {e}"));
        }
    }
}

#[test]
fn mutated_policies_never_panic_and_never_half_write() {
    let config = config_text();
    let files: [(&str, &str); 6] = [
        (CONFIG, &config),
        (SRT_FRAGMENT, SRT),
        (".config/twsrt/srt/work.jsonc", WORK_SRT),
        (BASH_FRAGMENT, BASH),
        (CODEX_CONFIG, CODEX_EXISTING),
        (CLAUDE_TARGET, CLAUDE_EXISTING),
    ];
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut outcomes = [0usize; 3];
    for case in 0..300 {
        let target = rng.below(files.len());
        let mutations = 1 + rng.below(3);
        let mut t = Test::new();
        for (i, (rel, text)) in files.iter().enumerate() {
            let mut text = text.to_string();
            if i == target {
                for _ in 0..mutations {
                    text = mutate(&text, &mut rng);
                }
            }
            t = t.file(rel, &text);
        }
        let args = COMMANDS[rng.below(COMMANDS.len())];
        let before = t.snapshot();
        // Whatever the damage, the outcome is open: the checks are below.
        let t = t.args(args).any_status().any_stdout().any_stderr();
        // A failed run writes nothing; a run without -w never writes.
        let t = if args.contains(&"-w") {
            t.unchanged_if_it_fails()
        } else {
            t.unchanged()
        };
        let out = t.run();
        assert!(
            (0..=2).contains(&out.status),
            "case {case} {args:?}: exit {}\n{}",
            out.status,
            out.stderr
        );
        outcomes[out.status as usize] += 1;
        check_written(out.home.path(), &before);
    }
    // The mutations must exercise both paths, or the test proves nothing.
    assert!(
        outcomes[0] > 20 && outcomes[1] > 20,
        "outcomes {outcomes:?}"
    );
}
