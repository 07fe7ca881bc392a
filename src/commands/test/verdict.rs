//! From two runs (control and sandbox) to one verdict.
//!
//! - PASS: the sandbox did what the rule says.
//! - FAIL: a deny probe succeeded in the sandbox, or an allow probe was blocked.
//! - INVALID: the control failed, so the probe proves nothing (a control the
//!   OS itself refused does not count against a deny: the access is refused
//!   either way).
//! - ERROR: a timeout, srt could not set up the sandbox, no proxy answer.
//! - SKIP: the rule cannot be probed here (the reason says why).

use super::probe::{Action, Expect, Probe};
use super::run::{Executed, Side, exit_text, trim_stderr};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    Invalid,
    Error,
    Skip,
}

impl Status {
    pub const ALL: [Status; 5] = [
        Status::Pass,
        Status::Fail,
        Status::Invalid,
        Status::Error,
        Status::Skip,
    ];

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

/// What one run shows.
#[derive(Debug)]
enum Seen {
    /// The access happened.
    Done(String),
    /// It did not; `os` when the OS's own permission error says so.
    Refused { os: bool, detail: String },
    /// The run proves nothing: it could not start or run, or timed out.
    Broken { timeout: bool, detail: String },
}

/// What srt's proxy answered, read from curl's `-D -` output.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ProxyAnswer {
    /// The last HTTP status seen (a CONNECT answer or a response).
    pub status: Option<u16>,
    /// 403 with `X-Proxy-Error: blocked-by-allowlist`.
    pub blocked: bool,
}

pub fn parse_headers(stdout: &[u8]) -> ProxyAnswer {
    let text = String::from_utf8_lossy(stdout);
    let mut answer = ProxyAnswer::default();
    let mut current = None;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("HTTP/") {
            current = line.split_whitespace().nth(1).and_then(|c| c.parse().ok());
            answer.status = current;
        } else if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("x-proxy-error")
            && value.trim().eq_ignore_ascii_case("blocked-by-allowlist")
            && current == Some(403)
        {
            answer.blocked = true;
        }
    }
    answer
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

/// srt's own failures start `Error:`; bubblewrap's start `bwrap:`.
fn sandbox_setup_failure(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .find(|l| l.starts_with("Error:") || l.starts_with("bwrap:"))
        .map(|l| trim_stderr(l, 300))
}

fn failed_detail(side: &Side) -> String {
    let stderr = trim_stderr(&side.out.stderr, 200);
    if stderr.is_empty() {
        format!("exit {}", exit_text(side.out.exit))
    } else {
        format!("exit {}: {stderr}", exit_text(side.out.exit))
    }
}

/// What one run shows. `control_stdout` is given for the sandbox run (the
/// control's output, to compare a read with) and `None` for the control.
fn observe(action: &Action, side: &Side, control_stdout: Option<&[u8]>, timeout: u64) -> Seen {
    let in_sandbox = control_stdout.is_some();
    if let Some(broken) = run_failure(side, in_sandbox, timeout) {
        return broken;
    }
    let out = &side.out;
    let refused = || Seen::Refused {
        os: os_refused(&out.stderr),
        detail: failed_detail(side),
    };
    match action {
        Action::Read(_) => match (out.exit, control_stdout) {
            (Some(0), None) => Seen::Done("read the first byte".into()),
            (Some(0), Some(control)) if out.stdout == control => {
                Seen::Done("the file's first byte came back".into())
            }
            (Some(0), Some(_)) => Seen::Refused {
                os: false,
                detail: "exit 0, but the file's content did not come back".into(),
            },
            _ => refused(),
        },
        Action::Append(_) | Action::Plant { .. } => match out.exit {
            Some(0) => Seen::Done("the file opened for writing".into()),
            _ => refused(),
        },
        Action::Create(_) => match side.effect {
            Some(true) => Seen::Done("the probe file was created".into()),
            _ if out.exit == Some(0) => Seen::Refused {
                os: false,
                detail: "exit 0, but the file never reached the real directory (a throwaway \
                         tmpfs took it)"
                    .into(),
            },
            _ => refused(),
        },
        Action::Http { .. } if in_sandbox => observe_proxy(side),
        Action::Http { .. } => observe_http_control(side),
    }
}

