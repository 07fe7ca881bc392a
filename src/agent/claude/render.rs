//! The Claude settings document `generate claude` prints: permission rules
//! from the normalized rule list, the sandbox section from the srt
//! pass-through keys, then the mode's `[sandbox_overrides]`.

use std::borrow::Cow;
use std::path::Path;

use serde_json::{Map, Value};

use crate::agent::Rules;
use crate::agent::claude::deny_path::FileProbe;
use crate::compose::{Composed, Item, Node};
use crate::pyjson::{self, PrettyList, PrettyObject};
use crate::rules::{Action, Scope};

/// srt `network` keys copied verbatim into `sandbox.network`, in output order
/// (after `allowedDomains`, which comes from the rules).
pub const NETWORK_KEYS: [&str; 5] = [
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowLocalBinding",
    "httpProxyPort",
    "socksProxyPort",
];

/// srt `filesystem` keys copied verbatim into `sandbox.filesystem`.
pub const FILESYSTEM_KEYS: [&str; 3] = ["allowWrite", "denyWrite", "denyRead"];

/// srt top-level keys copied verbatim into `sandbox`.
pub const SANDBOX_KEYS: [&str; 4] = [
    "enabled",
    "enableWeakerNetworkIsolation",
    "enableWeakerNestedSandbox",
    "ignoreViolations",
];

/// What the generator reads: everything comes in as a value, so the
/// rendering is a pure function apart from the denyRead file probe, which
/// takes the home directory explicitly.
pub struct Input<'a> {
    pub rules: Rules<'a>,
    /// The composed srt settings, read in place (their lists unbuilt).
    pub srt: &'a Composed,
    pub overrides: &'a Map<String, Value>,
    pub yolo: bool,
    pub home: &'a Path,
}

/// The generated settings document (`permissions` then `sandbox`).
pub fn render(input: &Input) -> Map<String, Value> {
    settings(input).to_map()
}

/// `json.dumps(render(input), indent=2)`, written straight from the rules and
/// the srt settings without building the document first.
pub fn preview(input: &Input) -> String {
    settings(input).to_pretty()
}

/// [`preview`] followed by a newline, written to `out` in pieces of about
/// 64 KiB instead of as one string. Each piece ends at a line end, so that a
/// line-buffered stdout passes it on in one `write`. Write errors (a closed
/// pipe) are ignored as for every other stdout line.
pub fn write_preview(input: &Input, out: &mut dyn std::io::Write) {
    const PIECE: usize = 64 * 1024;
    let mut buffer = String::with_capacity(PIECE + 4096);
    let mut flush = |piece: &str| {
        let lines = piece.rfind('\n').map_or(0, |i| i + 1);
        let _ = out.write_all(&piece.as_bytes()[..lines]);
        lines
    };
    settings(input).write_pretty(&mut buffer, PIECE, &mut flush);
    buffer.push('\n');
    let _ = out.write_all(buffer.as_bytes());
}

/// The generated document as `diff` reads it, without building it.
pub fn generated<'a, 'i>(input: &'i Input<'a>) -> Generated<'a, 'i> {
    Generated(settings(input))
}

pub struct Generated<'a, 'i>(Settings<'a, 'i>);

/// An object of the generated document, as far as `diff` looks into it.
pub enum Section<'x> {
    Map(&'x Map<String, Value>),
    Keys(&'x [(&'static str, Node<'x>)]),
    /// Absent, or not an object.
    Empty,
}

impl<'x> Section<'x> {
    /// The value of `key` (a packed list is built for it).
    pub fn get(&self, key: &str) -> Option<Cow<'x, Value>> {
        match self {
            Section::Map(map) => map.get(key).map(Cow::Borrowed),
            Section::Keys(keys) => keys
                .iter()
                .find(|(k, _)| *k == key)
                .map(|(_, node)| node.as_value()),
            Section::Empty => None,
        }
    }
}

/// `sandbox.network.allowedDomains` of the generated document.
pub enum Domains<'x> {
    /// From the rules: all strings.
    Rules(&'x [&'x str]),
    /// From an override that replaced the section.
    List(Option<&'x Vec<Value>>),
}

