//! Lists that are sets come out sorted: the compiled documents (and every
//! agent rendering that follows them) do not change when fragments are
//! reordered, and two profiles diff cleanly.

use serde_json::Value;

/// Sort, in place, every list of strings at the JSON pointers in `pointers`
/// (`*` matches every key of an object). Order is by code point, as UTF-8
/// bytes compare. A list holding anything but strings, or a pointer that
/// leads nowhere, is left as it is.
pub fn sort_sets(doc: &mut Value, pointers: &[&str]) {
    for pointer in pointers {
        let segments: Vec<&str> = pointer.trim_matches('/').split('/').collect();
        sort_at(doc, &segments);
    }
}

fn sort_at(node: &mut Value, segments: &[&str]) {
    let (Some((head, rest)), Value::Object(map)) = (segments.split_first(), node) else {
        return;
    };
    let children: Box<dyn Iterator<Item = &mut Value>> = if *head == "*" {
        Box::new(map.values_mut())
    } else {
        Box::new(map.get_mut(*head).into_iter())
    };
    for child in children {
        if !rest.is_empty() {
            sort_at(child, rest);
        } else if let Value::Array(items) = child
            && items.iter().all(Value::is_string)
        {
            items.sort_unstable_by(|a, b| match (a, b) {
                (Value::String(a), Value::String(b)) => a.cmp(b),
                _ => std::cmp::Ordering::Equal,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn string_lists_at_the_pointers_sort_by_code_point() {
        let mut doc = json!({
            "network": {"allowedDomains": ["b.com", "a.com", "B.com", "\u{e4}.com", "_x", "*.a"],
                        "allowMachLookup": ["z", "a"]},
            "other": ["b", "a"],
        });
        sort_sets(&mut doc, &["/network/allowedDomains", "/missing/list"]);
        assert_eq!(
            doc,
            json!({
                "network": {"allowedDomains": ["*.a", "B.com", "_x", "a.com", "b.com", "\u{e4}.com"],
                            "allowMachLookup": ["z", "a"]},
                "other": ["b", "a"],
            })
        );
    }

    #[test]
    fn a_star_matches_every_key_and_mixed_lists_keep_their_order() {
        let mut doc = json!({"ignoreViolations": {"x": ["b", "a"], "y": ["d", 1, "c"], "z": 3}});
        sort_sets(&mut doc, &["/ignoreViolations/*"]);
        assert_eq!(
            doc,
            json!({"ignoreViolations": {"x": ["a", "b"], "y": ["d", 1, "c"], "z": 3}})
        );
    }
}
