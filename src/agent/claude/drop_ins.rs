//! The drop-ins Claude Code reads after twsrt's
//! (`managed-settings.d/*.json`, sorted by name; doc/clients.md "Claude
//! Code: managed policy files"): a later one's value replaces an earlier
//! one's, so one that sets a value twsrt's drop-in sets, to something else
//! (`sandbox.enabled`, a lock key), undoes it; and the lists that allow
//! add up over every managed file (`managed-settings.json` and each
//! drop-in, in any order), so an entry one of them adds to
//! [`ALLOW_LISTS`] allows more than twsrt's drop-in. Other teams' drop-ins
//! may sit beside twsrt's; only those overrides and additions are
//! reported, each widening.

use std::path::Path;

use serde_json::Value;

use crate::drift::{Difference, Direction};
use crate::error::{Error, Result};

/// The lists whose entries allow: one a neighbour adds widens.
const ALLOW_LISTS: [&str; 6] = [
    "/permissions/allow",
    "/permissions/additionalDirectories",
    "/sandbox/network/allowedDomains",
    "/sandbox/network/allowUnixSockets",
    "/sandbox/filesystem/allowWrite",
    "/sandbox/filesystem/allowRead",
];

/// Every value of `ours` (twsrt's drop-in) that a drop-in sorted after
/// `path` in its directory sets otherwise, and every allow entry another
/// managed file adds.
pub fn overrides(ours: &Value, path: &Path) -> Result<Vec<Difference>> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Ok(Vec::new());
    };
    let mut later: Vec<_> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .map(|e| e.map(|e| e.file_name()).map_err(|err| Error::io(dir, err)))
            .collect::<Result<Vec<_>>>()?,
        Err(e) => return Err(Error::io(dir, e)),
    };
    later.retain(|n| {
        let text = n.to_string_lossy();
        text.ends_with(".json") && !text.starts_with('.') && n.as_os_str() != name
    });
    later.sort();
    // managed-settings.json, beside the folder, is read before the drop-ins.
    let mut files: Vec<(std::path::PathBuf, bool)> = dir
        .parent()
        .map(|up| (up.join("managed-settings.json"), false))
        .into_iter()
        .collect();
    files.extend(later.iter().map(|n| (dir.join(n), n.as_os_str() > name)));
    let mut out = Vec::new();
    for (file, after) in files {
        if !file.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&file).map_err(|e| Error::io(&file, e))?;
        let doc: Value = serde_json::from_str(crate::bom::strip(&text))
            .map_err(|e| Error::target(&file, format!("is not valid JSON: {e}")))?;
        let mut found = Vec::new();
        if after {
            replaced(ours, &doc, "", &mut found);
        }
        added(ours, &doc, &mut found);
        grants(ours, &doc, &mut found);
        for (key, value) in found {
            let section = format!("{} {key}", file.display());
            out.push(Difference::new(
                &section,
                &value,
                &format!("{section}: {value}"),
                crate::drift::Side::Extra,
                Direction::Widening,
            ));
        }
    }
    Ok(out)
}

/// The entries `theirs` holds in [`ALLOW_LISTS`] that `ours` does not.
fn added(ours: &Value, theirs: &Value, out: &mut Vec<(String, String)>) {
    for list in ALLOW_LISTS {
        let mine = ours.pointer(list).and_then(Value::as_array);
        let Some(other) = theirs.pointer(list).and_then(Value::as_array) else {
            continue;
        };
        for item in other {
            if !mine.is_some_and(|m| m.contains(item)) {
                out.push((list[1..].replace('/', "."), item.to_string()));
            }
        }
    }
}

/// The softer `defaultMode` and the sandbox escape keys `theirs` sets
/// and `ours` does not ([`super::foreign`]; its allow lists are
/// [`added`]'s).
fn grants(ours: &Value, theirs: &Value, out: &mut Vec<(String, String)>) {
    let (Value::Object(ours), Value::Object(theirs)) = (ours, theirs) else {
        return;
    };
    for g in super::foreign::grants(ours, theirs) {
        if g.section == "permissions.defaultMode" || g.section == "sandbox" {
            out.push((g.section.to_string(), g.entry));
        }
    }
}

/// The dotted keys whose non-object value in `ours` `theirs` replaces,
/// with their value there.
fn replaced(ours: &Value, theirs: &Value, at: &str, out: &mut Vec<(String, String)>) {
    let (Value::Object(ours), Value::Object(theirs)) = (ours, theirs) else {
        return;
    };
    for (key, mine) in ours {
        let Some(other) = theirs.get(key) else {
            continue;
        };
        let dotted = if at.is_empty() {
            key.clone()
        } else {
            format!("{at}.{key}")
        };
        match (mine, other) {
            (Value::Object(_), _) => replaced(mine, other, &dotted, out),
            // Lists add up across drop-ins.
            (Value::Array(_), Value::Array(_)) => {}
            _ if mine != other => out.push((dotted, other.to_string())),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_later_drop_in_that_replaces_a_value_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("managed-settings.d");
        std::fs::create_dir(&d).unwrap();
        let ours = d.join("50-twsrt.json");
        let doc = json!({"sandbox": {"enabled": true, "network": {"allowedDomains": ["a"]}},
                         "allowManagedPermissionRulesOnly": true});
        std::fs::write(&ours, doc.to_string()).unwrap();
        // Before twsrt's, hidden, or agreeing: nothing to say.
        std::fs::write(
            d.join("10-early.json"),
            r#"{"sandbox": {"enabled": false}}"#,
        )
        .unwrap();
        std::fs::write(
            d.join(".99-hidden.json"),
            r#"{"sandbox": {"enabled": false}}"#,
        )
        .unwrap();
        std::fs::write(
            d.join("60-same.json"),
            r#"{"sandbox": {"enabled": true, "network": {"allowedDomains": ["b"]}}}"#,
        )
        .unwrap();
        // The lists that allow add up from every file, before or after.
        let found = overrides(&doc, &ours).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .shown
                .ends_with("60-same.json sandbox.network.allowedDomains: \"b\"")
        );
        std::fs::write(
            d.join("60-same.json"),
            r#"{"sandbox": {"enabled": true, "network": {"allowedDomains": ["a"]}}}"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("managed-settings.json"),
            r#"{"permissions": {"allow": ["Bash(*)"]}, "sandbox": {"enabled": false}}"#,
        )
        .unwrap();
        let found = overrides(&doc, &ours).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0]
                .shown
                .ends_with("managed-settings.json permissions.allow: \"Bash(*)\"")
        );
        std::fs::remove_file(dir.path().join("managed-settings.json")).unwrap();
        assert!(overrides(&doc, &ours).unwrap().is_empty());
        std::fs::write(
            d.join("99-late.json"),
            r#"{"sandbox": {"enabled": false}, "allowManagedPermissionRulesOnly": false}"#,
        )
        .unwrap();
        let found = overrides(&doc, &ours).unwrap();
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found.iter().all(|d| d.direction == Direction::Widening));
        assert!(
            found
                .iter()
                .any(|d| d.section.ends_with("99-late.json sandbox.enabled"))
        );
        std::fs::write(d.join("99-late.json"), "{").unwrap();
        assert!(overrides(&doc, &ours).is_err());
    }
}