impl<'a> Generated<'a, '_> {
    /// Calls `f` with the text of each entry of `permissions.<section>`, in
    /// order (nothing for a list that is not generated). `buf` is scratch.
    pub fn permissions(&self, section: &str, buf: &mut String, mut f: impl FnMut(&str)) {
        let Some(&(_, list)) = self.0.lists().iter().find(|(key, _)| *key == section) else {
            return;
        };
        self.0.each(list, |rule| {
            buf.clear();
            buf.push_str(rule.head.text);
            buf.push_str(rule.pattern);
            buf.push_str(rule.tail.text);
            f(buf);
        });
    }

    fn part(&self, key: &str) -> Option<&Part<'a>> {
        self.0
            .sandbox
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, part)| part)
    }

    /// `sandbox.network`, and its `allowedDomains`.
    pub fn network(&self) -> (Section<'_>, Domains<'_>) {
        match self.part("network") {
            Some(Part::Network { domains, keys }) => (Section::Keys(keys), Domains::Rules(domains)),
            Some(Part::Value(Node::Value(value))) => match value.as_ref() {
                Value::Object(map) => (
                    Section::Map(map),
                    Domains::List(map.get("allowedDomains").and_then(Value::as_array)),
                ),
                _ => (Section::Empty, Domains::List(None)),
            },
            _ => (Section::Empty, Domains::List(None)),
        }
    }

    /// `sandbox.filesystem`.
    pub fn filesystem(&self) -> Section<'_> {
        match self.part("filesystem") {
            Some(Part::Keys(keys)) => Section::Keys(keys),
            Some(Part::Value(Node::Value(value))) => match value.as_ref() {
                Value::Object(map) => Section::Map(map),
                _ => Section::Empty,
            },
            _ => Section::Empty,
        }
    }

    /// A top-level `sandbox` key other than `network` and `filesystem`.
    pub fn sandbox_key(&self, key: &str) -> Option<Cow<'_, Value>> {
        match self.part(key) {
            Some(Part::Value(node)) => Some(node.as_value()),
            // Only `network` and `filesystem` are generated as sections.
            _ => None,
        }
    }
}

/// One permission rule, `Head(` + pattern + `)`-ish tail, kept in parts so
/// that a preview never builds the string.
#[derive(Clone, Copy)]
struct Rule<'a> {
    head: &'static Affix,
    pattern: &'a str,
    tail: &'static Affix,
}

/// A fixed part of a rule: as text, and as the preview writes it (a head
/// starts a list item three levels deep with the comma that ends the item
/// before, the line break, the indentation and its opening quote; the first
/// item skips the comma. A tail ends the item with the closing quote). Both
/// are plain ASCII.
struct Affix {
    text: &'static str,
    json: &'static str,
}

static READ: Affix = Affix {
    text: "Read(",
    json: ",\n      \"Read(",
};
static EDIT: Affix = Affix {
    text: "Edit(",
    json: ",\n      \"Edit(",
};
/// [`WEB_FETCH_PREFIX`] (checked by a test).
static WEB_FETCH: Affix = Affix {
    text: "WebFetch(domain:",
    json: ",\n      \"WebFetch(domain:",
};
static BASH: Affix = Affix {
    text: "Bash(",
    json: ",\n      \"Bash(",
};
static CLOSE: Affix = Affix {
    text: ")",
    json: ")\"",
};
static CONTENTS: Affix = Affix {
    text: "/**)",
    json: "/**)\"",
};
static ANY_ARGS: Affix = Affix {
    text: " *)",
    json: " *)\"",
};

impl Rule<'_> {
    fn to_value(self) -> Value {
        let (head, tail) = (self.head.text, self.tail.text);
        let mut s = String::with_capacity(head.len() + self.pattern.len() + tail.len());
        s.push_str(head);
        s.push_str(self.pattern);
        s.push_str(tail);
        Value::String(s)
    }
}

