//! The Claude settings document `generate claude` prints: permission rules
//! from the normalized rule list, the sandbox section from the srt
//! pass-through keys, then the mode's `[sandbox_overrides]`.

use std::path::Path;

use rustc_hash::FxHashSet;
use serde_json::{Map, Value};

use crate::agent::claude::allow_read;
use crate::agent::claude::deny_path::FileProbe;
use crate::agent::claude::merge::WEB_FETCH_PREFIX;
use crate::agent::claude::sandbox_part::Part;
use crate::pyjson::{self, Out};
use crate::rules::{Action, Scope, SecurityRule};

/// srt `network` keys copied verbatim into `sandbox.network`, in output order
/// (after `allowedDomains`, which comes from the rules).
pub const NETWORK_KEYS: [&str; 7] = [
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowLocalBinding",
    "allowMachLookup",
    "httpProxyPort",
    "socksProxyPort",
    "strictAllowlist",
];

/// The `sandbox.filesystem` lists twsrt always writes empty, in the order it
/// appends them. Their paths go out as Read/Edit permission rules instead:
/// Claude Code anchors a relative entry of these lists at the settings
/// file's directory, so the `.` of a policy would open `~/.claude` for
/// writing rather than the project, while a permission rule's relative path
/// is anchored where the agent starts, as srt anchors it.
pub const MANAGED_PATH_LISTS: [&str; 3] = ["denyRead", "denyWrite", "allowWrite"];

/// srt top-level keys copied verbatim into `sandbox`. `credentials` has
/// the same schema in Claude Code 2.1.332 (doc/clients.md, "srt 0.0.83's
/// credentials, strict allowlist and allowRead, read"); its files are
/// Read/Edit denies besides (they are read-deny rules).
pub const SANDBOX_KEYS: [&str; 5] = [
    "enabled",
    "enableWeakerNetworkIsolation",
    "enableWeakerNestedSandbox",
    "ignoreViolations",
    "credentials",
];

/// What the generator reads. The rendering is a pure function of it apart
/// from the denyRead file probe, which takes the home directory explicitly.
pub struct Input<'a> {
    pub rules: &'a [SecurityRule<'a>],
    /// The composed srt settings.
    pub srt: &'a Value,
    pub overrides: &'a Map<String, Value>,
    pub yolo: bool,
    pub home: &'a Path,
    /// The `hooks` object twsrt owns (`[targets] claude_hook`), if any.
    pub hooks: Option<Value>,
}

/// The generated settings document (`permissions` then `sandbox`).
pub fn render(input: &Input) -> Map<String, Value> {
    let mut permissions = Map::new();
    for &(name, list) in lists(input.yolo) {
        let items = rules_of(input, list).map(|rule| Value::String(rule.text()));
        permissions.insert(name.into(), Value::Array(items.collect()));
    }
    let mut root = Map::new();
    root.insert("permissions".into(), Value::Object(permissions));
    let sandbox = sandbox(input);
    let sandbox = sandbox
        .iter()
        .map(|(k, part)| (k.to_string(), part.to_value()));
    root.insert("sandbox".into(), Value::Object(sandbox.collect()));
    if let Some(hooks) = &input.hooks {
        root.insert("hooks".into(), hooks.clone());
    }
    root
}

/// The generated `sandbox` object alone (what of the generated settings
/// comes from the user's sources; the permission lists are rule strings).
pub fn sandbox_value(input: &Input) -> Value {
    Part::Object(sandbox(input)).to_value()
}

/// `to_pretty(render(input))`, written from the rules themselves: a large
/// policy has tens of thousands of permission rules, and building each as a
/// JSON value first costs megabytes of fresh memory, which is what a run of
/// twsrt pays most for (doc/benchmarks.md). A test holds the two equal.
pub fn write_preview<O: Out + ?Sized>(input: &Input, out: &mut O) {
    let mut sections = vec![
        ("permissions", Section::Permissions),
        ("sandbox", Section::Sandbox(sandbox(input))),
    ];
    if let Some(hooks) = &input.hooks {
        sections.push(("hooks", Section::Hooks(hooks)));
    }
    pyjson::write_container(
        out,
        0,
        ['{', '}'],
        sections,
        |out, (key, section), depth| {
            pyjson::write_key(out, key);
            match section {
                Section::Sandbox(parts) => Part::Object(parts).write(out, depth),
                Section::Permissions => write_permissions(input, out, depth),
                Section::Hooks(hooks) => pyjson::write_pretty_at(out, hooks, depth),
            }
        },
    );
}

