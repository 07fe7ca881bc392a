//! Every way the analysis can end is an answer: it runs on a thread of its
//! own, with a stack the walk's limits fit in ([`ANALYSIS_STACK`]) and under
//! a deadline ([`DEADLINE`]); a panic, a deadline passed or a thread that
//! cannot start is answered like a command the hook cannot read (ask, deny
//! in yolo mode). An agent that runs a tool call whose hook dies, times out
//! or prints nothing would otherwise let it through.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use super::{Mode, Verdict};

/// The stack of the analysis thread. The walk's limits (command size,
/// nesting) bound its depth: at the largest command analysed, the deepest
/// nesting of every form the limits let through needed at most 4 MiB on
/// the debug build (SECURITY_CONCEPT.md, "It always answers"), a sixteenth of
/// this. The memory is only reserved: pages are used as the stack grows.
pub const ANALYSIS_STACK: usize = 64 << 20;

/// How long the analysis may take. The agent waits far longer for a hook
/// (Claude Code: 60 s) and then runs the call; an answer comes well before.
pub const DEADLINE: Duration = Duration::from_secs(5);

/// `work`'s verdict, computed on a thread of its own: whatever happens
/// there (a panic, no answer by `deadline`, no thread), an answer.
pub fn on_analysis_thread(
    mode: Mode,
    deadline: Duration,
    work: impl FnOnce() -> Verdict + Send + 'static,
) -> Verdict {
    let (send, receive) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("hook analysis".into())
        .stack_size(ANALYSIS_STACK)
        .spawn(move || {
            let outcome = catch_unwind(AssertUnwindSafe(work));
            // The receiver is gone only once the deadline answered.
            let _ = send.send(outcome);
        });
    if let Err(e) = spawned {
        return unreadable(mode, &format!("the analysis could not start ({e})"));
    }
    match receive.recv_timeout(deadline) {
        Ok(Ok(verdict)) => verdict,
        Ok(Err(_)) => unreadable(mode, "an internal error while deciding"),
        Err(mpsc::RecvTimeoutError::Timeout) => unreadable(
            mode,
            &format!("the analysis took longer than {} s", deadline.as_secs()),
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            unreadable(mode, "the analysis ended without a decision")
        }
    }
}

/// What an analysis that failed answers: what a command the hook cannot
/// read answers (ask; nobody is asked in yolo mode, so deny).
fn unreadable(mode: Mode, why: &str) -> Verdict {
    let reason = format!("twsrt hook: {why}; the command was not checked");
    match mode {
        Mode::Full => Verdict::Ask(reason),
        Mode::Yolo => Verdict::Deny(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_answered_like_an_unreadable_command() {
        let work = || -> Verdict { panic!("a bug") };
        let full = on_analysis_thread(Mode::Full, DEADLINE, work);
        assert!(
            matches!(full, Verdict::Ask(ref r) if r.contains("internal error")),
            "{full:?}"
        );
        let yolo = on_analysis_thread(Mode::Yolo, DEADLINE, work);
        assert!(matches!(yolo, Verdict::Deny(_)), "{yolo:?}");
    }

    #[test]
    fn an_analysis_past_the_deadline_is_answered() {
        let slow = || {
            std::thread::sleep(Duration::from_secs(2));
            Verdict::Pass
        };
        let got = on_analysis_thread(Mode::Yolo, Duration::from_millis(50), slow);
        assert!(
            matches!(got, Verdict::Deny(ref r) if r.contains("longer than")),
            "{got:?}"
        );
    }

    #[test]
    fn the_analysis_runs_on_the_large_stack() {
        // Recursion that needs more than a default thread's 2 MiB.
        fn deep(n: usize) -> usize {
            let pad = [n as u8; 1024];
            if n == 0 {
                0
            } else {
                deep(n - 1) + std::hint::black_box(pad)[0] as usize
            }
        }
        let got = on_analysis_thread(Mode::Full, DEADLINE, || {
            deep(20_000);
            Verdict::Pass
        });
        assert_eq!(got, Verdict::Pass);
    }
}
