//! One spelling, one meaning, as a property (issue 41): random spellings of
//! the same paths, domains and bash rules compile to the same files for srt
//! and every agent, and a random misspelling is refused with a fix that,
//! written back, compiles to those same files. Seeded, so every run draws
//! the same cases.

use unicode_normalization::UnicodeNormalization;

use crate::support::*;

/// A tiny deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const PATHS: [&str; 4] = ["~/.aws", "/etc/ssl/private", "~/My Documents/x", "~/café"];
/// Each denied domain with the spellings that mean it (the first is the
/// canonical one a fix names).
const DOMAINS: [&[&str]; 3] = [
    &[
        "bücher.example.com",
        "xn--bcher-kva.example.com",
        "BÜCHER.example.com",
        "Bücher.Example.Com",
    ],
    &["evil.example.com"],
    &["*.tracker.example", "*.tracker.example"],
];
/// Each rule as its words.
const RULES: [&[&str]; 4] = [
    &["rm", "-rf"],
    &["curl"],
    &["npm", "publish"],
    &["git", "commit", "-m", "'a  b'"],
];

const EVERY_AGENT: &str = r#"
[targets]
claude_settings = "~/.claude/settings.full.json"
codex_config = "~/.codex/config.toml"
codex_rules = "~/.codex/rules/twsrt.rules"
gemini_policy = "~/.gemini/policies/twsrt.toml"
opencode_config = "~/.config/opencode/opencode.json"
"#;

const OUTPUTS: [&str; 7] = [
    SRT_OUT,
    BASH_OUT,
    ".claude/settings.full.json",
    ".codex/config.toml",
    ".codex/rules/twsrt.rules",
    ".gemini/policies/twsrt.toml",
    ".config/opencode/opencode.json",
];

/// The policy's fragments: paths, denied domains and deny rules as given.
fn fragments(paths: &[String], domains: &[String], rules: &[String]) -> (String, String) {
    let srt = serde_json::json!({
        "filesystem": {"denyRead": paths, "allowWrite": ["."]},
        "network": {"allowedDomains": ["github.com"], "deniedDomains": domains},
    });
    let bash = serde_json::json!({"ask": ["git push"], "deny": rules});
    (srt.to_string(), bash.to_string())
}

/// `generate -w` of the fragments: every output (the HOME spelt `{HOME}`),
/// or the error.
fn generate((srt, bash): &(String, String)) -> Result<Vec<String>, String> {
    let out = Test::with_policy()
        .config_append(EVERY_AGENT)
        .file(SRT_FRAGMENT, srt)
        .file(BASH_FRAGMENT, bash)
        .args(&["generate", "-w"])
        .any_status()
        .any_stdout()
        .any_stderr()
        .run();
    if out.status != 0 {
        return Err(out.stderr);
    }
    // Gemini's path patterns name the HOME as a regular expression.
    let home = out.home().display().to_string();
    let pattern = home.replace('.', "\\.");
    Ok(OUTPUTS
        .iter()
        .map(|file| {
            let text = out.read(file).replace(&home, "{HOME}");
            format!("{file}:\n{}", text.replace(&pattern, "{HOME}"))
        })
        .collect())
}

/// The first output of `got` that differs from `want`, both shown.
#[track_caller]
fn same(got: Result<Vec<String>, String>, want: &[String], case: &str) {
    let got = got.unwrap_or_else(|e| panic!("{case}: refused: {e}"));
    if let Some((g, w)) = got.iter().zip(want).find(|(g, w)| g != w) {
        panic!("{case}: compiles otherwise:\n{g}\n--- where the canonical policy gives\n{w}");
    }
}

fn canonical() -> (Vec<String>, Vec<String>, Vec<String>) {
    (
        PATHS.map(String::from).to_vec(),
        DOMAINS.map(|d| d[0].to_string()).to_vec(),
        RULES.map(|words| words.join(" ")).to_vec(),
    )
}