/// A top-level section of the preview.
enum Section<'a> {
    Permissions,
    Sandbox(Vec<(&'a str, Part<'a>)>),
    Hooks(&'a Value),
}

/// The `permissions` object at `depth`, each rule written from its parts.
fn write_permissions<O: Out + ?Sized>(input: &Input, out: &mut O, depth: usize) {
    pyjson::write_container(
        out,
        depth,
        ['{', '}'],
        lists(input.yolo),
        |out, &(name, list), depth| {
            pyjson::write_key(out, name);
            let rules = rules_of(input, list);
            pyjson::write_container(out, depth, ['[', ']'], rules, |out, rule, _| {
                rule.write(out);
            });
        },
    );
}

/// The permission lists, in document order (no `ask` in yolo mode, where
/// nothing asks).
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    Deny,
    Allow,
    Ask,
}

fn lists(yolo: bool) -> &'static [(&'static str, List)] {
    if yolo {
        &[("deny", List::Deny), ("allow", List::Allow)]
    } else {
        &[
            ("deny", List::Deny),
            ("allow", List::Allow),
            ("ask", List::Ask),
        ]
    }
}

/// One permission rule: `head`, the policy's pattern (or its stem), `tail`.
/// Kept this small (a borrowed pattern and two codes) because the
/// de-duplication below holds every deny and allow rule at once.
#[derive(Clone, Copy)]
struct Rule<'a> {
    head: Head,
    pattern: &'a str,
    tail: Tail,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Head {
    Read,
    Edit,
    /// `Read(/`: with the pattern's own `/`, the `//` that makes a path
    /// absolute in Claude Code (a single `/` is relative to the settings
    /// file, so `Read(/etc/x)` would guard `~/.claude/etc/x`).
    ReadRoot,
    EditRoot,
    WebFetch,
    Bash,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tail {
    Close,
    /// Everything under the path.
    Dir,
    /// The command with any arguments.
    AnyArgs,
}

impl<'a> Rule<'a> {
    fn parts(self) -> [&'a str; 3] {
        let head = match self.head {
            Head::Read => "Read(",
            Head::Edit => "Edit(",
            Head::ReadRoot => "Read(/",
            Head::EditRoot => "Edit(/",
            Head::WebFetch => WEB_FETCH_PREFIX,
            Head::Bash => "Bash(",
        };
        let tail = match self.tail {
            Tail::Close => ")",
            Tail::Dir => "/**)",
            Tail::AnyArgs => " *)",
        };
        [head, self.pattern, tail]
    }

    fn text(self) -> String {
        self.parts().concat()
    }

    fn bytes(self) -> impl Iterator<Item = u8> + 'a {
        self.parts().into_iter().flat_map(str::bytes)
    }

    fn len(self) -> usize {
        self.parts().iter().map(|p| p.len()).sum()
    }

    /// The rule as a JSON string literal. Head and tail are plain ASCII,
    /// each written as a literal (a copy of known length, which compiles
    /// to a few moves rather than a call); only the pattern can need escapes.
    fn write<O: Out + ?Sized>(self, out: &mut O) {
        match self.head {
            Head::Read => out.push_str("\"Read("),
            Head::Edit => out.push_str("\"Edit("),
            Head::ReadRoot => out.push_str("\"Read(/"),
            Head::EditRoot => out.push_str("\"Edit(/"),
            Head::WebFetch => {
                out.push('"');
                out.push_str(WEB_FETCH_PREFIX);
            }
            Head::Bash => out.push_str("\"Bash("),
        }
        pyjson::write_escaped(out, self.pattern);
        match self.tail {
            Tail::Close => out.push_str(")\""),
            Tail::Dir => out.push_str("/**)\""),
            Tail::AnyArgs => out.push_str(" *)\""),
        }
    }
}

/// Rules are equal when their texts are: `Edit(a/**)` may come from the
/// directory `a` or from the glob `a/**`.
impl PartialEq for Rule<'_> {
    fn eq(&self, other: &Self) -> bool {
        if self.head == other.head && self.tail == other.tail {
            return crate::bytewise::equal(self.pattern.as_bytes(), other.pattern.as_bytes());
        }
        self.len() == other.len() && self.bytes().eq(other.bytes())
    }
}

impl Eq for Rule<'_> {}

