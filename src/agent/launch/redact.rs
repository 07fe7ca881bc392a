//! What a launch finding may repeat from the argv: a value only when it is
//! a word of a CLI's own vocabulary (a sandbox mode, a permission mode,
//! [`super::Launch::vocabulary`] of every agent); any other value (a prompt,
//! a settings JSON that may hold an API key, a path) is shown as `<value>`.

use crate::argv::Occurrence;

/// The words every CLI shares.
const BOOLEANS: &[&str] = &["true", "false"];

/// `value` if it is a vocabulary word, else `<value>`.
pub fn shown(value: &str) -> &str {
    let known = BOOLEANS.contains(&value)
        || super::launchers()
            .iter()
            .any(|l| l.launch.vocabulary().contains(&value));
    if known { value } else { "<value>" }
}

/// A comma-separated list: each item shown only if it is a vocabulary word.
pub fn shown_list(value: &str) -> String {
    value
        .split(',')
        .map(|v| shown(v.trim()))
        .collect::<Vec<_>>()
        .join(",")
}

/// The occurrence as typed, every value redacted unless vocabulary.
pub fn typed(occ: &Occurrence) -> String {
    typed_with(occ, |v| shown(v).to_string())
}

/// The occurrence as typed, each value passed through `show`.
pub fn typed_with(occ: &Occurrence, show: impl Fn(&str) -> String) -> String {
    let mut out = occ.typed.clone();
    for (i, v) in occ.values.iter().enumerate() {
        out.push_str(if i == 0 { occ.joiner } else { " " });
        out.push_str(&show(v));
    }
    out
}
