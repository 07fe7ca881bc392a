//! From the runs of one probe (control and sandbox) to one verdict.
//!
//! - SKIP: the rule cannot be probed here (the reason says why).
//! - ERROR: a run timed out, could not start, srt could not build the
//!   sandbox (`sandbox_apply`, a `bwrap:` or srt `Error:` line), the probe
//!   command was missing inside it (126, 127), or srt's proxy gave no
//!   answer to a wildcard probe (`000`).
//! - INVALID: the control failed, so the probe proves nothing; except a
//!   deny probe whose control the OS itself refused (the access is refused
//!   either way): that is a PASS.
//! - FAIL: a deny probe succeeded in the sandbox, or an allow probe was
//!   blocked.
//! - PASS: otherwise.
//!
//! A write "succeeds" only when its file arrived on the host: a write that
//! landed in a throwaway tmpfs (srt mounts one over a read-denied
//! directory) did not reach the path the rule protects.

use super::probe::{Action, Expect, Probe};
use super::run::{Executed, Side, exit_text};

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

pub fn judge(probe: &Probe, executed: Option<&Executed>, timeout: &str) -> Verdict {
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
    if let Action::Connect(_) = action {
        return judge_connect(probe.expect, &ex.sandbox);
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
        _ => (ok, ""),
    }
}

/// A wildcard probe: only srt's proxy answer counts (`%{http_connect}`).
fn judge_connect(expect: Expect, sandbox: &Side) -> Verdict {
    let code = String::from_utf8_lossy(&sandbox.out.stdout)
        .trim()
        .to_string();
    if code.is_empty() || code == "000" {
        return verdict(
            Status::Error,
            format!(
                "no answer from srt's proxy (exit {})",
                exit_text(sandbox.out.exit)
            ),
        );
    }
    let blocked = code == "403";
    match (expect, blocked) {
        (Expect::Allow, true) => verdict(
            Status::Fail,
            format!("blocked but should be allowed: proxy answered {code}"),
        ),
        (Expect::Deny, false) => {
            verdict(Status::Fail, format!("not blocked: proxy answered {code}"))
        }
        _ => verdict(Status::Pass, format!("proxy answered {code}")),
    }
}

#[cfg(test)]
mod tests {
    use super::super::probe::Section;
    use super::super::run::Output;
    use super::*;
    use std::path::PathBuf;

    fn probe(action: Action, expect: Expect) -> Probe {
        Probe {
            section: Section::DenyRead,
            rule: "~/.ssh".into(),
            expect,
            action: Ok(action),
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
}
