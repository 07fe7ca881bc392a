//! The spellings of a bash deny rule's command that the agents' prefix
//! rules miss and the meaning match catches: the examples doctor names.

use super::{Program, Rule, canonical, rule};

/// For a bash deny rule, spellings of the same command that a prefix of the
/// rule's text does not match (and this hook does): its short flags
/// reordered or apart, their long forms and other short forms, the long
/// forms abbreviated. Empty for a rule without options or one the meaning
/// match leaves alone.
pub fn missed_spellings(rule_text: &str) -> Vec<String> {
    let Some(rule) = rule(rule_text) else {
        return Vec::new();
    };
    let spelled = spellings(&rule);
    let prefix = rule_text
        .trim()
        .trim_end_matches(":*")
        .trim_end_matches(" *")
        .trim_end();
    let mut out: Vec<String> = Vec::new();
    for s in spelled {
        if !s.starts_with(prefix) && !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Other spellings of `rule`'s command (some may start with its prefix).
fn spellings(rule: &Rule) -> Vec<String> {
    let options = &rule.parsed.options;
    if options.is_empty() {
        return Vec::new();
    }
    let head: Vec<String> = std::iter::once(rule.program.clone())
        .chain(
            rule.entry
                .iter()
                .flat_map(|e| e.words[1..].iter().map(|w| w.to_string())),
        )
        .collect();
    let sub = head.len() - 1;
    let operands: Vec<String> =
        rule.parsed.operands[sub.min(rule.parsed.operands.len())..].to_vec();
    let line = |opts: Vec<String>| -> String {
        let mut words = head.clone();
        words.extend(opts);
        words.extend(operands.iter().cloned());
        words.join(" ")
    };
    let long = |key: &str| group(rule, key).into_iter().find(|s| s.starts_with("--"));
    let mut out = short_spellings(rule, &line);
    let longs: Vec<String> = options
        .iter()
        .map(|(k, v)| with_value(long(k).unwrap_or(k), v))
        .collect();
    out.push(line(longs));
    if let Some(entry) = rule.entry {
        let abbreviated: Vec<String> = options
            .iter()
            .map(|(k, v)| with_value(&abbreviation(entry, long(k).unwrap_or(k)), v))
            .collect();
        out.push(line(abbreviated));
    }
    if let Some(plus) = rule.entry.and_then(|e| e.plus)
        && options.len() == 1
        && options[0].0 == canonical(rule.entry, plus)
        && operands.is_empty()
    {
        out.push(format!("{} origin +HEAD", head.join(" ")));
        out.push(format!("{} origin HEAD {}", head.join(" "), options[0].0));
    }
    if !operands.is_empty() {
        let mut words = head.clone();
        words.extend(operands.iter().cloned());
        words.extend(options.iter().map(|(k, v)| with_value(k, v)));
        out.push(words.join(" "));
    }
    out
}

/// The spellings of one option the rule's program has (empty without a
/// [`super::PROGRAMS`] entry).
fn group(rule: &Rule, key: &str) -> Vec<&'static str> {
    rule.entry
        .and_then(|e| e.same.iter().find(|g| g[0] == key))
        .map(|g| g.to_vec())
        .unwrap_or_default()
}

fn with_value(spelling: &str, value: &Option<String>) -> String {
    match value {
        Some(v) if spelling.starts_with("--") => format!("{spelling}={v}"),
        Some(v) => format!("{spelling} {v}"),
        None => spelling.to_string(),
    }
}

/// When every option of the rule has a short form and no value: them
/// reordered, apart and combined, and each other short form (`-R` for `-r`).
fn short_spellings(rule: &Rule, line: &dyn Fn(Vec<String>) -> String) -> Vec<String> {
    let options = &rule.parsed.options;
    let short = |key: &str| -> Option<String> {
        if key.len() == 2 && !key.starts_with("--") {
            return Some(key.to_string());
        }
        group(rule, key)
            .into_iter()
            .find(|s| s.len() == 2)
            .map(str::to_string)
    };
    let shorts: Option<Vec<String>> = options
        .iter()
        .map(|(k, v)| v.is_none().then(|| short(k)).flatten())
        .collect();
    let Some(shorts) = shorts else {
        return Vec::new();
    };
    let letters = |list: &mut dyn Iterator<Item = &String>| {
        format!("-{}", list.map(|s| &s[1..]).collect::<String>())
    };
    let mut out = Vec::new();
    if shorts.len() > 1 {
        out.push(line(vec![letters(&mut shorts.iter().rev())]));
        out.push(line(shorts.clone()));
        out.push(line(vec![letters(&mut shorts.iter())]));
    } else {
        out.push(line(shorts.clone()));
    }
    for (at, (key, _)) in options.iter().enumerate() {
        let other = group(rule, key)
            .into_iter()
            .find(|s| s.len() == 2 && *s != shorts[at]);
        if let Some(other) = other {
            let mut alt = shorts.clone();
            alt[at] = other.to_string();
            out.push(line(vec![letters(&mut alt.iter())]));
        }
    }
    out
}

/// The shortest prefix of `long` that names it alone among `entry`'s long
/// options (itself when it is not one of them).
fn abbreviation(entry: &Program, long: &str) -> String {
    if !entry.longs.contains(&long) {
        return long.to_string();
    }
    (3..long.len())
        .map(|n| &long[..n])
        .find(|p| entry.longs.iter().filter(|l| l.starts_with(p)).count() == 1)
        .unwrap_or(long)
        .to_string()
}
