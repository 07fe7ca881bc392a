//! From the runs of one probe (control and sandbox) to one verdict.
//!
//! - FAIL, without a run: the settings file srt reads lacks the policy's
//!   rule, or holds an entry or a change that widens the policy.
//! - SKIP: the rule cannot be probed here (the reason says why).
//! - ERROR: a run timed out, could not start, srt could not build the
//!   sandbox (`sandbox_apply`, a `bwrap:` or srt `Error:` line), the probe
//!   command was missing inside it (126, 127), or srt's proxy gave no
//!   answer to a network probe (`000`) and curl failed.
//! - INVALID: no verdict is possible: a filesystem probe's control failed
//!   (except a deny probe whose control the OS itself refused: the access
//!   is refused either way, a PASS), or srt's proxy answered a network
//!   probe with a code that neither refuses nor lets through.
//! - FAIL: a deny probe succeeded in the sandbox, or an allow probe was
//!   blocked.
//! - PASS: otherwise.
//!
//! A network probe is judged by srt's proxy alone, so it works offline:
//! 403 is the proxy refusing (srt 0.0.78-0.0.83 add `X-Proxy-Error:
//! blocked-by-allowlist`); a 2xx is the tunnel opened, a 502 or 504 the
//! proxy trying the upstream and failing, both the request let through
//! (doc/clients.md, "srt's proxy answers").
//!
//! A write "succeeds" only when its file arrived on the host: a write that
//! landed in a throwaway tmpfs (srt mounts one over a read-denied
//! directory) did not reach the path the rule protects.

use super::model::{Action, Expect, Probe, Section};
use super::run::{Executed, Side, exit_text};
use crate::drift;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Invalid,
    Error,
    Skip,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Invalid => "INVALID",
            Status::Error => "ERROR",
            Status::Skip => "SKIP",
        }
    }

    /// Counts against exit 0.
    pub fn is_bad(self) -> bool {
        matches!(self, Status::Fail | Status::Invalid | Status::Error)
    }
}

#[derive(Debug, Clone)]
pub struct Verdict {
    pub status: Status,
    pub reason: String,
}

fn verdict(status: Status, reason: impl Into<String>) -> Verdict {
    Verdict {
        status,
        reason: reason.into(),
    }
}

/// Seconds as Python prints a float (`30.0`, `0.5`).
pub fn seconds(secs: f64) -> String {
    if secs.fract() == 0.0 && secs.abs() < 1e16 {
        format!("{secs:.1}")
    } else {
        format!("{secs}")
    }
}

fn os_refused(stderr: &str) -> bool {
    [
        "Permission denied",
        "Read-only file system",
        "Operation not permitted",
    ]
    .iter()
    .any(|s| stderr.contains(s))
}

/// Why a run proves nothing about the rule, if it does not.
fn broken(side: &Side, in_sandbox: bool, timeout: &str) -> Option<String> {
    if let Some(detail) = &side.broken {
        return Some(detail.clone());
    }
    let out = &side.out;
    if out.timed_out {
        return Some(format!("timed out after {timeout}s"));
    }
    if !in_sandbox {
        return None;
    }
    if out.stderr.contains("sandbox_apply") {
        return Some("srt could not apply the sandbox (sandbox_apply)".into());
    }
    if let Some(line) = out
        .stderr
        .lines()
        .find(|l| l.starts_with("bwrap:") || l.starts_with("Error:"))
    {
        return Some(format!("srt could not set up the sandbox: {}", line.trim()));
    }
    match out.exit {
        None => Some("the sandboxed command was killed by a signal".into()),
        Some(code @ (126 | 127)) => Some(format!(
            "the probe command could not run in the sandbox (exit {code})"
        )),
        _ => None,
    }
}

/// Why a probe whose rule drifted fails.
fn drifted(probe: &Probe, side: drift::Side) -> Verdict {
    let reason = match (side, probe.section) {
        (drift::Side::Missing, Section::Settings) => {
            "the settings file lacks this value of the policy, which widens"
        }
        (drift::Side::Missing, _) => {
            "missing from the settings file: srt does not enforce this rule of the policy"
        }
        (drift::Side::Extra, Section::Settings) => {
            "in the settings file, not in the policy: it widens"
        }
        (drift::Side::Extra, _) => {
            "in the settings file, not in the policy: it widens what srt allows"
        }
    };
    verdict(Status::Fail, reason)
}