impl std::hash::Hash for Rule<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // Equal texts hash alike however they split into head, pattern and
        // tail: what is hashed is the tool, the text's length and the
        // pattern without its leading `/`s and its trailing `/`, `*` and
        // spaces, the only characters a head (`Read(/`) or a tail (`/**)`,
        // ` *)`) adds around it. The core is a slice of the pattern, so
        // nothing is copied; `same_text_same_hash` below holds the claim.
        let tool = match self.head {
            Head::Read | Head::ReadRoot => 0u8,
            Head::Edit | Head::EditRoot => 1,
            Head::WebFetch => 2,
            Head::Bash => 3,
        };
        let core = self
            .pattern
            .trim_start_matches('/')
            .trim_end_matches(['/', '*', ' ']);
        state.write_u8(tool);
        state.write_usize(self.len());
        state.write(core.as_bytes());
    }
}

/// The rules of `list`, in rule order. `deny` and `allow` hold each rule
/// once (the first time it comes): every read-denied path is write-denied
/// too, so its `Edit` rules arrive twice.
fn rules_of<'a>(input: &Input<'a>, list: List) -> impl Iterator<Item = Rule<'a>> {
    let mut probe = FileProbe::new(input.home);
    // Sized for every rule up front: growing a set of tens of thousands
    // of rules rehashes each of them several times.
    let action = match list {
        List::Deny => Some(Action::Deny),
        List::Allow => Some(Action::Allow),
        List::Ask => None,
    };
    let capacity = 2 * input
        .rules
        .iter()
        .filter(|r| Some(r.action) == action)
        .count();
    let mut seen = Seen::with_capacity(input.rules, capacity);
    // A read-denied path is in denyWrite too; its `Edit` rules (the `/**`
    // one for every path `Read` treats as a directory, a superset of the
    // existing directories) are out already, so it needs no second probe.
    let is_read_denied = |r: &&SecurityRule| {
        list == List::Deny && r.scope == Scope::Read && r.action == Action::Deny
    };
    // Sized exactly: a hash table touches every page it is given.
    let mut read_denied: FxHashSet<&str> = FxHashSet::with_capacity_and_hasher(
        input.rules.iter().filter(is_read_denied).count(),
        Default::default(),
    );
    read_denied.extend(input.rules.iter().filter(is_read_denied).map(|r| r.pattern));
    input
        .rules
        .iter()
        .enumerate()
        .filter(move |(_, r)| {
            !(r.scope == Scope::Write
                && r.action == Action::Deny
                && read_denied.contains(r.pattern))
        })
        .flat_map(move |(at, r)| translate(r, list, &mut probe).map(|rule| Some((at, rule?))))
        .flatten()
        .filter_map(move |(at, rule)| (list == List::Ask || seen.insert(at, rule)).then_some(rule))
}

/// The rules written so far to one list, each kept as the policy rule it
/// came from, the length of the pattern's prefix it uses and its head and
/// tail (12 bytes rather than the rule's 24: the set holds every deny
/// rule of a large policy at once).
struct Seen<'r, 'a> {
    rules: &'r [SecurityRule<'a>],
    table: hashbrown::HashTable<Kept>,
}

#[derive(Clone, Copy)]
struct Kept {
    rule: u32,
    len: u32,
    head: Head,
    tail: Tail,
}

impl<'r, 'a> Seen<'r, 'a> {
    fn with_capacity(rules: &'r [SecurityRule<'a>], capacity: usize) -> Self {
        Seen {
            rules,
            table: hashbrown::HashTable::with_capacity(capacity),
        }
    }

    /// Whether `rule` (made from policy rule `at`) is new to the list; it
    /// is recorded then. A rule whose pattern is not a prefix of its policy
    /// rule's (none is), or whose position does not fit 32 bits, is not
    /// recorded and counts as new: a repeated entry, never a lost one.
    fn insert(&mut self, at: usize, rule: Rule<'a>) -> bool {
        let source = self.rules.get(at).map_or("", |r| r.pattern);
        let (Ok(index), Ok(len)) = (u32::try_from(at), u32::try_from(rule.pattern.len())) else {
            return true;
        };
        // Borrowed from the same place and no longer: a prefix.
        if source.as_ptr() != rule.pattern.as_ptr() || rule.pattern.len() > source.len() {
            return true;
        }
        let rules = self.rules;
        let hash = hash(&rule);
        if self
            .table
            .find(hash, |k| expand(rules, *k) == rule)
            .is_some()
        {
            return false;
        }
        let kept = Kept {
            rule: index,
            len,
            head: rule.head,
            tail: rule.tail,
        };
        self.table
            .insert_unique(hash, kept, |k| self::hash(&expand(rules, *k)));
        true
    }
}

fn expand<'a>(rules: &[SecurityRule<'a>], kept: Kept) -> Rule<'a> {
    let pattern = rules.get(kept.rule as usize).map_or("", |r| r.pattern);
    Rule {
        head: kept.head,
        pattern: pattern.get(..kept.len as usize).unwrap_or(pattern),
        tail: kept.tail,
    }
}