/// The generated document, borrowing from the input. The permission lists
/// are produced on demand, straight from the rules.
struct Settings<'a, 'i> {
    input: &'i Input<'a>,
    /// `sandbox`'s keys in order.
    sandbox: Vec<(&'a str, Part<'a>)>,
}

enum Part<'a> {
    /// `allowedDomains` from the rules, then the pass-through keys.
    Network {
        domains: Vec<&'a str>,
        keys: Vec<(&'static str, Node<'a>)>,
    },
    /// The pass-through keys of `filesystem`.
    Keys(Vec<(&'static str, Node<'a>)>),
    /// A value (or list) copied as it is.
    Value(Node<'a>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    Deny,
    Allow,
    Ask,
}

fn settings<'a, 'i>(input: &'i Input<'a>) -> Settings<'a, 'i> {
    Settings {
        input,
        sandbox: sandbox(input),
    }
}

impl<'a> Settings<'a, '_> {
    /// The permission lists in document order (no `ask` in yolo mode).
    fn lists(&self) -> &'static [(&'static str, List)] {
        if self.input.yolo {
            &[("deny", List::Deny), ("allow", List::Allow)]
        } else {
            &[
                ("deny", List::Deny),
                ("allow", List::Allow),
                ("ask", List::Ask),
            ]
        }
    }

    /// Calls `f` with each rule of `list`, in order.
    fn each(&self, list: List, mut f: impl FnMut(Rule<'a>)) {
        let input = self.input;
        let mut probe = FileProbe::new(input.home);
        // Only the rules this list is made of: the others are not even read.
        let wanted = move |scope, action| match list {
            List::Deny => action == Action::Deny,
            List::Allow => (scope, action) == (Scope::Network, Action::Allow),
            List::Ask => (scope, action) == (Scope::Execute, Action::Ask),
        };
        // `for_each`, not a `for` loop: the rules come through nested
        // iterators (documents, lists, entries), which fold into plain
        // nested loops this way instead of being stepped through per rule.
        input.rules.iter_where(wanted).for_each(|rule| {
            let p = rule.pattern;
            let mut r = |head: &'static Affix, tail: &'static Affix| {
                f(Rule {
                    head,
                    pattern: p,
                    tail,
                })
            };
            match (list, rule.scope, rule.action) {
                (List::Deny, Scope::Read, Action::Deny) => {
                    // A glob or an existing file is denied as written; anything
                    // else may be a directory, so its contents are denied too.
                    let bare =
                        p.bytes().any(|b| b == b'*' || b == b'?') || probe.is_existing_file(p);
                    for tool in [&READ, &EDIT] {
                        r(tool, &CLOSE);
                        if !bare {
                            r(tool, &CONTENTS);
                        }
                    }
                }
                (List::Deny, Scope::Write, Action::Deny) => r(&EDIT, &CLOSE),
                (List::Allow, Scope::Network, Action::Allow)
                | (List::Deny, Scope::Network, Action::Deny) => r(&WEB_FETCH, &CLOSE),
                (List::Deny, Scope::Execute, Action::Deny)
                | (List::Ask, Scope::Execute, Action::Ask) => {
                    r(&BASH, &CLOSE);
                    r(&BASH, &ANY_ARGS);
                }
                _ => {}
            }
        });
    }
}

fn sandbox<'a>(input: &Input<'a>) -> Vec<(&'a str, Part<'a>)> {
    let srt = input.srt;
    let domains = input
        .rules
        .iter_where(|scope, action| (scope, action) == (Scope::Network, Action::Allow))
        .map(|r| r.pattern)
        .collect();
    let mut sandbox = vec![(
        "network",
        Part::Network {
            domains,
            keys: present_keys(srt, "/network", &NETWORK_KEYS),
        },
    )];
    let filesystem = present_keys(srt, "/filesystem", &FILESYSTEM_KEYS);
    if !filesystem.is_empty() {
        sandbox.push(("filesystem", Part::Keys(filesystem)));
    }
    for (key, node) in present_keys(srt, "", &SANDBOX_KEYS) {
        sandbox.push((key, Part::Value(node)));
    }
    // A shallow update: an override key keeps the position it already has,
    // a new one is appended, and a nested table replaces the whole section.
    for (key, value) in input.overrides {
        let part = Part::Value(Node::Value(Cow::Borrowed(value)));
        match sandbox.iter_mut().find(|(k, _)| *k == key.as_str()) {
            Some(slot) => slot.1 = part,
            None => sandbox.push((key.as_str(), part)),
        }
    }
    sandbox
}