/// A rule's words joined by random runs of blanks, with random blanks at
/// the ends and a random prefix marker.
fn respelt_rule(rng: &mut Rng, words: &[&str]) -> String {
    const BLANKS: [&str; 4] = [" ", "  ", "\t", " \t "];
    const ENDS: [&str; 3] = ["", " ", "\t"];
    const MARKS: [&str; 4] = ["", " *", ":*", "  *"];
    let mut rule = rng.pick(&ENDS).to_string();
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            rule.push_str(rng.pick(&BLANKS));
        }
        rule.push_str(word);
    }
    rule.push_str(rng.pick(&MARKS));
    rule.push_str(rng.pick(&ENDS));
    rule
}

#[test]
fn random_spellings_of_the_same_policy_compile_to_the_same_files() {
    let (paths, domains, rules) = canonical();
    let want = generate(&fragments(&paths, &domains, &rules)).expect("the canonical policy");
    let mut rng = Rng(0x41_5eed);
    for _ in 0..12 {
        let domains: Vec<String> = DOMAINS.iter().map(|d| rng.pick(d).to_string()).collect();
        let rules: Vec<String> = RULES.iter().map(|r| respelt_rule(&mut rng, r)).collect();
        let spelt = fragments(&paths, &domains, &rules);
        same(generate(&spelt), &want, &format!("{spelt:?}"));
    }
}

/// `entry` misspelt one random way that srt or an agent reads as another
/// file or host.
fn misspelt_path(rng: &mut Rng, entry: &str) -> String {
    let home_variable = ["$HOME", "${HOME}", "%USERPROFILE%", "%HOME%"][rng.below(4)];
    match rng.below(6) {
        0 if entry.starts_with('~') => entry.replacen('~', home_variable, 1),
        1 => format!("{entry}{}", rng.pick(&[" ", "\t", "\u{a0}", "\n"])),
        2 => format!("{}{entry}", rng.pick(&[" ", "\u{3000}"])),
        3 => {
            let at = entry.char_indices().nth(2).map_or(0, |(i, _)| i);
            let invisible = rng.pick(&["\u{200b}", "\u{feff}", "\u{2060}", "\u{ad}"]);
            format!("{}{invisible}{}", &entry[..at], &entry[at..])
        }
        4 => entry.nfd().collect::<String>() + rng.pick(&["\u{200d}", " "]),
        _ => format!("{entry}\u{2028}"),
    }
}

fn misspelt_domain(rng: &mut Rng, entry: &str) -> String {
    match rng.below(5) {
        0 => format!("https://{entry}/x"),
        1 => format!("{entry}."),
        2 => format!(" {entry}"),
        3 => format!("{entry}/path?q"),
        _ => entry.replacen('.', "..", 1),
    }
}

/// The value a refusal says to write (`...; write 'X'`).
fn fix_of(stderr: &str) -> String {
    let (_, quoted) = stderr
        .trim_end()
        .rsplit_once("; write ")
        .unwrap_or_else(|| panic!("no fix in {stderr:?}"));
    quoted[1..quoted.len() - 1].replace("\\\\", "\\")
}

#[test]
fn a_random_misspelling_is_refused_with_a_fix_that_compiles_to_the_same_files() {
    let (paths, domains, rules) = canonical();
    let want = generate(&fragments(&paths, &domains, &rules)).expect("the canonical policy");
    let mut rng = Rng(0x41_f1c5);
    for _ in 0..12 {
        let (mut paths, mut domains) = (paths.clone(), domains.clone());
        let is_path = rng.below(2) == 0;
        let list = if is_path { &mut paths } else { &mut domains };
        let i = rng.below(list.len());
        let entry = list[i].clone();
        let bad = if is_path {
            misspelt_path(&mut rng, &entry)
        } else {
            misspelt_domain(&mut rng, &entry)
        };
        list[i] = bad.clone();
        let spelt = fragments(&paths, &domains, &rules);
        let stderr = generate(&spelt).expect_err(&bad);
        assert!(
            stderr.starts_with("Error: {HOME}/.config/twsrt/srt/base.jsonc:1:"),
            "{bad:?}: {stderr}"
        );
        let fix = fix_of(&stderr);
        assert_eq!(fix, entry, "{bad:?}: {stderr}");
        if is_path {
            paths[i] = fix;
        } else {
            domains[i] = fix;
        }
        let fixed = generate(&fragments(&paths, &domains, &rules));
        same(fixed, &want, &format!("{bad:?} fixed"));
    }
}
