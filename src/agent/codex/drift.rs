//! Compare the managed parts of the Codex files with what would be generated.
//! Only managed data is compared and named; foreign values never appear.

use std::path::Path;

use serde_json::Value;
use toml_edit::{Document, Item, Table};

use super::directions;
use super::feature;
use super::merge::{LEGACY_KEYS, check_permissions, fragment_doc, parse_existing, reject_legacy};
use super::render::OWNED_KEYS;
use crate::drift::canonical::shown;
use crate::drift::{Difference, Direction, Side};
use crate::error::{Error, Result};
use crate::tomltext::toml_to_json;

#[derive(Debug, Default)]
pub struct Drift {
    /// Each change with its direction: one per owned key, per value inside
    /// `[permissions.twsrt]` (`permissions.twsrt.filesystem."~/.ssh"`), per
    /// `.rules` rule (named by its pattern).
    pub differences: Vec<Difference>,
    /// The lines of the text report, as 3.3.3 prints them: `config:<key>`
    /// on each side the key is on, `rules:<path>` on both sides when the
    /// rules file differs.
    pub lines: Vec<(Side, String)>,
}

/// How a changed managed value is judged: its value in the policy, on disk.
type Judge = fn(&str, Option<&Value>, Option<&Value>) -> Direction;

/// A value as the differences spell it; one TOML cannot hold as JSON (a
/// date) as its TOML text.
fn spelled(json: Option<&Value>, item: Option<&Item>) -> Option<String> {
    json.map(shown)
        .or_else(|| item.map(|i| i.to_string().trim().to_string()))
}

/// One difference of the value at `section`: missing, extra, or changed.
/// Its `shown` is the stderr line's text: the key, and the policy's value
/// where there is one, never the value on disk (a hand-edited value is not
/// twsrt's to print; `--json` has it).
fn one(
    section: &str,
    want: Option<String>,
    have: Option<String>,
    direction: Direction,
) -> Option<Difference> {
    let (shown, d) = match (want, have) {
        (Some(want), Some(have)) if want == have => (
            format!("{section} holds a value twsrt cannot compare"),
            Difference::plain(section, &have, Side::Extra, Direction::Widening),
        ),
        (Some(want), Some(have)) => (
            format!("{section} changed (the policy has {want})"),
            Difference::changed(section, &have, &want, direction),
        ),
        (Some(want), None) => (
            format!("{section} missing (the policy has {want})"),
            Difference::plain(section, &want, Side::Missing, direction),
        ),
        (None, Some(have)) => (
            format!("{section} extra"),
            Difference::plain(section, &have, Side::Extra, direction),
        ),
        (None, None) => return None,
    };
    Some(Difference { shown, ..d })
}

impl Drift {
    /// The text report's lines for a managed item `text` that differs:
    /// missing always (as 3.3.3 prints it), extra when it is on disk.
    fn lines_for(&mut self, text: &str, on_disk: bool) {
        self.lines.push((Side::Missing, text.to_string()));
        if on_disk {
            self.lines.push((Side::Extra, text.to_string()));
        }
    }

    /// A managed item `key` that should be `expected` and is `existing` on
    /// disk: absent is missing; different (by value, not by formatting) is
    /// changed. `judge` gives the direction.
    fn check(&mut self, key: &str, expected: Option<&Item>, existing: Option<&Item>, judge: Judge) {
        let want = expected.and_then(toml_to_json);
        let have = existing.and_then(toml_to_json);
        if existing.is_some() && want.is_some() && want == have {
            return;
        }
        let direction = judge(key, want.as_ref(), have.as_ref());
        let text = format!("config:{key}");
        self.lines_for(&text, existing.is_some());
        let want = spelled(want.as_ref(), expected);
        let have = spelled(have.as_ref(), existing);
        self.differences.extend(one(key, want, have, direction));
    }

    /// `[permissions.twsrt]`: one line (`config:permissions.twsrt`) on each
    /// side it is on; one difference per value that changed inside it.
    fn check_profile(&mut self, expected: Option<&Item>, existing: Option<&Item>) {
        let want = expected.and_then(toml_to_json);
        let have = existing.and_then(toml_to_json);
        if existing.is_some() && want.is_some() && want == have {
            return;
        }
        let text = "config:permissions.twsrt";
        self.lines_for(text, existing.is_some());
        let changes = directions::profile(want.as_ref(), have.as_ref());
        if changes.is_empty() {
            // Values toml_to_json cannot hold (a date): fail closed.
            self.differences.push(Difference::new(
                PROFILE,
                "(a value twsrt cannot compare)",
                &format!("{PROFILE} holds a value twsrt cannot compare"),
                Side::Extra,
                Direction::Widening,
            ));
        }
        for c in changes {
            let section = format!("{PROFILE}.{}", c.path);
            let want = c.policy.as_ref().map(shown);
            let have = c.disk.as_ref().map(shown);
            self.differences
                .extend(one(&section, want, have, c.direction));
        }
    }
}