/// The run proves nothing about the access, whatever the action: it did not
/// start, timed out, srt could not build the sandbox, a signal killed it,
/// or the shell could not run the probe command (126, 127).
fn run_failure(side: &Side, in_sandbox: bool, timeout: u64) -> Option<Seen> {
    let broken = |detail: String| {
        Some(Seen::Broken {
            timeout: false,
            detail,
        })
    };
    if let Some(detail) = &side.broken {
        return broken(detail.clone());
    }
    let out = &side.out;
    if out.timed_out {
        return Some(Seen::Broken {
            timeout: true,
            detail: format!("timed out after {timeout} s"),
        });
    }
    if in_sandbox && let Some(line) = sandbox_setup_failure(&out.stderr) {
        return broken(format!("srt could not set up the sandbox: {line}"));
    }
    match out.exit {
        None => broken("killed by a signal".into()),
        Some(code @ (126 | 127)) => broken(format!(
            "the probe command could not run (exit {code}: {})",
            trim_stderr(&out.stderr, 200)
        )),
        _ => None,
    }
}

/// The control is pinned to a closed local port: any exit but curl's own
/// usage errors means the request was attempted.
fn observe_http_control(side: &Side) -> Seen {
    match side.out.exit {
        Some(1..=4) => Seen::Refused {
            os: false,
            detail: failed_detail(side),
        },
        _ => Seen::Done("curl ran and the URL parsed".into()),
    }
}

/// In the sandbox the request goes through srt's proxy, whose answer (read
/// from curl's headers) says whether it let the request through.
fn observe_proxy(side: &Side) -> Seen {
    let answer = parse_headers(&side.out.stdout);
    match answer.status {
        _ if answer.blocked => Seen::Refused {
            os: false,
            detail: "srt's proxy refused it (403, X-Proxy-Error: blocked-by-allowlist)".into(),
        },
        Some(code) => Seen::Done(format!(
            "srt's proxy let it through (HTTP {code}{})",
            if code == 502 {
                ": the upstream is unreachable from here, which is fine"
            } else {
                ""
            }
        )),
        None => Seen::Broken {
            timeout: false,
            detail: format!("no answer from srt's proxy ({})", failed_detail(side)),
        },
    }
}

