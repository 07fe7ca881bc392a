//! Probes derived from the settings: one per effective rule (two for a
//! symlinked deny path), plus a canary host outside the allowlist.
//!
//! Rules come from the compiled policy first, then from rules that only the
//! settings file on disk holds; each is probed against the file on disk, so a
//! rule dropped from the file by hand is probed (and fails) all the same.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::domain;
use super::glob::{self, Walk};
use super::probe::{Action, Expect, Kind, Origin, Probe};
use super::run::is_dir;
use crate::paths::expand_tilde;

pub struct Ctx {
    /// Relative rules resolve against this directory, as srt resolves them.
    pub cwd: PathBuf,
    /// curl is on PATH (network probes need it).
    pub curl: bool,
    /// curl's --max-time for network probes.
    pub max_time: u64,
    counter: Cell<usize>,
}

impl Ctx {
    pub fn new(cwd: PathBuf, curl: bool, max_time: u64) -> Self {
        Ctx {
            cwd,
            curl,
            max_time,
            counter: Cell::new(0),
        }
    }

    /// A name no file has yet: `twsrt-probe-PID-N`.
    fn unique(&self) -> String {
        let n = self.counter.get() + 1;
        self.counter.set(n);
        format!("twsrt-probe-{}-{n}", std::process::id())
    }

    /// A rule as srt resolves it: `~` expanded, relative to the working
    /// directory, a trailing slash dropped (not for globs), `.` removed.
    pub fn absolute(&self, rule: &str) -> PathBuf {
        let trimmed = if glob::is_glob(rule) {
            rule
        } else {
            match rule.trim_end_matches('/') {
                "" => "/",
                t => t,
            }
        };
        let p = expand_tilde(trimmed);
        let p = if p.is_absolute() { p } else { self.cwd.join(p) };
        p.components().collect()
    }
}

pub fn list(settings: &Value, kind: Kind) -> Vec<String> {
    settings
        .get(kind.section())
        .and_then(|s| s.get(kind.name()))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_string)
        .collect()
}

/// Every probe for the selected kinds, in report order.
pub fn derive(policy: &Value, disk: &Value, ctx: &Ctx, kinds: &[Kind]) -> Vec<Probe> {
    let mut probes = Vec::new();
    for kind in Kind::ALL {
        if !kinds.contains(&kind) {
            continue;
        }
        let from_policy = list(policy, kind);
        let from_disk = list(disk, kind);
        for rule in &from_policy {
            let origin = if from_disk.contains(rule) {
                Origin::Both
            } else {
                Origin::PolicyOnly
            };
            probes.extend(derive_rule(ctx, kind, rule, origin, policy));
        }
        for rule in from_disk {
            if !from_policy.contains(&rule) {
                probes.extend(derive_rule(ctx, kind, &rule, Origin::FileOnly, disk));
            }
        }
        if kind == Kind::AllowedDomains {
            probes.push(canary(ctx, &[policy, disk]));
        }
    }
    probes
}

fn expect_of(kind: Kind) -> Expect {
    match kind {
        Kind::AllowWrite | Kind::AllowedDomains => Expect::Allowed,
        _ => Expect::Blocked,
    }
}

fn derive_rule(ctx: &Ctx, kind: Kind, rule: &str, origin: Origin, view: &Value) -> Vec<Probe> {
    let probe = |note: Option<&str>, action: Result<Action, String>| Probe {
        kind,
        rule: rule.to_string(),
        origin,
        note: note.map(str::to_string),
        expect: expect_of(kind),
        action,
    };
    match kind {
        Kind::AllowedDomains | Kind::DeniedDomains => {
            vec![probe(None, domain_action(ctx, kind, rule, view))]
        }
        _ if rule.is_empty() => vec![probe(None, Err("an empty path".into()))],
        _ if glob::is_glob(rule) => {
            let pattern = ctx.absolute(rule);
            let action = match kind {
                Kind::DenyRead => read_glob(&pattern),
                Kind::DenyWrite => plant(ctx, &pattern, view),
                _ => Err(
                    "an allowWrite glob: probing it would need a file in a place the \
                          sandbox may not write otherwise, which twsrt does not create"
                        .into(),
                ),
            };
            vec![probe(None, action)]
        }
        _ => {
            let path = ctx.absolute(rule);
            if kind == Kind::AllowWrite
                && let Some(deny) = covering_deny_write(ctx, view, &path)
            {
                return vec![probe(
                    None,
                    Err(format!("inside denyWrite {deny:?}, and the deny wins")),
                )];
            }
            match std::fs::symlink_metadata(&path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    return vec![probe(
                        None,
                        Err(format!(
                            "{} does not exist here (twsrt creates nothing in your tree to \
                             test it)",
                            path.display()
                        )),
                    )];
                }
                Err(e) => {
                    return vec![probe(
                        None,
                        Err(format!("{} cannot be inspected: {e}", path.display())),
                    )];
                }
                Ok(_) => {}
            }
            let mut out = vec![probe(None, path_action(ctx, kind, &path))];
            if kind != Kind::AllowWrite
                && let Ok(real) = std::fs::canonicalize(&path)
                && real != path
            {
                out.push(probe(Some("real path"), path_action(ctx, kind, &real)));
            }
            out
        }
    }
}