const PROFILE: &str = "permissions.twsrt";

/// Owned keys and `permissions.twsrt` of config.toml (`config:<key>` entries).
/// `fragment` is the text [`super::render::fragment`] rendered.
///
/// Both files are only read, so they are parsed without the editable
/// document's owned copies of every key and value spelling; the common case
/// of a config.toml that holds just the fragment (as `generate -w` writes it
/// into an empty file) is parsed once. Anything unusual (a syntax error, a
/// legacy key) takes the path that reports it.
pub fn compare_config(existing: &str, fragment: &str, path: &Path) -> Result<Drift> {
    // A config.toml that is exactly the fragment (as `generate -w` writes it
    // into an empty file) has no drift: the fragment always parses, holds
    // every owned key and the profile, only strings and booleans (which
    // convert), and no legacy key. `the_fragment_compares_equal_to_itself`
    // checks this on awkward profiles.
    if existing == fragment {
        return Ok(Drift::default());
    }
    let Ok(doc) = Document::parse(existing) else {
        return compare_config_reporting(existing, fragment, path);
    };
    // A legacy key or a `permissions` that is not a table is refused, as
    // the merge refuses it; the editable document reports it.
    let odd_permissions = doc.get("permissions").is_some_and(|p| !p.is_table());
    if odd_permissions || LEGACY_KEYS.iter().any(|k| doc.contains_key(k)) {
        return compare_config_reporting(existing, fragment, path);
    }
    match Document::parse(fragment) {
        Ok(frag) => Ok(compare_tables(&frag, &doc)),
        Err(_) => compare_config_reporting(existing, fragment, path),
    }
}

/// [`compare_config`] through the editable documents, whose parse and
/// legacy-key errors are the ones to report.
fn compare_config_reporting(existing: &str, fragment: &str, path: &Path) -> Result<Drift> {
    let doc = parse_existing(existing, path)?;
    reject_legacy(&doc, path)?;
    check_permissions(&doc, path)?;
    let frag = fragment_doc(fragment)?;
    Ok(compare_tables(&frag, &doc))
}

fn compare_tables(frag: &Table, doc: &Table) -> Drift {
    let mut drift = Drift::default();
    for (key, _) in OWNED_KEYS {
        drift.check(key, frag.get(key), doc.get(key), directions::owned_key);
    }
    drift.check_profile(profile(frag), profile(doc));
    if feature::owned(frag) && !feature::is_on(doc) {
        // The domain lists are not enforced: any host is reachable.
        let on_disk = doc.get("features").and_then(|f| f.get("network_proxy"));
        drift.lines_for(FEATURE, on_disk.is_some());
        let side = if on_disk.is_some() {
            Side::Extra
        } else {
            Side::Missing
        };
        drift.differences.push(Difference::new(
            "features.network_proxy",
            "true",
            &format!(
                "features.network_proxy {} (the policy has true)",
                if on_disk.is_some() {
                    "changed"
                } else {
                    "missing"
                }
            ),
            side,
            Direction::Widening,
        ));
    }
    drift
}

const FEATURE: &str = "config:features.network_proxy";

fn profile(doc: &Table) -> Option<&Item> {
    doc.get("permissions").and_then(|p| p.get("twsrt"))
}