fn hash(rule: &Rule) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(rule)
}

/// The rules of `list` one policy rule becomes (at most four).
fn translate<'a>(r: &SecurityRule<'a>, list: List, probe: &mut FileProbe) -> [Option<Rule<'a>>; 4] {
    let p = r.pattern;
    let rule = |head, tail| {
        Some(Rule {
            head,
            pattern: p,
            tail,
        })
    };
    match (list, r.scope, r.action) {
        (List::Deny, Scope::Read, Action::Deny) => {
            let dir = is_directory(p, probe);
            [
                Some(path_rule(Head::Read, p)),
                dir.then(|| dir_rule(Head::Read, p)),
                Some(path_rule(Head::Edit, p)),
                dir.then(|| dir_rule(Head::Edit, p)),
            ]
        }
        (List::Deny, Scope::Write, Action::Deny) => {
            // Deliberately stricter than the reference, which writes
            // `Edit(dir)` alone: Claude Code documents gitignore-style
            // matching for Read/Edit rules, but nothing shows that
            // `Edit(dir)` stops edits of the files inside, so an existing
            // directory also gets `Edit(dir/**)` (doc/compatibility.md).
            let dir = is_concrete(p) && !is_relative(p) && probe.is_existing_dir(p);
            [
                Some(path_rule(Head::Edit, p)),
                dir.then(|| dir_rule(Head::Edit, p)),
                None,
                None,
            ]
        }
        (List::Allow, Scope::Write, Action::Allow) => [
            Some(path_rule(Head::Edit, p)),
            is_directory(p, probe).then(|| dir_rule(Head::Edit, p)),
            None,
            None,
        ],
        (List::Deny, Scope::Network, Action::Deny)
        | (List::Allow, Scope::Network, Action::Allow) => {
            [rule(Head::WebFetch, Tail::Close), None, None, None]
        }
        (List::Deny, Scope::Execute, Action::Deny) | (List::Ask, Scope::Execute, Action::Ask) => [
            rule(Head::Bash, Tail::Close),
            rule(Head::Bash, Tail::AnyArgs),
            None,
            None,
        ],
        _ => [None; 4],
    }
}

/// `/x` needs a second `/` to be absolute in a Read/Edit rule; `//x`, `~/x`
/// and relative paths are written as they are.
fn rooted(pattern: &str) -> bool {
    pattern.starts_with('/') && !pattern.starts_with("//")
}

fn root(head: Head) -> Head {
    match head {
        Head::Read => Head::ReadRoot,
        Head::Edit => Head::EditRoot,
        other => other,
    }
}

/// `Tool(path)`, the path anchored.
fn path_rule(head: Head, pattern: &str) -> Rule<'_> {
    Rule {
        head: if rooted(pattern) { root(head) } else { head },
        pattern,
        tail: Tail::Close,
    }
}

/// `Tool(path/**)`: the anchored path without its trailing slashes, then
/// `/**`. The root (`/`, all slashes) has no stem left: `Tool(/**)`.
fn dir_rule(head: Head, pattern: &str) -> Rule<'_> {
    let stem = pattern.trim_end_matches('/');
    Rule {
        head: if rooted(pattern) && !stem.is_empty() {
            root(head)
        } else {
            head
        },
        pattern: stem,
        tail: Tail::Dir,
    }
}

/// Neither `*` nor `?` in it: the path itself, not a pattern.
fn is_concrete(pattern: &str) -> bool {
    !pattern.contains(['*', '?'])
}

/// Whether a path gets its `/**` rule too: not for a glob, nor for an
/// existing file. A relative path is anchored at the directory the agent
/// starts in, unknown here, so it counts as a directory; so does anything
/// that does not exist yet.
fn is_directory(pattern: &str, probe: &mut FileProbe) -> bool {
    if !is_concrete(pattern) {
        return false;
    }
    if is_relative(pattern) {
        return true;
    }
    !probe.is_existing_file(pattern)
}

/// Neither absolute nor under `~`: anchored where the agent starts, so
/// twsrt's own working directory says nothing about it.
fn is_relative(pattern: &str) -> bool {
    !pattern.starts_with(['/', '~'])
}