fn non_empty_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() > 0)
}

fn path_action(ctx: &Ctx, kind: Kind, path: &Path) -> Result<Action, String> {
    let meta = std::fs::metadata(path)
        .map_err(|e| format!("{} cannot be followed: {e}", path.display()))?;
    match kind {
        Kind::DenyRead if meta.is_file() => Ok(Action::Read(path.to_path_buf())),
        Kind::DenyRead if meta.is_dir() => match glob::first_file_under(path, &non_empty_file) {
            Walk::Found(file) => Ok(Action::Read(file)),
            Walk::None => Err(format!(
                "no non-empty regular file under {} to read",
                path.display()
            )),
            Walk::GaveUp => Err(format!(
                "no non-empty regular file found early enough under {}",
                path.display()
            )),
        },
        _ if meta.is_file() => Ok(Action::Append(path.to_path_buf())),
        _ if meta.is_dir() => Ok(Action::Create(path.join(ctx.unique()))),
        _ => Err(format!(
            "{} is not a regular file or directory",
            path.display()
        )),
    }
}

fn read_glob(pattern: &Path) -> Result<Action, String> {
    match glob::first_match(pattern, &non_empty_file) {
        Walk::Found(file) => Ok(Action::Read(file)),
        Walk::None => Err("no non-empty file matches the glob here".into()),
        Walk::GaveUp => Err("no matching file found early enough (the walk gave up)".into()),
    }
}

/// Literal denyWrite rules (resolved) that cover `path`.
fn covering_deny_write(ctx: &Ctx, view: &Value, path: &Path) -> Option<String> {
    list(view, Kind::DenyWrite)
        .into_iter()
        .filter(|d| !d.is_empty() && !glob::is_glob(d))
        .find(|d| path.starts_with(ctx.absolute(d)))
}

/// A probe file for a `PREFIX/**/NAME` denyWrite glob, planted in a fresh
/// directory inside a place that allowWrite opens (so only the glob can
/// refuse the write).
fn plant(ctx: &Ctx, pattern: &Path, view: &Value) -> Result<Action, String> {
    let (base, name) = glob::plantable(pattern).ok_or_else(|| {
        "only **/NAME and PREFIX/**/NAME write globs can be probed (by planting a file that \
         matches)"
            .to_string()
    })?;
    let writable: Vec<PathBuf> = list(view, Kind::AllowWrite)
        .iter()
        .filter(|a| !a.is_empty() && !glob::is_glob(a))
        .map(|a| ctx.absolute(a))
        .filter(|a| is_dir(a) && covering_deny_write(ctx, view, a).is_none())
        .collect();
    let place = if is_dir(&base) && writable.iter().any(|a| base.starts_with(a)) {
        Some(base.clone())
    } else {
        writable.iter().find(|a| a.starts_with(&base)).cloned()
    };
    let place = place.ok_or_else(|| {
        format!(
            "no directory under {} that allowWrite opens, to plant a probe file in",
            base.display()
        )
    })?;
    let dir = place.join(ctx.unique());
    let file = dir.join(name);
    Ok(Action::Plant { dir, file })
}

