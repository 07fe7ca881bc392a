//! A stricter user value wins: where twsrt owns a Codex key with an order
//! of strictness, a value in the existing config.toml that asks more than
//! the policy's is kept (in the file `generate -w` writes and in what
//! `diff` compares with), and only a looser one is replaced, which is what
//! `diff` calls widening.
//!
//! Contract: `approval_policy` ranks `untrusted` > `on-request` >
//! `on-failure` > `never`; an existing top-level value ranked above the
//! fragment's replaces it in the fragment. `[permissions.twsrt.network]
//! enabled = false` (no host, the profile's counterpart of the legacy
//! `network_access = false`) is stricter than the policy's `true` and is
//! kept the same way. [`keep`] returns the sentence naming what it kept. A file that does not parse, or any other value,
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
    let mut notes = Vec::new();
    let fragment = keep_approval(fragment, &doc, &mut notes);
    let fragment = keep_network_off(fragment, &doc, &mut notes);
    let note = (!notes.is_empty()).then(|| format!("codex: keeps your {}", notes.join("; ")));
    (fragment, note)
}

fn keep_approval(fragment: String, doc: &DocumentMut, notes: &mut Vec<String>) -> String {
    let Some(user) = doc.get("approval_policy").and_then(|i| i.as_str()) else {
        return fragment;
    };
    let stricter = match (level(user), level(POLICY)) {
        (Some(have), Some(want)) => have > want,
        _ => false,
    };
    let from = format!("\napproval_policy = \"{POLICY}\"\n");
    if !stricter || !fragment.contains(&from) {
        return fragment;
    }
    notes.push(format!(
        "approval_policy = \"{user}\", which asks more often than the policy's \"{POLICY}\""
    ));
    let to = format!("\napproval_policy = \"{user}\"\n");
    fragment.replacen(&from, &to, 1)
}

/// The profile's network switch as the fragment writes it when on.
const NETWORK_ON: &str = "\n[permissions.twsrt.network]\nenabled = true\n";

/// `[permissions.twsrt.network] enabled = false` on disk, where the policy
/// switches the network on: no host is stricter than the policy's domains.
fn keep_network_off(fragment: String, doc: &DocumentMut, notes: &mut Vec<String>) -> String {
    let user = doc
        .get("permissions")
        .and_then(|p| p.get("twsrt"))
        .and_then(|t| t.get("network"))
        .and_then(|n| n.get("enabled"))
        .and_then(|e| e.as_bool());
    if user != Some(false) || !fragment.contains(NETWORK_ON) {
        return fragment;
    }
    notes.push(
        "[permissions.twsrt.network] enabled = false, which lets sandboxed commands reach no \
         host (the policy's allowedDomains stay listed)"
            .to_string(),
    );
    let to = "\n[permissions.twsrt.network]\nenabled = false\n";
    fragment.replacen(NETWORK_ON, to, 1)
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

    #[test]
    fn a_network_switched_off_is_kept() {
        let fragment = format!("{FRAGMENT}{NETWORK_ON}\n[permissions.twsrt.network.domains]\n");
        let off = "[permissions.twsrt.network]\nenabled = false\n";
        let (kept, note) = keep(fragment.clone(), Some(off));
        assert!(
            kept.contains("\n[permissions.twsrt.network]\nenabled = false\n"),
            "{kept}"
        );
        assert!(note.unwrap().contains("enabled = false"));
        for other in ["enabled = true", "enabled = \"false\"", ""] {
            let existing = format!("[permissions.twsrt.network]\n{other}\n");
            assert_eq!(
                keep(fragment.clone(), Some(&existing)),
                (fragment.clone(), None)
            );
        }
        assert_eq!(
            keep(
                fragment.clone(),
                Some("[permissions.mine.network]\nenabled = false\n")
            ),
            (fragment.clone(), None)
        );
    }
}
