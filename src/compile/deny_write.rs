//! What the compiled srt `filesystem.denyWrite` holds beyond the fragments'
//! own entries: every denyRead path (srt's read deny does not stop an
//! overwrite, and a path secret enough to hide is never meant to be
//! rewritten), the policy files, and whatever else the caller protects.

use rustc_hash::FxHashSet;
use serde_json::{Map, Value};

use crate::error::{Error, Result};

/// Replace `filesystem.denyWrite` of the composed srt document `doc` with
/// the sorted, de-duplicated union of itself, `filesystem.denyRead` and
/// `extra`. A path both read-denied and write-allowed is refused: it would
/// silently stop being writable.
pub fn imply_write_denies(profile: &str, doc: &mut Value, extra: &[String]) -> Result<()> {
    let Value::Object(root) = doc else {
        return Ok(());
    };
    let filesystem = root.get("filesystem").and_then(Value::as_object);
    let list = |key: &str| -> Vec<&str> {
        filesystem
            .and_then(|f| f.get(key))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    };
    let deny_read = list("denyRead");
    if deny_read.is_empty() && extra.is_empty() {
        return Ok(());
    }
    // A set: both lists may hold tens of thousands of entries.
    let allow_write: FxHashSet<&str> = list("allowWrite").into_iter().collect();
    let mut clash: Vec<&str> = deny_read
        .iter()
        .copied()
        .filter(|p| allow_write.contains(*p))
        .collect();
    if !clash.is_empty() {
        clash.sort_unstable();
        clash.dedup();
        return Err(Error::Policy(format!(
            "profile '{profile}': {} {} in both filesystem.denyRead and filesystem.allowWrite; \
             a read-denied path is write-denied too, so it cannot also be write-allowed \
             (remove it from one of the two lists)",
            clash.join(", "),
            if clash.len() == 1 { "is" } else { "are" },
        )));
    }
    // Both lists come sorted (the set lists are sorted before this runs), so
    // the union is a merge; only the few extra paths need sorting.
    let mut extra: Vec<&str> = extra.iter().map(String::as_str).collect();
    extra.sort_unstable();
    let union = merge_sorted(&[&list("denyWrite"), &deny_read, &extra]);
    let union: Vec<Value> = union
        .into_iter()
        .map(|p| Value::String(p.to_string()))
        .collect();
    // A document without a filesystem table gets one, after its other keys.
    let filesystem = root
        .entry("filesystem")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(filesystem) = filesystem {
        filesystem.insert("denyWrite".to_string(), Value::Array(union));
    }
    Ok(())
}

/// The sorted, de-duplicated union of sorted lists, in one pass. A list
/// that is not sorted (none is, when this runs after the set lists were
/// sorted) still yields every entry, only not in order: the result is then
/// sorted as a whole.
fn merge_sorted<'a>(lists: &[&[&'a str]]) -> Vec<&'a str> {
    let order = |a: &&str, b: &&str| crate::bytewise::compare(a.as_bytes(), b.as_bytes());
    let same = |a: &str, b: &str| crate::bytewise::equal(a.as_bytes(), b.as_bytes());
    let total = lists.iter().map(|l| l.len()).sum();
    let mut out: Vec<&'a str> = Vec::with_capacity(total);
    let mut next = vec![0usize; lists.len()];
    loop {
        let smallest = lists
            .iter()
            .zip(&next)
            .filter_map(|(list, &i)| list.get(i))
            .min_by(|a, b| order(a, b))
            .copied();
        let Some(smallest) = smallest else { break };
        for (list, i) in lists.iter().zip(next.iter_mut()) {
            while list.get(*i).is_some_and(|p| same(p, smallest)) {
                *i += 1;
            }
        }
        if !out.last().is_some_and(|p| same(p, smallest)) {
            out.push(smallest);
        }
    }
    if !out.is_sorted_by(|a, b| order(a, b).is_le()) {
        out.sort_unstable_by(order);
        out.dedup_by(|a, b| same(a, b));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn extra(paths: &[&str]) -> Vec<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    #[test]
    fn sorted_lists_merge_into_their_sorted_union() {
        let got = merge_sorted(&[&["a", "c", "c", "e"], &["b", "c", "f"], &[], &["a", "z"]]);
        assert_eq!(got, ["a", "b", "c", "e", "f", "z"]);
        // Unsorted input still gives the sorted union.
        assert_eq!(merge_sorted(&[&["b", "a"], &["a"]]), ["a", "b"]);
    }

    #[test]
    fn deny_write_becomes_the_sorted_union_in_place() {
        let mut doc = json!({"filesystem": {
            "denyRead": ["~/.ssh", "**/*.pem"],
            "denyWrite": ["~/.bashrc", "~/.ssh"],
            "allowWrite": ["."]
        }, "network": {}});
        imply_write_denies("d", &mut doc, &extra(&["/etc/x", "~/.bashrc"])).unwrap();
        assert_eq!(
            doc,
            json!({"filesystem": {
                "denyRead": ["~/.ssh", "**/*.pem"],
                "denyWrite": ["**/*.pem", "/etc/x", "~/.bashrc", "~/.ssh"],
                "allowWrite": ["."]
            }, "network": {}})
        );
        let keys: Vec<&String> = doc["filesystem"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["denyRead", "denyWrite", "allowWrite"]);
    }

    #[test]
    fn a_missing_filesystem_table_or_deny_write_list_is_added_last() {
        let mut doc = json!({"network": {}, "enabled": true});
        imply_write_denies("d", &mut doc, &extra(&["~/c"])).unwrap();
        let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["network", "enabled", "filesystem"]);
        assert_eq!(doc["filesystem"], json!({"denyWrite": ["~/c"]}));

        let mut doc = json!({"filesystem": {"denyRead": ["~/b"], "allowWrite": ["."]}});
        imply_write_denies("d", &mut doc, &[]).unwrap();
        let keys: Vec<&String> = doc["filesystem"].as_object().unwrap().keys().collect();
        assert_eq!(keys, ["denyRead", "allowWrite", "denyWrite"]);
    }

    #[test]
    fn nothing_to_add_leaves_the_document_alone() {
        let mut doc = json!({"network": {}});
        imply_write_denies("d", &mut doc, &[]).unwrap();
        assert_eq!(doc, json!({"network": {}}));
    }

    #[test]
    fn a_read_denied_path_may_not_be_write_allowed() {
        // Compared as written: `~/x` and its expansion are different entries.
        let mut doc = json!({"filesystem": {
            "denyRead": ["~/x", "~/b", "/home/u/y"],
            "allowWrite": ["~/x", "~/b", "~/y"]
        }});
        let err = imply_write_denies("work", &mut doc, &[]).unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.starts_with(
                "profile 'work': ~/b, ~/x are in both filesystem.denyRead and filesystem.allowWrite"
            ),
            "{msg}"
        );
        assert_eq!(err.exit_code(), 1);
    }
}