fn domain_action(ctx: &Ctx, kind: Kind, rule: &str, view: &Value) -> Result<Action, String> {
    if !ctx.curl {
        return Err("curl not found on PATH".into());
    }
    let (pattern, port) = domain::split_port(rule);
    let host = if pattern == "*" {
        // Deny-all: the first allowed name shows the deny wins over it.
        list(view, Kind::AllowedDomains)
            .iter()
            .map(|a| domain::split_port(a).0.to_string())
            .find(|h| !h.starts_with("*.") && !domain::bypasses_proxy(h))
            .unwrap_or_else(|| "twsrt-probe.invalid".into())
    } else if let Some(base) = pattern.strip_prefix("*.") {
        format!("twsrt-probe.{base}")
    } else {
        pattern.to_string()
    };
    if domain::bypasses_proxy(&host) {
        return Err(
            "an IP address or localhost: curl reaches it around srt's proxy \
                    (NO_PROXY), so no proxy verdict can be read"
                .into(),
        );
    }
    if kind == Kind::AllowedDomains
        && let Some(deny) = list(view, Kind::DeniedDomains)
            .into_iter()
            .find(|d| domain::matches(&host, port.unwrap_or(443), d))
    {
        return Err(format!(
            "deniedDomains {deny:?} covers {host} too, and the deny wins"
        ));
    }
    let url = match port {
        Some(p) => format!("https://{host}:{p}/"),
        None => format!("https://{host}/"),
    };
    Ok(Action::Http {
        url,
        max_time: ctx.max_time,
    })
}