/// The keys present in the object at `section` (a JSON pointer; "" is the
/// root) of `srt`, in the order of `keys`. A key present with `null`
/// counts too: only absence omits it.
fn present_keys<'a>(
    srt: &'a Composed,
    section: &str,
    keys: &[&'static str],
) -> Vec<(&'static str, Node<'a>)> {
    if !srt.is_object(section) {
        return Vec::new();
    }
    keys.iter()
        .filter_map(|key| Some((*key, srt.node(&format!("{section}/{key}"))?)))
        .collect()
}

fn keys_to_map(keys: &[(&str, Node)]) -> Map<String, Value> {
    keys.iter()
        .map(|(k, node)| ((*k).to_string(), node.as_value().into_owned()))
        .collect()
}

impl Settings<'_, '_> {
    fn to_map(&self) -> Map<String, Value> {
        let mut permissions = Map::new();
        for &(key, list) in self.lists() {
            let mut items = Vec::new();
            self.each(list, |rule| items.push(rule.to_value()));
            permissions.insert(key.into(), Value::Array(items));
        }
        let mut sandbox = Map::new();
        for (key, part) in &self.sandbox {
            let value = match part {
                Part::Network { domains, keys } => {
                    let mut network = Map::new();
                    let domains = domains.iter().map(|d| Value::String((*d).to_string()));
                    network.insert("allowedDomains".into(), Value::Array(domains.collect()));
                    network.extend(keys_to_map(keys));
                    Value::Object(network)
                }
                Part::Keys(keys) => Value::Object(keys_to_map(keys)),
                Part::Value(node) => node.as_value().into_owned(),
            };
            sandbox.insert((*key).to_string(), value);
        }
        let mut root = Map::new();
        root.insert("permissions".into(), Value::Object(permissions));
        root.insert("sandbox".into(), Value::Object(sandbox));
        root
    }

    fn to_pretty(&self) -> String {
        // Room for the worst case (every byte escaped): capacity that is never
        // written costs nothing, growing and copying a large buffer does.
        let rules: usize = self
            .input
            .rules
            .iter()
            .map(|r| 4 * (6 * r.pattern.len() + 32))
            .sum();
        let mut out = String::with_capacity(rules + 4096);
        self.write_pretty(&mut out, usize::MAX, &mut |_| 0);
        out
    }

    /// Writes the document into `out`, handing `out` to `flush` whenever it
    /// has grown past `flush_at` bytes and dropping the bytes `flush` says it
    /// took, so a large document is streamed through a small buffer (fresh
    /// memory is dear at start-up). What is left in `out` at the end is the
    /// rest of the document.
    fn write_pretty(
        &self,
        out: &mut String,
        flush_at: usize,
        flush: &mut dyn FnMut(&str) -> usize,
    ) {
        let mut spill = |out: &mut String| {
            if out.len() >= flush_at {
                let taken = flush(out);
                out.drain(..taken.min(out.len()));
            }
        };
        let mut root = PrettyObject::open(out, 0);
        let mut permissions = PrettyObject::open(root.key("permissions"), 1);
        for &(key, list) in self.lists() {
            // Items three levels deep, as the affixes have them.
            let out = permissions.key(key);
            out.push('[');
            let mut empty = true;
            let mut body = EscapedOnce::default();
            self.each(list, |rule| {
                // The head's leading comma separates this item from the last.
                out.push_str(if empty {
                    &rule.head.json[1..]
                } else {
                    rule.head.json
                });
                empty = false;
                body.write(out, rule.pattern);
                out.push_str(rule.tail.json);
                spill(out);
            });
            if !empty {
                out.push_str("\n    ");
            }
            out.push(']');
        }
        permissions.close();
        let mut sandbox = PrettyObject::open(root.key("sandbox"), 1);
        for (key, part) in &self.sandbox {
            let out = sandbox.key(key);
            match part {
                Part::Network { domains, keys } => {
                    let mut network = PrettyObject::open(out, 2);
                    let mut list = PrettyList::open(network.key("allowedDomains"), 3);
                    for domain in domains {
                        spill(list.string_item(domain));
                    }
                    list.close();
                    for (k, v) in keys {
                        write_streamed(network.key(k), v, 3, &mut spill);
                    }
                    network.close();
                }
                Part::Keys(keys) => {
                    let mut section = PrettyObject::open(out, 2);
                    for (k, v) in keys {
                        write_streamed(section.key(k), v, 3, &mut spill);
                    }
                    section.close();
                }
                Part::Value(Node::Value(value)) => pyjson::write_pretty_indented(out, value, 2),
                Part::Value(Node::List(items)) => write_items(out, items, 2, &mut spill),
            }
            spill(out);
        }
        sandbox.close();
        root.close();
    }
}

