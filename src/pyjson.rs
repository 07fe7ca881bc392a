//! JSON text exactly as the reference (Python's json.dumps, indent=2, ensure_ascii) prints it.
//!
//! * [`to_pretty`] is `json.dumps(v, indent=2)`: two-space indent, one item per
//!   line, `,` at line ends, `": "` after keys, `[]`/`{}` for empty containers,
//!   no trailing newline (written files add one themselves).
//! * [`to_compact`] is `json.dumps(v)`: one line, `", "` and `": "` separators.
//! * Strings ([`write_str`]) are ASCII only: `"` and `\` escaped, `\n \r \t \b \f`
//!   by name, other characters outside U+0020..U+007E (so control characters,
//!   DEL and all non-ASCII) as lowercase `\uXXXX`, above U+FFFF as a surrogate
//!   pair. `/` is left alone.
//! * Numbers print as Python prints what `json.loads` made of them (see
//!   [`classify`]): integer literals in full (`-0` as `0`), float literals as
//!   `repr(float)` (`1e3` -> `1000.0`, `1e-07`, `1e+16`, `-0.0`).
//!
//! Non-finite floats: a literal such as `1e400` is `inf` for Python. The
//! reference prints it as `Infinity` in previews (plain `json.dumps`), but writing
//! the canonical file (`allow_nan=False`) fails with a traceback.
//! [`crate::fragment::parse`] rejects such literals, so they should never get here;
//! if one does, it prints as the preview does (`Infinity`, `-Infinity`, `NaN`).
//!
//! One concept per file: `number` (what a number is for Python),
//! `float` (`repr(float)`), `string` (escaping) and `writer` (the two
//! layouts).

mod float;
mod number;
mod string;
mod writer;

pub use number::{PyNumber, classify};

/// Where the writers put their text: a `String`, or a sink that compares
/// the text with a file as it is written
/// ([`crate::agent::claude`]'s unchanged-target check) without holding it.
pub trait Out {
    fn push_str(&mut self, s: &str);

    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    /// Room for `additional` more bytes (a hint).
    fn reserve(&mut self, _additional: usize) {}
}

impl Out for String {
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }

    fn push(&mut self, c: char) {
        String::push(self, c);
    }

    fn reserve(&mut self, additional: usize) {
        String::reserve(self, additional);
    }
}
pub use string::{write_escaped, write_str, write_str_parts};
pub use writer::{to_compact, to_pretty, write_container, write_key, write_pretty_at};