pub fn judge(probe: &Probe, executed: Option<&Executed>, timeout: &str) -> Verdict {
    if let Some(side) = probe.drift {
        return drifted(probe, side);
    }
    let action = match &probe.action {
        Err(reason) => return verdict(Status::Skip, reason.clone()),
        Ok(action) => action,
    };
    let Some(ex) = executed else {
        return verdict(Status::Error, "the probe did not run");
    };
    let control_broken = ex.control.as_ref().and_then(|c| broken(c, false, timeout));
    if let Some(reason) = control_broken.or_else(|| broken(&ex.sandbox, true, timeout)) {
        return verdict(Status::Error, reason);
    }
    if action.is_network() {
        return judge_proxy(probe.expect, &ex.sandbox);
    }
    let deny = probe.expect == Expect::Deny;
    if let Some(control) = &ex.control
        && control.out.exit != Some(0)
    {
        if deny && os_refused(&control.out.stderr) {
            return verdict(Status::Pass, "refused by the OS even without the sandbox");
        }
        return verdict(
            Status::Invalid,
            format!(
                "probe fails even without sandbox (exit {})",
                exit_text(control.out.exit)
            ),
        );
    }
    let sandbox = &ex.sandbox;
    let listing = ex.control.as_ref().map(|c| c.out.stdout.as_slice());
    let (succeeded, why) = succeeded(action, sandbox, listing);
    match (deny, succeeded) {
        (true, true) => verdict(
            Status::Fail,
            "not blocked: command succeeded inside the sandbox",
        ),
        (true, false) => verdict(Status::Pass, why),
        (false, true) => verdict(Status::Pass, ""),
        (false, false) if why.is_empty() => verdict(
            Status::Fail,
            format!(
                "blocked but should be allowed (exit {})",
                exit_text(sandbox.out.exit)
            ),
        ),
        (false, false) => verdict(
            Status::Fail,
            format!("blocked but should be allowed: {why}"),
        ),
    }
}

/// Whether the access happened in the sandbox; when it did not although the
/// command exited 0, the second value says why.
fn succeeded(action: &Action, sandbox: &Side, listing: Option<&[u8]>) -> (bool, &'static str) {
    let ok = sandbox.out.exit == Some(0);
    match action {
        Action::Create { .. } if ok && sandbox.effect == Some(false) => (
            false,
            "the write went to a throwaway copy (tmpfs), never to the host",
        ),
        Action::List(_) if ok && listing.is_some_and(|l| l != sandbox.out.stdout) => (
            false,
            "the listing inside the sandbox hides the directory's entries",
        ),
        // A masked credential is seen, but not its real value.
        Action::Env { masked: true, .. } | Action::Content(_)
            if ok && listing.is_some_and(|l| l != sandbox.out.stdout) =>
        {
            (false, "the sandbox sees a stand-in value, not the real one")
        }
        _ => (ok, ""),
    }
}

/// What srt's proxy did with the request.
enum Proxy {
    Refused,
    LetThrough,
    /// An answer that says neither.
    Unclear,
}

/// The proxy's answer to the CONNECT, as curl prints `%{http_connect}`.
fn proxy_answer(code: &str) -> Proxy {
    match code {
        "403" => Proxy::Refused,
        "502" | "504" => Proxy::LetThrough,
        c if c.len() == 3 && c.starts_with('2') => Proxy::LetThrough,
        _ => Proxy::Unclear,
    }
}