/// The escaped body of the pattern last written, kept for the next rule:
/// one pattern makes up to four rules in a row (`Read(p)`, `Read(p/**)`,
/// `Edit(p)`, `Edit(p/**)`), and it is looked at once, not four times.
#[derive(Default)]
struct EscapedOnce {
    /// Where the pattern is (the same slice of the same document is the same
    /// text, so its address and length identify it without comparing it).
    of: (usize, usize),
    plain: bool,
    /// The escaped text of a pattern that is not plain.
    text: String,
}

impl EscapedOnce {
    fn write(&mut self, out: &mut String, pattern: &str) {
        let of = (pattern.as_ptr() as usize, pattern.len());
        if self.of != of {
            self.of = of;
            self.plain = pyjson::is_plain(pattern);
            if !self.plain {
                self.text.clear();
                pyjson::write_str_body(&mut self.text, pattern);
            }
        }
        out.push_str(if self.plain { pattern } else { &self.text });
    }
}

/// `json.dumps(v, indent=2)` at `depth`, as [`pyjson::write_pretty_indented`]
/// writes it, offering `out` to `spill` after each item of a list: the
/// pass-through lists (`denyRead`, ...) of a large policy are longer than
/// one streamed piece, and the buffer should not grow to hold one whole.
fn write_streamed(
    out: &mut String,
    node: &Node,
    depth: usize,
    spill: &mut impl FnMut(&mut String),
) {
    match node {
        Node::List(items) => write_items(out, items, depth, spill),
        Node::Value(value) => match value.as_ref() {
            Value::Array(items) => {
                let mut list = PrettyList::open(out, depth);
                for item in items {
                    let out = list.item();
                    pyjson::write_pretty_indented(out, item, depth + 1);
                    spill(out);
                }
                list.close();
            }
            other => pyjson::write_pretty_indented(out, other, depth),
        },
    }
    spill(out);
}

/// A packed list of the composition, as [`write_streamed`] writes a list:
/// strings straight from the list's text.
fn write_items(
    out: &mut String,
    items: &crate::compose::Items,
    depth: usize,
    spill: &mut impl FnMut(&mut String),
) {
    let mut list = PrettyList::open(out, depth);
    for item in items.iter() {
        let out = match item {
            Item::Str(text) => list.string_item(text),
            Item::Other(value) => {
                let out = list.item();
                pyjson::write_pretty_indented(out, value, depth + 1);
                out
            }
        };
        spill(out);
    }
    list.close();
}

#[cfg(test)]
mod escaped_once_tests {
    use super::*;

    #[test]
    fn each_pattern_is_written_escaped_whether_repeated_or_not() {
        let patterns = ["a\"b", "plain", "t\u{e9}"];
        let mut body = EscapedOnce::default();
        let mut out = String::new();
        for p in [0, 0, 1, 1, 2, 0, 2] {
            body.write(&mut out, patterns[p]);
            out.push('|');
        }
        assert_eq!(out, "a\\\"b|a\\\"b|plain|plain|t\\u00e9|a\\\"b|t\\u00e9|");
    }
}
