//! Probes derived from the policy (the srt document the profile compiles
//! to): one per rule (two for a read-denied path behind a symlink), plus a
//! canary host outside the allowlist. The settings file srt reads is
//! compared with the policy first: a rule of the policy missing from it, an
//! entry in it that widens what the policy allows, and any other widening
//! change of it is a probe marked with its drift, a FAIL without a run (the
//! file no longer holds the policy, whatever a run would show). Deriving
//! creates nothing: the witness directories a write glob needs are named
//! here and created by the run (see `Derived`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::model::{Action, Expect, Probe, Section};
use super::witness;
use crate::drift::canonical::{SRT_SCHEMA, compare};
use crate::drift::{Difference, Direction, Side};
use crate::paths::expand_tilde;
use crate::srt::{domain, glob};

/// Where the probes run and what they can use there.
pub struct ProbeSite {
    /// Relative rules resolve against this directory, as srt resolves them.
    pub cwd: PathBuf,
    /// curl is on PATH (network probes need it).
    pub curl: bool,
    /// Names the probe files (`.twsrt-probe-PID`) and witness directories.
    pub tag: String,
}

impl ProbeSite {
    pub fn new(cwd: PathBuf, curl: bool) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        ProbeSite {
            cwd,
            curl,
            tag: format!("{}-{nanos:08x}", std::process::id()),
        }
    }

    /// A rule as srt resolves it: `~` expanded, relative to the working
    /// directory, a trailing slash dropped, `.` removed.
    pub fn absolute(&self, rule: &str) -> PathBuf {
        let trimmed = match rule.trim_end_matches('/') {
            "" if rule.starts_with('/') => "/",
            t => t,
        };
        let p = expand_tilde(trimmed);
        let p = if p.is_absolute() { p } else { self.cwd.join(p) };
        p.components().collect()
    }

    fn probe_file(&self, dir: &Path) -> PathBuf {
        dir.join(format!(".twsrt-probe-{}", std::process::id()))
    }
}

/// The probes, and the witness directories their files go in (created
/// before the first run, removed with everything in them after the last),
/// and the files planted for read-denied paths that do not exist
/// ([`super::plant`]).
pub struct Derived {
    pub probes: Vec<Probe>,
    pub witness_dirs: Vec<PathBuf>,
    pub plants: Vec<super::plant::Plant>,
}