/// The `sandbox` section: the allowed domains and the srt pass-through keys,
/// then the mode's overrides; last, the managed path lists are emptied.
fn sandbox<'a>(input: &Input<'a>) -> Vec<(&'a str, Part<'a>)> {
    let srt = input.srt;
    let domains = input
        .rules
        .iter()
        .filter(|r| r.is(Scope::Network, Action::Allow))
        .map(|r| r.pattern)
        .collect();
    let mut network = vec![("allowedDomains", Part::Strings(domains))];
    network.extend(present_keys(srt.get("network"), &NETWORK_KEYS));
    // The one srt filesystem list passed through is `allowRead` (its
    // absolute and `~` entries, see `allow_read`); the others are the
    // managed lists, emptied below.
    let allow_read = allow_read::compiled(srt);
    let mut sandbox = vec![
        ("network", Part::Object(network)),
        ("filesystem", Part::Object(Vec::new())),
    ];
    sandbox.extend(present_keys(Some(srt), &SANDBOX_KEYS));
    // A shallow update: an override key keeps the position it already has,
    // a new one is appended, and a nested table replaces the whole section.
    for (key, value) in input.overrides {
        match sandbox.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = Part::Value(value),
            None => sandbox.push((key, Part::Value(value))),
        }
    }
    if let Some((_, filesystem)) = sandbox.iter_mut().find(|(k, _)| *k == "filesystem") {
        if let Part::Value(Value::Object(map)) = filesystem {
            let parts = map.iter().map(|(k, v)| (k.as_str(), Part::Value(v)));
            *filesystem = Part::Object(parts.collect());
        }
        add_allow_read(filesystem, allow_read);
        empty_managed_lists(filesystem);
    }
    sandbox
}

/// Appends the policy's `allowRead` entries to `filesystem` unless it has
/// the key already (an override's own list wins) or there are none.
fn add_allow_read<'a>(filesystem: &mut Part<'a>, entries: Vec<&'a str>) {
    if let Part::Object(parts) = filesystem
        && !entries.is_empty()
        && !parts.iter().any(|(k, _)| *k == allow_read::KEY)
    {
        parts.push((allow_read::KEY, Part::Strings(entries)));
    }
}

/// Sets each managed list of `filesystem` to `[]`, in place when an
/// override has it, else appended. An override that is not a table stays
/// as it is (the agent refuses it before rendering, see `check_overrides`);
/// one that is was made an object of parts before.
fn empty_managed_lists(filesystem: &mut Part<'_>) {
    let Part::Object(parts) = filesystem else {
        return;
    };
    for key in MANAGED_PATH_LISTS {
        match parts.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = Part::EmptyList,
            None => parts.push((key, Part::EmptyList)),
        }
    }
}

/// The keys of `keys` present in `section` when it is an object, in the
/// order of `keys`. A key present with `null` counts too: only absence
/// omits it.
fn present_keys<'a>(section: Option<&'a Value>, keys: &[&'static str]) -> Vec<(&'a str, Part<'a>)> {
    let Some(section) = section.and_then(Value::as_object) else {
        return Vec::new();
    };
    keys.iter()
        .filter_map(|&key| Some((key, Part::Value(section.get(key)?))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// Every rule text that two rules can share hashes alike, whatever
    /// head, pattern and tail make it (and equal rules are equal).
    #[test]
    fn same_text_same_hash() {
        const HEADS: [Head; 6] = [
            Head::Read,
            Head::Edit,
            Head::ReadRoot,
            Head::EditRoot,
            Head::WebFetch,
            Head::Bash,
        ];
        const TAILS: [Tail; 3] = [Tail::Close, Tail::Dir, Tail::AnyArgs];
        let pieces = [
            "", "/", "//", "a", "*", "**", " ", "/**", " *", "a/", "/a", "a b", "x*",
        ];
        let mut patterns = Vec::new();
        for a in pieces {
            for b in pieces {
                patterns.push(format!("{a}{b}"));
            }
        }
        let mut rules = Vec::new();
        for pattern in &patterns {
            for head in HEADS {
                for tail in TAILS {
                    rules.push(Rule {
                        head,
                        pattern,
                        tail,
                    });
                }
            }
        }
        let hash = |r: &Rule| rustc_hash::FxBuildHasher.hash_one(r);
        let mut by_text: std::collections::HashMap<String, (u64, usize)> = Default::default();
        let mut shared = 0;
        for rule in &rules {
            let (h, n) = by_text.entry(rule.text()).or_insert((hash(rule), 0));
            assert_eq!(*h, hash(rule), "{}", rule.text());
            *n += 1;
            if *n == 2 {
                shared += 1;
            }
        }
        // The set holds texts that several splits make (`Read(//a)`, `Edit(a/**)`).
        assert!(shared > 100, "{shared}");
        for a in rules.iter().take(400) {
            for b in rules.iter().take(400) {
                assert_eq!(a == b, a.text() == b.text(), "{} / {}", a.text(), b.text());
            }
        }
    }
}
