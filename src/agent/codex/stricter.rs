//! A stricter user value wins: where twsrt owns a Codex key with an order
//! of strictness, a value in the existing config.toml that asks more than
//! the policy's is kept (in the file `generate -w` writes and in what
//! `diff` compares with), and only a looser one is replaced, which is what
//! `diff` calls widening.
//!
//! Contract: `approval_policy` ranks `untrusted` > `on-request` >
//! `on-failure` > `never`; an existing top-level value ranked above the
//! fragment's replaces it in the fragment, and [`keep`] returns the
//! sentence that says so. A file that does not parse, or any other value,
//! leaves the fragment as rendered.

use toml_edit::DocumentMut;

/// How often a Codex approval policy asks (higher: more often).
fn level(value: &str) -> Option<u8> {
    match value {
        "untrusted" => Some(3),
        "on-request" => Some(2),
        "on-failure" => Some(1),
        "never" => Some(0),
        _ => None,
    }
}

/// The policy's value, as [`super::render::fragment`] writes it.
const POLICY: &str = "on-request";

/// `fragment` with the user's stricter values of `existing` (config.toml's
/// text) in place of the policy's, and the note naming each one kept.
pub fn keep(fragment: String, existing: Option<&str>) -> (String, Option<String>) {
    let Some(doc) = existing.and_then(|t| t.parse::<DocumentMut>().ok()) else {
        return (fragment, None);
    };
    let Some(user) = doc.get("approval_policy").and_then(|i| i.as_str()) else {
        return (fragment, None);
    };
    let stricter = match (level(user), level(POLICY)) {
        (Some(have), Some(want)) => have > want,
        _ => false,
    };
    let from = format!("\napproval_policy = \"{POLICY}\"\n");
    if !stricter || !fragment.contains(&from) {
        return (fragment, None);
    }
    let to = format!("\napproval_policy = \"{user}\"\n");
    let note = format!(
        "codex: keeps your approval_policy = \"{user}\", which asks more often than the \
         policy's \"{POLICY}\""
    );
    (fragment.replacen(&from, &to, 1), Some(note))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAGMENT: &str = "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\n";

    fn kept(existing: &str) -> String {
        keep(FRAGMENT.to_string(), Some(existing)).0
    }

    #[test]
    fn only_a_stricter_value_is_kept() {
        assert!(kept("approval_policy = \"untrusted\"\n").contains("= \"untrusted\""));
        for looser in ["never", "on-failure", "on-request", "whatever"] {
            assert_eq!(kept(&format!("approval_policy = \"{looser}\"\n")), FRAGMENT);
        }
        assert_eq!(
            kept("[profiles.x]\napproval_policy = \"untrusted\"\n"),
            FRAGMENT
        );
        assert_eq!(kept("not toml ="), FRAGMENT);
    }
}