pub fn judge(probe: &Probe, executed: Option<&Executed>, timeout: u64) -> Verdict {
    let action = match &probe.action {
        Err(reason) => return verdict(Status::Skip, reason.clone()),
        Ok(action) => action,
    };
    let Some(ex) = executed else {
        return verdict(Status::Error, "the probe did not run");
    };
    let mut os_note = None;
    match observe(action, &ex.control, None, timeout) {
        Seen::Done(_) => {}
        Seen::Broken {
            timeout: true,
            detail,
        } => return verdict(Status::Error, format!("control: {detail}")),
        Seen::Broken { detail, .. } => {
            return verdict(
                Status::Invalid,
                format!("the control could not run ({detail}), so the probe proves nothing"),
            );
        }
        Seen::Refused { os: true, detail } if probe.expect == Expect::Blocked => {
            os_note = Some(detail);
        }
        Seen::Refused { detail, .. } => {
            return verdict(
                Status::Invalid,
                format!("the control failed ({detail}), so the probe proves nothing"),
            );
        }
    }
    let verb = action.verb();
    let retried = if ex.sandbox.retried {
        " (retried once: srt's proxy was not ready)"
    } else {
        ""
    };
    let seen = observe(action, &ex.sandbox, Some(&ex.control.out.stdout), timeout);
    match (seen, probe.expect) {
        (Seen::Broken { detail, .. }, _) => verdict(Status::Error, format!("{detail}{retried}")),
        (Seen::Done(detail), Expect::Blocked) => {
            let mut reason = format!("{verb} succeeded in the sandbox: {detail}{retried}");
            if matches!(action, Action::Plant { .. }) {
                // Seen with srt 0.0.78: `srt -d` logs "Skipping glob write
                // pattern on Linux" for every glob in a write list.
                reason.push_str(
                    " (srt on Linux skips glob patterns in write lists; `srt -d` says so: \
                     list the files literally)",
                );
            }
            verdict(Status::Fail, reason)
        }
        (Seen::Done(detail), Expect::Allowed) => {
            verdict(Status::Pass, format!("allowed: {detail}{retried}"))
        }
        (Seen::Refused { detail, .. }, Expect::Blocked) => {
            let mut reason = format!("blocked: {detail}{retried}");
            if let Some(note) = os_note {
                reason.push_str(&format!(
                    " (the OS refuses it outside the sandbox too: {note})"
                ));
            }
            verdict(Status::Pass, reason)
        }
        (Seen::Refused { detail, .. }, Expect::Allowed) => verdict(
            Status::Fail,
            format!("{verb} was blocked in the sandbox: {detail}{retried}"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::probe::{Kind, Origin};
    use super::super::run::Output;
    use super::*;
    use std::path::PathBuf;

    fn probe(action: Action, expect: Expect) -> Probe {
        Probe {
            kind: Kind::DenyRead,
            rule: "~/.ssh".into(),
            origin: Origin::Both,
            note: None,
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

    fn status(p: &Probe, control: Side, sandbox: Side) -> Status {
        judge(p, Some(&Executed { control, sandbox }), 10).status
    }

    #[test]
    fn read_verdicts_compare_content() {
        let p = probe(Action::Read(PathBuf::from("/s")), Expect::Blocked);
        let denied = "head: cannot open '/s' for reading: Permission denied";
        assert_eq!(
            status(&p, side(0, b"S", ""), side(1, b"", denied)),
            Status::Pass
        );
        assert_eq!(
            status(&p, side(0, b"S", ""), side(0, b"S", "")),
            Status::Fail
        );
        assert_eq!(
            status(&p, side(0, b"S", ""), side(0, b"", "")),
            Status::Pass
        );
        // The OS refuses the control: not INVALID for a deny.
        assert_eq!(
            status(&p, side(1, b"", denied), side(1, b"", denied)),
            Status::Pass
        );
        // A control that fails otherwise proves nothing.
        let missing = "head: cannot open '/s': No such file or directory";
        assert_eq!(
            status(&p, side(1, b"", missing), side(1, b"", missing)),
            Status::Invalid
        );
        // srt itself failed.
        assert_eq!(
            status(
                &p,
                side(0, b"S", ""),
                side(1, b"", "Error: Sandbox dependencies")
            ),
            Status::Error
        );
        assert_eq!(
            status(&p, side(0, b"S", ""), side(127, b"", "")),
            Status::Error
        );
        let mut timed = side(0, b"", "");
        timed.out.timed_out = true;
        timed.out.exit = None;
        assert_eq!(status(&p, side(0, b"S", ""), timed), Status::Error);
    }

    #[test]
    fn allow_verdicts() {
        let p = probe(Action::Append(PathBuf::from("/w/f")), Expect::Allowed);
        assert_eq!(status(&p, side(0, b"", ""), side(0, b"", "")), Status::Pass);
        let rofs = "sh: 1: cannot create /w/f: Read-only file system";
        assert_eq!(
            status(&p, side(0, b"", ""), side(2, b"", rofs)),
            Status::Fail
        );
        assert_eq!(
            status(&p, side(2, b"", rofs), side(2, b"", rofs)),
            Status::Invalid
        );
    }

    #[test]
    fn create_needs_the_file_on_the_host() {
        let p = probe(
            Action::Create(PathBuf::from("/d/twsrt-probe")),
            Expect::Blocked,
        );
        let mut control = side(0, b"", "");
        control.effect = Some(true);
        let mut tmpfs = side(0, b"", "");
        tmpfs.effect = Some(false);
        assert_eq!(status(&p, control.clone(), tmpfs), Status::Pass);
        let mut wrote = side(0, b"", "");
        wrote.effect = Some(true);
        assert_eq!(status(&p, control, wrote), Status::Fail);
    }

    #[test]
    fn proxy_answers_are_told_apart_by_the_header() {
        let blocked = b"HTTP/1.1 403 Forbidden\r\nX-Proxy-Error: blocked-by-allowlist\r\n\r\n";
        let bad_gateway = b"HTTP/1.1 502 Bad Gateway\r\n\r\n";
        let plain_403 = b"HTTP/1.1 200 Connection established\r\n\r\nHTTP/2 403\r\n\r\n";
        assert!(parse_headers(blocked).blocked);
        assert_eq!(parse_headers(bad_gateway).status, Some(502));
        assert!(!parse_headers(plain_403).blocked);
        let http = Action::Http {
            url: "https://evil.com/".into(),
            max_time: 5,
        };
        let deny = probe(http.clone(), Expect::Blocked);
        let allow = probe(http, Expect::Allowed);
        let control = side(7, b"", "curl: (7) Failed to connect to 127.0.0.1 port 9");
        assert_eq!(
            status(&deny, control.clone(), side(56, blocked, "")),
            Status::Pass
        );
        assert_eq!(
            status(&deny, control.clone(), side(56, bad_gateway, "")),
            Status::Fail
        );
        assert_eq!(
            status(&allow, control.clone(), side(56, bad_gateway, "")),
            Status::Pass
        );
        assert_eq!(
            status(&allow, control.clone(), side(56, blocked, "")),
            Status::Fail
        );
        assert_eq!(status(&allow, control, side(7, b"", "")), Status::Error);
        let malformed = side(3, b"", "curl: (3) URL rejected");
        assert_eq!(
            status(&allow, malformed, side(56, bad_gateway, "")),
            Status::Invalid
        );
    }
}