pub fn list(settings: &Value, section: Section) -> Vec<String> {
    settings
        .get(section.object())
        .and_then(|s| s.get(section.name()))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// Every probe of the selected sections of `policy`, in report order, each
/// marked when `disk` (the file srt reads) lacks its rule; after each
/// section the entries `disk` adds to it that widen; the canary; last,
/// when every section is selected, the other widening changes of `disk`.
pub fn derive(policy: &Value, disk: &Value, ctx: &ProbeSite, sections: &[Section]) -> Derived {
    let mut out = Derived {
        probes: Vec::new(),
        witness_dirs: Vec::new(),
        plants: Vec::new(),
    };
    let drift = compare(policy, disk, SRT_SCHEMA);
    for section in Section::ALL {
        if !sections.contains(&section) {
            continue;
        }
        let lacking = entries(&drift, section, Side::Missing);
        for rule in list(policy, section) {
            let first = out.probes.len();
            derive_rule(ctx, policy, section, &rule, &mut out);
            if lacking.contains(&rule.as_str()) {
                for probe in &mut out.probes[first..] {
                    probe.drift = Some(Side::Missing);
                }
            }
        }
        for rule in entries(&drift, section, Side::Extra) {
            out.probes.push(extra(section, rule));
        }
        if section == Section::DenyRead {
            out.probes.extend(super::credentials::probes(ctx, policy));
        }
    }
    if sections.contains(&Section::AllowedDomains) {
        out.probes.push(canary(ctx, policy));
    }
    if sections.len() == Section::ALL.len() {
        out.probes
            .extend(drift.iter().filter(|d| other_widening(d)).map(setting));
    }
    out
}

/// The dotted place of a section's list in the settings.
fn place(section: Section) -> String {
    format!("{}.{}", section.object(), section.name())
}

/// The entries of `section` found on `side` only; extra ones only when
/// they widen (an extra deny holds more than the policy asks).
fn entries(drift: &[Difference], section: Section, side: Side) -> Vec<&str> {
    let place = place(section);
    drift
        .iter()
        .filter(|d| d.section == place && d.side == side)
        .filter(|d| side == Side::Missing || d.direction == Direction::Widening)
        .map(|d| d.entry.as_str())
        .collect()
}

/// An entry the settings file adds to a list and the policy does not have.
fn extra(section: Section, rule: &str) -> Probe {
    Probe {
        section,
        rule: rule.to_string(),
        expect: match section {
            Section::AllowWrite | Section::AllowedDomains => Expect::Allow,
            _ => Expect::Deny,
        },
        action: Err("not in the policy".into()),
        drift: Some(Side::Extra),
    }
}

/// A widening difference outside the probed lists.
fn other_widening(d: &Difference) -> bool {
    d.direction == Direction::Widening && !Section::ALL.iter().any(|s| d.section == place(*s))
}

/// A widening change of the file beyond the probed lists, as one row:
/// the key (dotted) and the value the file has or lacks.
fn setting(d: &Difference) -> Probe {
    Probe {
        section: Section::Settings,
        rule: match &d.policy {
            Some(policy) => format!("{}: {} instead of {policy}", d.section, d.entry),
            None => format!("{}: {}", d.section, d.entry),
        },
        expect: Expect::Deny,
        action: Err("not a rule to probe".into()),
        drift: Some(d.side),
    }
}

fn derive_rule(ctx: &ProbeSite, settings: &Value, section: Section, rule: &str, out: &mut Derived) {
    let expect = match section {
        Section::AllowWrite | Section::AllowedDomains => Expect::Allow,
        _ => Expect::Deny,
    };
    let probe = |rule: String, action: Result<Action, String>| Probe {
        section,
        rule,
        expect,
        action,
        drift: None,
    };
    if section.is_network() {
        out.probes
            .push(probe(rule.into(), domain_action(ctx, rule)));
        return;
    }
    if glob::has_glob_chars(rule) {
        let action = match section {
            Section::DenyWrite => witness(ctx, settings, rule, &mut out.witness_dirs),
            _ => Err("glob pattern: no concrete probe".into()),
        };
        out.probes.push(probe(rule.into(), action));
        return;
    }
    let path = ctx.absolute(rule);
    if !path.exists() {
        let action = super::plant::absent(section, rule, &path, &mut out.plants);
        out.probes.push(probe(rule.into(), action));
        return;
    }
    let action = match section {
        Section::DenyRead => read_action(&path),
        _ if path.is_dir() => Action::Create {
            file: ctx.probe_file(&path),
            dirs: Vec::new(),
        },
        _ => Action::Append(path.clone()),
    };
    let real = match &action {
        Action::Read(p) | Action::List(p) if section == Section::DenyRead => {
            std::fs::canonicalize(p).ok().filter(|r| r != p)
        }
        _ => None,
    };
    out.probes.push(probe(rule.into(), Ok(action.clone())));
    if let Some(real) = real {
        let twin = match action {
            Action::List(_) => Action::List(real),
            _ => Action::Read(real),
        };
        out.probes
            .push(probe(format!("{rule} (realpath)"), Ok(twin)));
    }
}

/// A file is read; a directory's first regular file is, else it is listed.
fn read_action(path: &Path) -> Action {
    if path.is_dir() {
        match witness::first_file(path) {
            Some(file) => Action::Read(file),
            None => Action::List(path.to_path_buf()),
        }
    } else {
        Action::Read(path.to_path_buf())
    }
}

/// Existing directories allowWrite names literally, in settings order.
fn writable_dirs(ctx: &ProbeSite, settings: &Value) -> Vec<PathBuf> {
    list(settings, Section::AllowWrite)
        .iter()
        .filter(|a| !a.is_empty() && !glob::has_glob_chars(a))
        .map(|a| ctx.absolute(a))
        .filter(|a| a.is_dir())
        .collect()
}

/// A witness file for a `**/TAIL` or `PREFIX/**/TAIL` write glob, in a
/// fresh `.twsrt-test-*` directory where the sandbox may write otherwise
/// (so only the glob can refuse it): under the first writable directory
/// (or the working directory) for `**/TAIL`; under PREFIX when a writable
/// directory holds it, else under a writable directory inside PREFIX.
fn witness(
    ctx: &ProbeSite,
    settings: &Value,
    rule: &str,
    witness_dirs: &mut Vec<PathBuf>,
) -> Result<Action, String> {
    let (prefix, tail) =
        witness::witness(rule).ok_or("pattern cannot be turned into a probe file")?;
    let writable = writable_dirs(ctx, settings);
    let root = match prefix {
        None => writable.first().cloned().unwrap_or_else(|| ctx.cwd.clone()),
        Some(prefix) => {
            let base = ctx.absolute(&prefix);
            let held = base.is_dir() && writable.iter().any(|w| base.starts_with(w));
            if held {
                base
            } else {
                writable
                    .iter()
                    .find(|w| w.starts_with(&base))
                    .cloned()
                    .ok_or_else(|| {
                        format!(
                            "no writable directory under {}: a blocked write proves nothing",
                            base.display()
                        )
                    })?
            }
        }
    };
    let dir = root.join(format!(".twsrt-test-{}", ctx.tag));
    if !witness_dirs.contains(&dir) {
        witness_dirs.push(dir.clone());
    }
    let mut dirs = Vec::new();
    let mut file = dir;
    for (i, segment) in tail.iter().enumerate() {
        file = file.join(segment);
        if i + 1 < tail.len() {
            dirs.push(file.clone());
        }
    }
    Ok(Action::Create { file, dirs })
}

fn url(host: &str, port: Option<u16>) -> String {
    let host = if host.contains(':') {
        format!("[{host}]")
    } else {
        host.to_string()
    };
    match port {
        Some(p) => format!("https://{host}:{p}/"),
        None => format!("https://{host}/"),
    }
}

fn domain_action(ctx: &ProbeSite, rule: &str) -> Result<Action, String> {
    let (pattern, port) = domain::split_port(rule);
    let action = if let Some(base) = pattern.strip_prefix("*.")
        && !base.contains('*')
    {
        Action::Connect(url(&format!("twsrt-probe.{base}"), port))
    } else if pattern.contains('*') {
        return Err("wildcard domain: no concrete host".into());
    } else {
        Action::Http(url(pattern, port))
    };
    if ctx.curl {
        Ok(action)
    } else {
        Err("curl not found on PATH".into())
    }
}

/// The allowlist must close behind its entries: the first of three
/// well-known hosts that no allowedDomains entry admits must be refused.
const CANARY_HOSTS: [&str; 3] = ["example.com", "example.org", "example.net"];

fn canary(ctx: &ProbeSite, settings: &Value) -> Probe {
    let allowed = list(settings, Section::AllowedDomains);
    let host = CANARY_HOSTS
        .iter()
        .find(|h| !allowed.iter().any(|a| domain::matches(h, 443, a)))
        .unwrap_or(&CANARY_HOSTS[2]);
    // With strictAllowlist, srt refuses it without asking anyone (the
    // same 403 offline: srt's CLI has no one to ask).
    let strict = if crate::srt::credentials::strict_allowlist(settings) {
        ", strictAllowlist"
    } else {
        ""
    };
    Probe {
        section: Section::AllowedDomains,
        rule: format!("{host} (not allowlisted{strict})"),
        expect: Expect::Deny,
        action: if ctx.curl {
            Ok(Action::Http(url(host, None)))
        } else {
            Err("curl not found on PATH".into())
        },
        drift: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::fs;

    fn settings(fs_: Value, net: Value) -> Value {
        json!({"filesystem": fs_, "network": net})
    }

    fn rows(derived: &Derived) -> Vec<String> {
        derived
            .probes
            .iter()
            .map(|p| match &p.action {
                Ok(a) => format!("{} {} | {}", p.kind(), p.rule, a.command()),
                Err(r) => format!("{} {} | SKIP {r}", p.kind(), p.rule),
            })
            .collect()
    }

    #[test]
    fn filesystem_rules_become_probes() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path().canonicalize().unwrap();
        fs::create_dir_all(r.join("vault/aws")).unwrap();
        fs::write(r.join("vault/aws/credentials"), "secret").unwrap();
        std::os::unix::fs::symlink(r.join("vault/aws"), r.join(".aws")).unwrap();
        fs::write(r.join("token"), "t").unwrap();
        fs::create_dir_all(r.join("work")).unwrap();
        fs::create_dir_all(r.join("empty")).unwrap();
        let v = settings(
            json!({
                "denyRead": ["./token", ".aws", "**/credentials", "missing", "empty"],
                "denyWrite": ["token", "**/.env", "/etc/*.conf", "work/**/*.pem",
                              "/nowhere/**/x"],
                "allowWrite": ["work/", "work/**/*.log"]
            }),
            json!({"allowedDomains": [], "deniedDomains": []}),
        );
        let ctx = ProbeSite::new(r.clone(), true);
        let sections = [Section::DenyRead, Section::DenyWrite, Section::AllowWrite];
        let derived = derive(&v, &v, &ctx, &sections);
        let (rd, pid, tag) = (r.display(), std::process::id(), &ctx.tag);
        let want = vec![
            format!("read-deny ./token | head -c 1 -- {rd}/token"),
            format!("read-deny .aws | head -c 1 -- {rd}/.aws/credentials"),
            format!("read-deny .aws (realpath) | head -c 1 -- {rd}/vault/aws/credentials"),
            "read-deny **/credentials | SKIP glob pattern: no concrete probe".into(),
            // Absent: a file is planted there for the run.
            format!("read-deny missing | head -c 1 -- {rd}/missing"),
            format!("read-deny empty | ls -- {rd}/empty"),
            format!("write-deny token | : >> {rd}/token"),
            format!("write-deny **/.env | : >> {rd}/work/.twsrt-test-{tag}/.env"),
            "write-deny /etc/*.conf | SKIP pattern cannot be turned into a probe file".into(),
            format!("write-deny work/**/*.pem | SKIP pattern cannot be turned into a probe file"),
            "write-deny /nowhere/**/x | SKIP no writable directory under /nowhere: a blocked \
             write proves nothing"
                .into(),
            format!("write-allow work/ | : >> {rd}/work/.twsrt-probe-{pid}"),
            "write-allow work/**/*.log | SKIP glob pattern: no concrete probe".into(),
        ];
        assert_eq!(rows(&derived), want);
        assert_eq!(
            derived.witness_dirs,
            vec![r.join(format!("work/.twsrt-test-{tag}"))]
        );
        let planted: Vec<&Path> = derived.plants.iter().map(|p| p.file.as_path()).collect();
        assert_eq!(planted, vec![r.join("missing")]);
    }

    #[test]
    fn absent_paths_are_probed_or_say_why_not() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path().canonicalize().unwrap();
        fs::write(r.join("file"), "").unwrap();
        let v = settings(
            json!({
                "denyRead": ["gone/deep", "gone/dir/", "file/under"],
                "denyWrite": ["new.cfg", "nodir/new.cfg"],
                "allowWrite": ["nope"]
            }),
            json!({"allowedDomains": [], "deniedDomains": []}),
        );
        let ctx = ProbeSite::new(r.clone(), true);
        let sections = [Section::DenyRead, Section::DenyWrite, Section::AllowWrite];
        let derived = derive(&v, &v, &ctx, &sections);
        let (rd, pid) = (r.display(), std::process::id());
        let got = rows(&derived);
        assert_eq!(
            got[0],
            format!("read-deny gone/deep | head -c 1 -- {rd}/gone/deep")
        );
        assert_eq!(
            got[1],
            format!("read-deny gone/dir/ | head -c 1 -- {rd}/gone/dir/.twsrt-probe-{pid}")
        );
        assert!(
            got[2].contains(&format!("SKIP {rd}/file/under does not exist and cannot")),
            "{}",
            got[2]
        );
        assert_eq!(got[3], format!("write-deny new.cfg | : >> {rd}/new.cfg"));
        assert_eq!(
            got[4],
            format!("write-deny nodir/new.cfg | : >> {rd}/nodir/new.cfg")
        );
        assert!(
            matches!(&derived.probes[4].action, Ok(Action::Create { dirs, .. }) if *dirs == vec![r.join("nodir")])
        );
        assert!(
            got[5].contains("srt ignores an allowWrite path that is absent"),
            "{}",
            got[5]
        );
        assert_eq!(derived.plants.len(), 2);
    }

    #[test]
    fn prefixed_globs_go_under_the_prefix_or_a_writable_dir_inside_it() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path().canonicalize().unwrap();
        fs::create_dir_all(r.join("a/w")).unwrap();
        fs::create_dir_all(r.join("b")).unwrap();
        let abs = |s: &str| format!("{}/{s}", r.display());
        let v = settings(
            json!({
                "denyRead": [],
                "denyWrite": [abs("**/k.pem"), abs("a/w/**/deep/n.txt"), "**/.git/hooks/**"],
                "allowWrite": [abs("b"), abs("a/w")]
            }),
            json!({"allowedDomains": [], "deniedDomains": []}),
        );
        let ctx = ProbeSite::new(r.clone(), true);
        let derived = derive(&v, &v, &ctx, &[Section::DenyWrite]);
        let tag = &ctx.tag;
        assert_eq!(
            rows(&derived),
            vec![
                format!(
                    "write-deny {} | : >> {}",
                    abs("**/k.pem"),
                    abs(&format!("b/.twsrt-test-{tag}/k.pem"))
                ),
                format!(
                    "write-deny {} | : >> {}",
                    abs("a/w/**/deep/n.txt"),
                    abs(&format!("a/w/.twsrt-test-{tag}/deep/n.txt"))
                ),
                format!(
                    "write-deny **/.git/hooks/** | : >> {}",
                    abs(&format!("b/.twsrt-test-{tag}/.git/hooks/probe"))
                ),
            ]
        );
    }

    #[test]
    fn domains_wildcards_and_the_canary() {
        let v = settings(
            json!({"denyRead": [], "denyWrite": [], "allowWrite": []}),
            json!({
                "allowedDomains": ["*.example.org", "example.com", "x.io:8443"],
                "deniedDomains": ["*", "evil.com"]
            }),
        );
        let ctx = ProbeSite::new(PathBuf::from("/"), true);
        let all = [Section::AllowedDomains, Section::DeniedDomains];
        let curl = "curl -sS -m 10 -o /dev/null";
        let head = "curl -sS -m 10 -o /dev/null -I -w '%{http_connect}'";
        assert_eq!(
            rows(&derive(&v, &v, &ctx, &all)),
            vec![
                format!(
                    "net-allow *.example.org | {curl} -w '%{{http_connect}}' \
                     https://twsrt-probe.example.org/"
                ),
                format!("net-allow example.com | {head} https://example.com/"),
                format!("net-allow x.io:8443 | {head} https://x.io:8443/"),
                "net-deny * | SKIP wildcard domain: no concrete host".into(),
                format!("net-deny evil.com | {head} https://evil.com/"),
                // example.com is allowlisted, and `*.example.org` admits
                // only subdomains.
                format!("net-deny example.org (not allowlisted) | {head} https://example.org/"),
            ]
        );
        let every = settings(
            json!({}),
            json!({"allowedDomains": ["example.com", "example.org", "example.net"]}),
        );
        let got = rows(&derive(&every, &every, &ctx, &[Section::AllowedDomains]));
        assert_eq!(
            got.last().map(String::as_str),
            Some(
                "net-deny example.net (not allowlisted) | curl -sS -m 10 -o /dev/null -I -w \
                 '%{http_connect}' https://example.net/"
            )
        );
        let no_curl = ProbeSite::new(PathBuf::from("/"), false);
        let got = rows(&derive(&v, &v, &no_curl, &[Section::DeniedDomains]));
        assert_eq!(got[1], "net-deny evil.com | SKIP curl not found on PATH");
    }

    fn marked(derived: &Derived) -> Vec<String> {
        derived
            .probes
            .iter()
            .map(|p| {
                let drift = p.drift.map_or("held", |d| d.name());
                format!("{} {} {drift} runs={}", p.kind(), p.rule, p.runs())
            })
            .collect()
    }

    #[test]
    fn the_policy_is_probed_and_what_the_file_lost_or_widens_is_marked() {
        let dir = tempfile::tempdir().unwrap();
        let r = dir.path().canonicalize().unwrap();
        fs::create_dir_all(r.join(".aws")).unwrap();
        fs::write(r.join(".aws/credentials"), "x").unwrap();
        fs::create_dir_all(r.join(".ssh")).unwrap();
        let policy = settings(
            json!({"denyRead": ["~/.aws", "~/.ssh"], "denyWrite": [], "allowWrite": []}),
            json!({"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"],
                   "allowLocalBinding": false}),
        );
        // The file srt reads lost `~/.aws` and evil.com, and gained an
        // allowed domain, an extra deny, a loosener and a misspelt key.
        let disk = settings(
            json!({"denyRead": ["~/.ssh", "~/.gnupg"], "denyWrite": [], "allowWrite": [],
                   "denyread": ["~/.aws"]}),
            json!({"allowedDomains": ["github.com", "pastebin.com"], "deniedDomains": [],
                   "allowLocalBinding": true}),
        );
        let abs = |v: Value| {
            let text = v.to_string().replace('~', &r.display().to_string());
            serde_json::from_str::<Value>(&text).unwrap()
        };
        let (policy, disk) = (abs(policy), abs(disk));
        let home = r.display().to_string();
        let ctx = ProbeSite::new(r.clone(), true);
        let got = marked(&derive(&policy, &disk, &ctx, &Section::ALL));
        assert_eq!(
            got,
            vec![
                format!("read-deny {home}/.aws missing runs=false"),
                format!("read-deny {home}/.ssh held runs=true"),
                "net-allow github.com held runs=true".into(),
                "net-allow pastebin.com extra runs=false".into(),
                "net-deny evil.com missing runs=false".into(),
                "net-deny example.com (not allowlisted) held runs=true".into(),
                format!("settings filesystem.denyread: {home}/.aws extra runs=false"),
                "settings network.allowLocalBinding: true instead of false extra runs=false".into(),
            ],
        );
        // A section flag keeps its own rows, and nothing else.
        let got = marked(&derive(&policy, &disk, &ctx, &[Section::DenyRead]));
        assert_eq!(
            got,
            vec![
                format!("read-deny {home}/.aws missing runs=false"),
                format!("read-deny {home}/.ssh held runs=true"),
            ]
        );
        // The same file as the policy: nothing is marked.
        let same = marked(&derive(&policy, &policy, &ctx, &Section::ALL));
        assert!(same.iter().all(|row| row.contains(" held ")), "{same:#?}");
    }
}
