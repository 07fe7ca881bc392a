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
            sort_strings(items);
        }
    }
}

/// Sort a list of string values by their bytes. Each string is keyed by its
/// first 16 bytes as one big-endian number (zero-padded), so most
/// comparisons are one integer compare; only strings sharing those bytes
/// compare in full, eight bytes per step ([`crate::bytewise`]).
fn sort_strings(items: &mut [Value]) {
    let mut keyed: Vec<(u128, String)> = items
        .iter_mut()
        .map(|item| match item {
            Value::String(s) => (prefix_key(s), std::mem::take(s)),
            _ => (0, String::new()),
        })
        .collect();
    keyed.sort_unstable_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| crate::bytewise::compare(a.1.as_bytes(), b.1.as_bytes()))
    });
    for (item, (_, s)) in items.iter_mut().zip(keyed) {
        *item = Value::String(s);
    }
}

/// The first 16 bytes of `s`, zero-padded, as a big-endian number: when two
/// keys differ, they order the strings as their bytes do (a zero pad sorts
/// before every byte, as a shorter string sorts before a longer one).
fn prefix_key(s: &str) -> u128 {
    let mut bytes = [0u8; 16];
    let n = s.len().min(16);
    bytes[..n].copy_from_slice(&s.as_bytes()[..n]);
    u128::from_be_bytes(bytes)
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

    /// Strings sharing their first 16 bytes, NUL bytes and prefixes of one
    /// another sort exactly as their bytes do.
    #[test]
    fn the_prefix_key_never_changes_the_byte_order() {
        let words = [
            "",
            "\0",
            "a",
            "a\0",
            "a\0b",
            "ab",
            "aaaaaaaaaaaaaaaa",
            "aaaaaaaaaaaaaaaa\0",
            "aaaaaaaaaaaaaaaab",
            "aaaaaaaaaaaaaaaaa",
            "aaaaaaaaaaaaaaab",
            "\u{e4}",
            "~/x",
            "/x",
        ];
        let mut items: Vec<Value> = words.iter().rev().map(|w| json!(w)).collect();
        sort_strings(&mut items);
        let mut want: Vec<&str> = words.to_vec();
        want.sort_unstable();
        assert_eq!(items, want.iter().map(|w| json!(w)).collect::<Vec<_>>());
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