/// The rules file must match byte for byte (3.3.3's `rules:<path>` lines
/// on both sides); the differences name each rule missing, extra or edited
/// by its pattern, and a file that differs only in comments or layout is
/// one narrowing difference.
pub fn compare_rules(path: &Path, expected: &str, drift: &mut Drift) -> Result<()> {
    let on_disk = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    if on_disk == expected.as_bytes() {
        return Ok(());
    }
    let text = format!("rules:{}", path.display());
    drift.lines.push((Side::Missing, text.clone()));
    drift.lines.push((Side::Extra, text.clone()));
    let want = directions::rules(expected);
    let have = directions::rules(&String::from_utf8_lossy(&on_disk));
    let before = drift.differences.len();
    let named = |rules: &[directions::Rule], name: &str| rules.iter().any(|r| r.name == name);
    for rule in &want {
        if !have.contains(rule) {
            let (entry, side, what) = if named(&have, &rule.name) {
                (format!("{} (edited)", rule.name), Side::Extra, "edited")
            } else {
                (rule.name.clone(), Side::Missing, "missing")
            };
            drift.differences.push(Difference::new(
                "rules",
                &entry,
                &format!("rules: {} {what}", rule.name),
                side,
                Direction::Widening,
            ));
        }
    }
    for rule in have
        .iter()
        .filter(|r| !want.contains(r) && !named(&want, &r.name))
    {
        let direction = directions::extra_rule(rule);
        drift.differences.push(Difference::new(
            "rules",
            &rule.name,
            &format!("rules: {} extra", rule.name),
            Side::Extra,
            direction,
        ));
    }
    if drift.differences.len() == before {
        drift.differences.push(Difference::new(
            "rules",
            "(comments or layout)",
            "rules: comments or layout changed",
            Side::Extra,
            Direction::Narrowing,
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAGMENT: &str = "default_permissions = \"twsrt\"\napproval_policy = \"on-request\"\n\n\
        [permissions.twsrt]\nextends = \":workspace\"\n\n[permissions.twsrt.filesystem]\n\
        \"~/.ssh\" = \"none\"\n\"/etc/x\" = \"read\"\n";

    /// The fragment renderer's promise that `compare_config` relies on.
    #[test]
    fn the_fragment_compares_equal_to_itself() {
        use super::super::policy::{Access, Profile};
        use super::super::render::fragment;
        let odd = [
            "~/.ssh",
            "/a b",
            "/q\"uote",
            "/back\\slash",
            "/tab\there",
            "/nl\nx",
            "/\u{7f}del",
            "/\u{1}ctl",
            "/\u{e9}\u{1F600}",
            "~/true",
            "/=",
            "/#x",
            "/[t]",
            "/.",
            "/'s",
        ];
        let mut profiles = vec![Profile::default()];
        let mut p = Profile::default();
        for (i, key) in odd.iter().enumerate() {
            p.filesystem
                .set(key, [Access::Deny, Access::Read, Access::Write][i % 3]);
            p.workspace_roots.set(key, ());
            p.workspace_rules
                .set(&key.replace(['~', '/'], ""), Access::Read);
            p.domains
                .set(key, if i % 2 == 0 { "allow" } else { "deny" });
            p.unix_sockets.set(key, ());
        }
        p.workspace_rules.set(":workspace_roots", Access::Deny);
        p.domains.set("true", "allow");
        p.domains.set("", "deny");
        p.allow_all_unix_sockets = true;
        profiles.push(p);
        for profile in &profiles {
            let text = fragment(profile);
            let drift = compare_config_reporting(&text, &text, Path::new("c.toml")).unwrap();
            assert!(drift.differences.is_empty(), "{text}");
        }
    }

    /// The read-only documents give the answer the editable ones give.
    #[test]
    fn fast_comparison_agrees_with_the_reporting_one() {
        let existing = [
            FRAGMENT.to_string(),
            String::new(),
            format!("{FRAGMENT}[mcp_servers.x]\ncommand = \"y\"\n"),
            FRAGMENT.replace("\"none\"", "\"read\""),
            FRAGMENT.replace("on-request", "never"),
            format!("approvals_reviewer = 1979-05-27\n{FRAGMENT}"),
            format!("allow_login_shell = nan\n{FRAGMENT}"),
            format!("allow_login_shell = 1.5\n{FRAGMENT}"),
            format!("{FRAGMENT}[permissions.twsrt.extra]\nwhen = 1979-05-27\n"),
            FRAGMENT.replace(
                "[permissions.twsrt]\n",
                "[permissions.twsrt]\nx = [1, 2.0, {a = 1}]\n",
            ),
            format!("sandbox_mode = \"x\"\n{FRAGMENT}"),
            format!("{FRAGMENT}[[permissions.twsrt.list]]\na = 1\n"),
            "x = \n".to_string(),
            format!("{FRAGMENT}\"~/.ssh\" = \"read\"\n"),
            "permissions = 1\n".to_string(),
            "[permissions]\ntwsrt = { extends = \":workspace\" }\n".to_string(),
        ];
        let fragments = [
            FRAGMENT.to_string(),
            format!("allow_login_shell = inf\n{FRAGMENT}"),
            format!("{FRAGMENT}[permissions.twsrt.extra]\nwhen = 1979-05-27\n"),
        ];
        let path = Path::new("config.toml");
        let show = |r: Result<Drift>| match r {
            Ok(d) => format!("{:?}", d.differences),
            Err(e) => format!("error: {e}"),
        };
        for fragment in &fragments {
            // (A config.toml identical to the fragment is the renderer's
            // case: see `the_fragment_compares_equal_to_itself`.)
            for text in existing.iter().filter(|text| *text != fragment) {
                assert_eq!(
                    show(compare_config(text, fragment, path)),
                    show(compare_config_reporting(text, fragment, path)),
                    "{text:?} against {fragment:?}"
                );
            }
        }
    }
}