/// A network probe: only srt's proxy answer counts. No answer at all
/// (`000`) is an ERROR unless curl succeeded, which means the request
/// reached its host without the proxy.
fn judge_proxy(expect: Expect, sandbox: &Side) -> Verdict {
    let code = String::from_utf8_lossy(&sandbox.out.stdout)
        .trim()
        .to_string();
    let exit = exit_text(sandbox.out.exit);
    if code.is_empty() || code == "000" {
        if sandbox.out.exit != Some(0) {
            return verdict(
                Status::Error,
                format!("no answer from srt's proxy (exit {exit})"),
            );
        }
        return match expect {
            Expect::Deny => verdict(
                Status::Fail,
                "not blocked: the request succeeded without srt's proxy",
            ),
            Expect::Allow => verdict(Status::Pass, "the request succeeded without srt's proxy"),
        };
    }
    match (expect, proxy_answer(&code)) {
        (Expect::Allow, Proxy::Refused) => verdict(
            Status::Fail,
            format!("blocked but should be allowed: proxy answered {code}"),
        ),
        (Expect::Deny, Proxy::LetThrough) => {
            verdict(Status::Fail, format!("not blocked: proxy answered {code}"))
        }
        (_, Proxy::Unclear) => verdict(
            Status::Invalid,
            format!("proxy answered {code}: neither a refusal (403) nor a request let through"),
        ),
        _ => verdict(Status::Pass, format!("proxy answered {code}")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::run::Output;
    use super::*;
    use std::path::PathBuf;

    fn probe(action: Action, expect: Expect) -> Probe {
        Probe {
            section: Section::DenyRead,
            rule: "~/.ssh".into(),
            expect,
            action: Ok(action),
            drift: None,
        }
    }

    fn side(exit: i32, stdout: &[u8], stderr: &str) -> Side {
        Side {
            out: Output {
                exit: Some(exit),
                stdout: stdout.to_vec(),
                stderr: stderr.into(),
                ..Output::default()
            },
            ..Side::default()
        }
    }

    fn judged(p: &Probe, control: Option<Side>, sandbox: Side) -> (Status, String) {
        let v = judge(p, Some(&Executed { control, sandbox }), "30.0");
        (v.status, v.reason)
    }

    fn status(p: &Probe, control: Side, sandbox: Side) -> Status {
        judged(p, Some(control), sandbox).0
    }

    #[test]
    fn deny_verdicts() {
        let p = probe(Action::Read(PathBuf::from("/s")), Expect::Deny);
        let missing = "head: cannot open '/s' for reading: No such file or directory";
        assert_eq!(
            judged(&p, Some(side(0, b"S", "")), side(1, b"", missing)),
            (Status::Pass, String::new())
        );
        assert_eq!(
            judged(&p, Some(side(0, b"S", "")), side(0, b"S", "")),
            (
                Status::Fail,
                "not blocked: command succeeded inside the sandbox".into()
            )
        );
        // The OS refuses the control: not INVALID for a deny.
        let denied = "head: cannot open '/s' for reading: Permission denied";
        assert_eq!(
            status(&p, side(1, b"", denied), side(1, b"", denied)),
            Status::Pass
        );
        assert_eq!(
            judged(&p, Some(side(1, b"", missing)), side(1, b"", missing)),
            (
                Status::Invalid,
                "probe fails even without sandbox (exit 1)".into()
            )
        );
    }

    #[test]
    fn errors_come_first() {
        let p = probe(Action::Read(PathBuf::from("/s")), Expect::Deny);
        let mut timed = side(0, b"", "");
        timed.out.timed_out = true;
        timed.out.exit = None;
        assert_eq!(
            judged(&p, Some(side(0, b"S", "")), timed),
            (Status::Error, "timed out after 30.0s".into())
        );
        for stderr in [
            "bwrap: Can't find source path /w/.gitconfig: No such file or directory",
            "Error: Sandbox dependencies are missing",
            "... sandbox_apply: Operation not permitted",
        ] {
            assert_eq!(
                status(&p, side(0, b"S", ""), side(1, b"", stderr)),
                Status::Error,
                "{stderr}"
            );
        }
        assert_eq!(
            status(&p, side(0, b"S", ""), side(127, b"", "")),
            Status::Error
        );
        assert_eq!(seconds(0.01), "0.01");
        assert_eq!(seconds(30.0), "30.0");
    }

    #[test]
    fn allow_verdicts() {
        let p = probe(Action::Append(PathBuf::from("/w/f")), Expect::Allow);
        assert_eq!(status(&p, side(0, b"", ""), side(0, b"", "")), Status::Pass);
        let rofs = "sh: 1: cannot create /w/f: Read-only file system";
        assert_eq!(
            judged(&p, Some(side(0, b"", "")), side(1, b"", rofs)),
            (
                Status::Fail,
                "blocked but should be allowed (exit 1)".into()
            )
        );
        // An allow probe the OS refuses proves nothing.
        assert_eq!(
            status(&p, side(2, b"", rofs), side(2, b"", rofs)),
            Status::Invalid
        );
    }

    #[test]
    fn a_write_must_reach_the_host() {
        let create = Action::Create {
            file: PathBuf::from("/d/.twsrt-probe-1"),
            dirs: vec![],
        };
        let mut arrived = side(0, b"", "");
        arrived.effect = Some(true);
        let mut tmpfs = side(0, b"", "");
        tmpfs.effect = Some(false);
        let deny = probe(create.clone(), Expect::Deny);
        assert_eq!(status(&deny, arrived.clone(), tmpfs.clone()), Status::Pass);
        assert_eq!(
            status(&deny, arrived.clone(), arrived.clone()),
            Status::Fail
        );
        let allow = probe(create, Expect::Allow);
        assert_eq!(
            status(&allow, arrived.clone(), arrived.clone()),
            Status::Pass
        );
        assert_eq!(status(&allow, arrived, tmpfs), Status::Fail);
    }

    #[test]
    fn a_listing_that_hides_entries_is_blocked() {
        let p = probe(Action::List(PathBuf::from("/d")), Expect::Deny);
        assert_eq!(
            status(&p, side(0, b"sub\n", ""), side(0, b"", "")),
            Status::Pass
        );
        assert_eq!(
            status(&p, side(0, b"sub\n", ""), side(0, b"sub\n", "")),
            Status::Fail
        );
    }

    #[test]
    fn wildcard_probes_read_the_proxy_answer() {
        let connect = Action::Connect("https://twsrt-probe.x.io/".into());
        let allow = probe(connect.clone(), Expect::Allow);
        let deny = probe(connect, Expect::Deny);
        let answer = |code: &[u8]| side(56, code, "curl: (56) CONNECT tunnel failed");
        assert_eq!(
            judged(&allow, None, answer(b"502")),
            (Status::Pass, "proxy answered 502".into())
        );
        assert_eq!(
            judged(&allow, None, answer(b"403")),
            (
                Status::Fail,
                "blocked but should be allowed: proxy answered 403".into()
            )
        );
        assert_eq!(
            judged(&deny, None, answer(b"403")),
            (Status::Pass, "proxy answered 403".into())
        );
        assert_eq!(judged(&deny, None, answer(b"502")).0, Status::Fail);
        assert_eq!(judged(&deny, None, answer(b"000")).0, Status::Error);
    }

    #[test]
    fn concrete_hosts_are_judged_by_the_proxy_without_a_control() {
        let http = Action::Http("https://github.com/".into());
        let allow = probe(http.clone(), Expect::Allow);
        let deny = probe(http, Expect::Deny);
        let answer = |code: &[u8]| side(56, code, "curl: (56) CONNECT tunnel failed");
        // Offline (measured with srt 0.0.78 and 0.0.83): 502 for an
        // allowed host, 403 for a denied one.
        assert_eq!(
            judged(&allow, None, answer(b"502")),
            (Status::Pass, "proxy answered 502".into())
        );
        assert_eq!(
            judged(&deny, None, answer(b"403")),
            (Status::Pass, "proxy answered 403".into())
        );
        assert_eq!(
            judged(&deny, None, answer(b"502")),
            (Status::Fail, "not blocked: proxy answered 502".into())
        );
        // Online: the tunnel opens.
        assert_eq!(judged(&allow, None, side(0, b"200", "")).0, Status::Pass);
        assert_eq!(judged(&deny, None, side(0, b"200", "")).0, Status::Fail);
        // An answer that says neither.
        assert_eq!(
            judged(&deny, None, answer(b"407")),
            (
                Status::Invalid,
                "proxy answered 407: neither a refusal (403) nor a request let through".into()
            )
        );
        // No proxy in the way and curl succeeded: the host was reached.
        assert_eq!(judged(&deny, None, side(0, b"000", "")).0, Status::Fail);
        assert_eq!(
            judged(&allow, None, side(7, b"000", "")),
            (Status::Error, "no answer from srt's proxy (exit 7)".into())
        );
    }

    #[test]
    fn a_drifted_rule_fails_without_a_run() {
        let mut lost = probe(Action::Read(PathBuf::from("/s")), Expect::Deny);
        lost.drift = Some(drift::Side::Missing);
        let v = judge(&lost, None, "30.0");
        assert_eq!(
            (v.status, v.reason.as_str()),
            (
                Status::Fail,
                "missing from the settings file: srt does not enforce this rule of the policy"
            )
        );
        let mut added = probe(Action::Http("https://x.io/".into()), Expect::Allow);
        added.section = Section::AllowedDomains;
        added.drift = Some(drift::Side::Extra);
        let v = judge(&added, None, "30.0");
        assert_eq!(v.status, Status::Fail);
        assert!(v.reason.contains("not in the policy"), "{}", v.reason);
    }
}
