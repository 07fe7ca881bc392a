//! Positions kept from the one parse. A command that points at entries
//! (doctor, explain) calls [`keep_positions`] before it reads any fragment;
//! from then on every parse on this thread ([`super::parse`] as much as
//! [`super::parse_located`]) records the fragment with the positions of
//! its strings, by path, and a later parse of the same text at the same
//! path answers with the recorded one instead of parsing again. So the
//! compile and the checks that point into the file share one parse.
//!
//! Without [`keep_positions`] nothing is recorded (`generate` and the other
//! commands keep no positions they do not print).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::Located;

/// One recorded parse: the text it read, and what it found.
struct Kept {
    text: String,
    located: Rc<Located>,
}

thread_local! {
    /// `None` until [`keep_positions`]; then every parse, by path.
    static KEPT: RefCell<Option<HashMap<PathBuf, Kept>>> = const { RefCell::new(None) };
}

/// Record every parse on this thread from now on, with its positions.
pub fn keep_positions() {
    KEPT.with(|kept| {
        kept.borrow_mut().get_or_insert_with(HashMap::new);
    });
}

/// Whether parses are being recorded.
pub(super) fn keeping() -> bool {
    KEPT.with(|kept| kept.borrow().is_some())
}

/// The recorded parse of `path`, when one is.
pub fn kept(path: &Path) -> Option<Rc<Located>> {
    KEPT.with(|kept| {
        kept.borrow()
            .as_ref()?
            .get(path)
            .map(|k| Rc::clone(&k.located))
    })
}

/// The recorded parse of `path` when it read exactly `text`.
pub(super) fn recorded(path: &Path, text: &str) -> Option<Rc<Located>> {
    KEPT.with(|kept| {
        kept.borrow()
            .as_ref()?
            .get(path)
            .filter(|k| k.text == text)
            .map(|k| Rc::clone(&k.located))
    })
}

/// Record `located`, parsed from `text` at `path`, when parses are kept.
pub(super) fn record(path: &Path, text: &str, located: &Rc<Located>) {
    KEPT.with(|kept| {
        if let Some(map) = kept.borrow_mut().as_mut() {
            map.insert(
                path.to_path_buf(),
                Kept {
                    text: text.to_string(),
                    located: Rc::clone(located),
                },
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fragment::{parse, parse_located};

    const TEXT: &str = "{\n  \"deny\": [\"rm\"]\n}\n";

    #[test]
    fn nothing_is_recorded_unless_positions_are_kept() {
        let path = Path::new("/f.jsonc");
        parse(TEXT, path).unwrap();
        assert!(kept(path).is_none());
        let first = parse_located(TEXT, path).unwrap();
        let second = parse_located(TEXT, path).unwrap();
        assert!(!Rc::ptr_eq(&first, &second));
    }

    #[test]
    fn once_kept_the_compile_s_parse_is_the_one_the_positions_come_from() {
        keep_positions();
        let path = Path::new("/f.jsonc");
        let value = parse(TEXT, path).unwrap();
        let recorded = kept(path).unwrap();
        assert_eq!(recorded.value, value);
        let s = recorded.list("/deny").next().unwrap();
        assert_eq!((s.value.as_str(), s.line, s.column), ("rm", 2, 12));
        // The same text again is not parsed again.
        assert!(Rc::ptr_eq(&parse_located(TEXT, path).unwrap(), &recorded));
        // Another text at the same path is.
        let other = parse_located("{\"deny\": [\"dd\"]}", path).unwrap();
        assert!(!Rc::ptr_eq(&other, &recorded));
        assert_eq!(kept(path).unwrap().value["deny"][0], "dd");
    }
}