/// A made-up host that no allowedDomains entry (in the policy or on disk)
/// matches: the allowlist must close behind its entries.
///
/// An exact entry takes at most one candidate name, so `allowed.len() + 1`
/// candidates are enough unless an entry admits them all (`*`, which srt
/// refuses in allowedDomains but a policy may still hold while the file on
/// disk is older): then there is no host to probe and the canary is a SKIP.
fn canary(ctx: &Ctx, views: &[&Value]) -> Probe {
    let allowed: Vec<String> = views
        .iter()
        .flat_map(|v| list(v, Kind::AllowedDomains))
        .collect();
    let host = (0..=allowed.len())
        .map(|i| match i {
            0 => "twsrt-canary.invalid".to_string(),
            i => format!("twsrt-canary-{i}.invalid"),
        })
        .find(|h| !allowed.iter().any(|p| domain::matches(h, 443, p)));
    let action = match host {
        None => Err(
            "allowedDomains admits every made-up host, so no host outside the \
                     allowlist is left to probe"
                .into(),
        ),
        Some(_) if !ctx.curl => Err("curl not found on PATH".into()),
        Some(host) => Ok(Action::Http {
            url: format!("https://{host}/"),
            max_time: ctx.max_time,
        }),
    };
    Probe {
        kind: Kind::AllowedDomains,
        rule: "(canary)".into(),
        origin: Origin::Both,
        note: None,
        expect: Expect::Blocked,
        action,
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

    fn actions(probes: &[Probe]) -> Vec<String> {
        probes
            .iter()
            .map(|p| match &p.action {
                Ok(a) => format!("{} {} {}", p.kind.name(), p.label(), a.command()),
                Err(r) => format!("{} {} SKIP {r}", p.kind.name(), p.label()),
            })
            .collect()
    }

    #[test]
    fn paths_directories_symlinks_and_globs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        fs::create_dir_all(root.join("vault/aws")).unwrap();
        fs::write(root.join("vault/aws/credentials"), "secret").unwrap();
        std::os::unix::fs::symlink(root.join("vault/aws"), root.join(".aws")).unwrap();
        fs::write(root.join("token"), "t").unwrap();
        fs::create_dir_all(root.join("work")).unwrap();
        let v = settings(
            json!({
                "denyRead": ["~/nope", "./token", ".aws", "**/credentials"],
                "denyWrite": ["token", "**/.env", "/etc/*.conf"],
                "allowWrite": ["work/", "work/**/*.log"]
            }),
            json!({"allowedDomains": [], "deniedDomains": []}),
        );
        let ctx = Ctx::new(root.clone(), true, 5);
        let kinds = [Kind::DenyRead, Kind::DenyWrite, Kind::AllowWrite];
        let got = actions(&derive(&v, &v, &ctx, &kinds));
        let r = root.display().to_string();
        let pid = std::process::id();
        let home = crate::paths::home_dir();
        let want = vec![
            format!(
                "denyRead ~/nope SKIP {}/nope does not exist here (twsrt creates nothing in \
                 your tree to test it)",
                home.display()
            ),
            format!("denyRead ./token head -c1 -- {r}/token"),
            format!("denyRead .aws head -c1 -- {r}/.aws/credentials"),
            format!("denyRead .aws [real path] head -c1 -- {r}/vault/aws/credentials"),
            format!("denyRead **/credentials head -c1 -- {r}/vault/aws/credentials"),
            format!("denyWrite token test -f {r}/token && : >> {r}/token"),
            format!(
                "denyWrite **/.env test -f {r}/work/twsrt-probe-{pid}-1/.env && : >> \
                 {r}/work/twsrt-probe-{pid}-1/.env"
            ),
            "denyWrite /etc/*.conf SKIP only **/NAME and PREFIX/**/NAME write globs can be \
             probed (by planting a file that matches)"
                .to_string(),
            format!("allowWrite work/ set -C && : > {r}/work/twsrt-probe-{pid}-2"),
            "allowWrite work/**/*.log SKIP an allowWrite glob: probing it would need a file \
             in a place the sandbox may not write otherwise, which twsrt does not create"
                .to_string(),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn allow_write_inside_a_deny_write_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().to_path_buf();
        fs::create_dir_all(root.join("a/b")).unwrap();
        let v = settings(
            json!({"denyRead": [], "denyWrite": ["a"], "allowWrite": ["a/b"]}),
            json!({"allowedDomains": [], "deniedDomains": []}),
        );
        let ctx = Ctx::new(root, true, 5);
        let got = actions(&derive(&v, &v, &ctx, &[Kind::AllowWrite]));
        assert_eq!(
            got,
            vec!["allowWrite a/b SKIP inside denyWrite \"a\", and the deny wins"]
        );
    }

    #[test]
    fn domains_wildcards_ports_shadowing_and_canary() {
        let policy = settings(
            json!({"denyRead": [], "denyWrite": [], "allowWrite": []}),
            json!({
                "allowedDomains": ["github.com", "*.example.org", "api.x.io:8443",
                                   "bad.example.org", "localhost", "twsrt-canary.invalid"],
                "deniedDomains": ["evil.com", "*.bad.example.org", "bad.example.org"]
            }),
        );
        let mut disk = policy.clone();
        disk["network"]["allowedDomains"] = json!(["github.com", "hand.added.io"]);
        let ctx = Ctx::new(PathBuf::from("/"), true, 5);
        let got = actions(&derive(
            &policy,
            &disk,
            &ctx,
            &[Kind::AllowedDomains, Kind::DeniedDomains],
        ));
        let curl = "curl -sS -o /dev/null -D - --max-time 5";
        let m = "[missing from the file]";
        assert_eq!(
            got,
            vec![
                format!("allowedDomains github.com {curl} https://github.com/"),
                format!("allowedDomains *.example.org {m} {curl} https://twsrt-probe.example.org/"),
                format!("allowedDomains api.x.io:8443 {m} {curl} https://api.x.io:8443/"),
                format!(
                    "allowedDomains bad.example.org {m} SKIP deniedDomains \"bad.example.org\" \
                     covers bad.example.org too, and the deny wins"
                ),
                format!(
                    "allowedDomains localhost {m} SKIP an IP address or localhost: curl reaches \
                     it around srt's proxy (NO_PROXY), so no proxy verdict can be read"
                ),
                format!(
                    "allowedDomains twsrt-canary.invalid {m} {curl} https://twsrt-canary.invalid/"
                ),
                format!(
                    "allowedDomains hand.added.io [only in the file] {curl} https://hand.added.io/"
                ),
                format!("allowedDomains (canary) {curl} https://twsrt-canary-1.invalid/"),
                format!("deniedDomains evil.com {curl} https://evil.com/"),
                format!(
                    "deniedDomains *.bad.example.org {curl} https://twsrt-probe.bad.example.org/"
                ),
                format!("deniedDomains bad.example.org {curl} https://bad.example.org/"),
            ]
        );
        let deny_all = settings(
            json!({}),
            json!({"allowedDomains": ["*.a.io", "b.io"], "deniedDomains": ["*"]}),
        );
        let got = actions(&derive(&deny_all, &deny_all, &ctx, &[Kind::DeniedDomains]));
        assert_eq!(got, vec![format!("deniedDomains * {curl} https://b.io/")]);
        let no_curl = Ctx::new(PathBuf::from("/"), false, 5);
        let got = actions(&derive(
            &deny_all,
            &deny_all,
            &no_curl,
            &[Kind::DeniedDomains],
        ));
        assert_eq!(got, vec!["deniedDomains * SKIP curl not found on PATH"]);
    }

    #[test]
    fn a_canary_every_name_of_which_is_allowed_is_a_skip_not_a_hang() {
        let open = settings(json!({}), json!({"allowedDomains": ["*"]}));
        let ctx = Ctx::new(PathBuf::from("/"), true, 5);
        let got = actions(&derive(&open, &open, &ctx, &[Kind::AllowedDomains]));
        assert_eq!(
            got.last().map(String::as_str),
            Some(
                "allowedDomains (canary) SKIP allowedDomains admits every made-up host, so no \
                 host outside the allowlist is left to probe"
            )
        );
    }
}
