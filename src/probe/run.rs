//! Running probes: each one plainly (the control) and under
//! `srt -s SETTINGS -c`, with a timeout, srt's TMPDIR in a scratch directory,
//! and every probe file removed afterwards.

use std::io::{IsTerminal, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::model::{Action, Probe};
use super::schedule::{self, Claim};
use crate::ui;

pub use crate::paths::scratch::Scratch;

/// How probes are run.
pub struct RunEnv {
    pub srt: PathBuf,
    pub settings: PathBuf,
    /// srt's TMPDIR (it leaves `srt-mux-*.sock` files there).
    pub scratch: PathBuf,
    pub timeout: Duration,
}

impl RunEnv {
    pub fn sandboxed(&self, command: &str) -> Command {
        let mut cmd = Command::new(&self.srt);
        cmd.arg("-s")
            .arg(&self.settings)
            .arg("-c")
            .arg(command)
            .env("TMPDIR", &self.scratch);
        cmd
    }

    pub fn plain(&self, command: &str) -> Command {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(command).env("TMPDIR", &self.scratch);
        cmd
    }
}

/// One finished process.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// None: killed by a signal (or by the timeout).
    pub exit: Option<i32>,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
    pub ms: u64,
}

/// Run a command with stdin closed, in its own process group, and kill the
/// group (TERM, then KILL) when it outlives the timeout.
pub fn exec(mut cmd: Command, timeout: Duration) -> std::io::Result<Output> {
    let start = Instant::now();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn()?;
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let (out_tx, out_rx) = std::sync::mpsc::channel();
    let (err_tx, err_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = out_pipe.read_to_end(&mut buf);
        let _ = out_tx.send(buf);
    });
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = err_pipe.read_to_end(&mut buf);
        let _ = err_tx.send(buf);
    });
    let pgid = child.id();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if start.elapsed() >= timeout {
            timed_out = true;
            // srt cleans up its mount-point artifacts on TERM; KILL what is left.
            signal_group(pgid, "TERM");
            let grace = Instant::now();
            loop {
                if child.try_wait()?.is_some() {
                    break;
                }
                if grace.elapsed() >= Duration::from_secs(2) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            signal_group(pgid, "KILL");
            let _ = child.kill();
            break child.wait()?;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // A process that escaped the group may still hold a pipe: do not wait
    // for it forever.
    let drain = Duration::from_secs(2);
    let stdout = out_rx.recv_timeout(drain).unwrap_or_default();
    let stderr = err_rx.recv_timeout(drain).unwrap_or_default();
    Ok(Output {
        exit: if timed_out { None } else { status.code() },
        timed_out,
        stdout,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        ms: start.elapsed().as_millis() as u64,
    })
}

fn signal_group(pgid: u32, signal: &str) {
    let _ = Command::new("kill")
        .arg("-s")
        .arg(signal)
        .arg("--")
        .arg(format!("-{pgid}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

pub fn exit_text(exit: Option<i32>) -> String {
    exit.map_or_else(|| "-".into(), |c| c.to_string())
}

/// The first lines of stderr, at most `max` characters, on one line.
pub fn trim_stderr(stderr: &str, max: usize) -> String {
    let joined = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ");
    if joined.chars().count() <= max {
        joined
    } else {
        let cut: String = joined.chars().take(max).collect();
        format!("{cut}...")
    }
}

/// A run of one side of a probe.
#[derive(Debug, Clone, Default)]
pub struct Side {
    pub out: Output,
    /// For `Create`: whether the probe file arrived on the host.
    pub effect: Option<bool>,
    /// The command could not be started, or its probe file not prepared.
    pub broken: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Executed {
    /// None for a probe without a control run (a wildcard domain).
    pub control: Option<Side>,
    pub sandbox: Side,
}

/// How long to wait before each new sandbox run of a network probe whose
/// curl found srt's proxy not listening yet.
const PROXY_RETRY_WAITS_MS: [u64; 4] = [0, 100, 300, 1000];

/// Did curl fail to reach srt's in-sandbox proxy (not listening yet)?
/// Such a run says nothing about the rule: it is run once more.
pub fn proxy_not_ready(out: &Output) -> bool {
    out.exit == Some(7) && out.stderr.contains("to localhost port")
}

/// Run one probe: make its directories, run the control, run it in srt
/// (again, up to four times, while srt's proxy was not ready), remove what it made.
pub fn execute(action: &Action, env: &RunEnv) -> Executed {
    if let Err((reason, refused)) = prepare(action) {
        cleanup(action);
        // The OS refused to make the directories: the file cannot be
        // created with or without the sandbox, judged as a command the OS
        // refused (both runs exit 1 with the OS's words).
        let side = if refused {
            Side {
                out: Output {
                    exit: Some(1),
                    stderr: reason,
                    ..Output::default()
                },
                ..Side::default()
            }
        } else {
            Side {
                broken: Some(reason),
                ..Side::default()
            }
        };
        return Executed {
            control: Some(side.clone()),
            sandbox: side,
        };
    }
    let command = action.command();
    let control = action
        .has_control()
        .then(|| side(action, env.plain(&command), env));
    let mut sandbox = side(action, env.sandboxed(&command), env);
    // srt starts its in-sandbox bridge to the proxy beside the command, so
    // on a loaded machine curl can win the race more than once in a row
    // (seen in CI while two builds ran): a few retries, each waiting longer.
    for wait_ms in PROXY_RETRY_WAITS_MS {
        if !(action.is_network() && proxy_not_ready(&sandbox.out)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(wait_ms));
        sandbox = side(action, env.sandboxed(&command), env);
    }
    cleanup(action);
    Executed { control, sandbox }
}

fn side(action: &Action, cmd: Command, env: &RunEnv) -> Side {
    if let Action::Create { file, .. } = action
        && std::fs::symlink_metadata(file).is_ok()
    {
        return Side {
            broken: Some(format!("{} exists already; not touched", file.display())),
            ..Side::default()
        };
    }
    ui::debug(|| {
        let args: Vec<String> = cmd
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        format!(
            "exec: {} {}",
            cmd.get_program().to_string_lossy(),
            args.join(" ")
        )
    });
    let mut side = match exec(cmd, env.timeout) {
        Ok(out) => Side {
            out,
            ..Side::default()
        },
        Err(e) => Side {
            broken: Some(format!("could not start: {e}")),
            ..Side::default()
        },
    };
    ui::debug(|| format!("exit={} in {}ms", exit_text(side.out.exit), side.out.ms));
    if let Action::Create { file, .. } = action {
        // Only a file this run created can be there (the check above).
        let arrived = std::fs::symlink_metadata(file).is_ok();
        if arrived {
            let _ = std::fs::remove_file(file);
        }
        side.effect = Some(arrived);
    }
    side
}

/// Make a create probe's directories; on failure why, and whether the OS
/// refused it (no permission, a read-only file system).
fn prepare(action: &Action) -> Result<(), (String, bool)> {
    if let Action::Create { dirs, .. } = action {
        for dir in dirs {
            std::fs::create_dir(dir).map_err(|e| {
                let refused = matches!(
                    e.kind(),
                    std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
                );
                let reason = format!(
                    "could not create the probe directory {}: {e}",
                    dir.display()
                );
                (reason, refused)
            })?;
        }
    }
    Ok(())
}

fn cleanup(action: &Action) {
    if let Action::Create { file, dirs } = action {
        let _ = std::fs::remove_file(file);
        for dir in dirs.iter().rev() {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// Run every probe that runs (see [`Probe::runs`]), `jobs` at a time as the schedule
/// allows, results in report order. A progress line goes to a terminal
/// stderr.
pub fn execute_all(
    probes: &[Probe],
    placeholders: &[PathBuf],
    env: &RunEnv,
    jobs: usize,
) -> Vec<Option<Executed>> {
    let claims: Vec<Vec<Claim>> = probes
        .iter()
        .map(|p| schedule::claims(p, placeholders))
        .collect();
    let runnable = probes.iter().filter(|p| p.runs()).count();
    let done = AtomicUsize::new(0);
    let progress = Progress::new(runnable);
    let results = schedule::run_all(&claims, jobs, |i| {
        let action = probes[i]
            .action
            .as_ref()
            .ok()
            .filter(|_| probes[i].runs())?;
        let executed = execute(action, env);
        let finished = done.fetch_add(1, Ordering::SeqCst) + 1;
        progress.show(finished, &probes[i]);
        Some(executed)
    });
    progress.clear();
    results
}

struct Progress {
    total: usize,
    on: bool,
    lock: Mutex<()>,
}

impl Progress {
    fn new(total: usize) -> Self {
        let progress = Progress {
            total,
            on: std::io::stderr().is_terminal() && total > 0,
            lock: Mutex::new(()),
        };
        if progress.on {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "twsrt test: running {total} probes...");
            let _ = err.flush();
        }
        progress
    }

    fn show(&self, finished: usize, probe: &Probe) {
        if !self.on {
            return;
        }
        let _guard = self.lock.lock();
        let mut line = format!(
            "twsrt test: {finished}/{} probes run ({} {})",
            self.total,
            probe.kind(),
            probe.rule
        );
        if line.chars().count() > 76 {
            line = line.chars().take(73).collect::<String>() + "...";
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
    }

    fn clear(&self) {
        if self.on {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exec_reports_exit_output_and_timeouts() {
        let out = exec(
            {
                let mut c = Command::new("sh");
                c.args(["-c", "printf x; echo oops >&2; exit 3"]);
                c
            },
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(out.exit, Some(3));
        assert_eq!(out.stdout, b"x");
        assert_eq!(out.stderr, "oops\n");
        let start = Instant::now();
        let out = exec(
            {
                let mut c = Command::new("sh");
                c.args(["-c", "sleep 30 & sleep 30"]);
                c
            },
            Duration::from_millis(200),
        )
        .unwrap();
        assert!(out.timed_out);
        assert_eq!(out.exit, None);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn stderr_is_trimmed_to_one_line() {
        assert_eq!(trim_stderr("a\n\n b \n", 100), "a | b");
        assert_eq!(trim_stderr("abcdef", 3), "abc...");
    }

    #[test]
    fn plant_and_create_leave_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = Scratch::new("twsrt-test").unwrap();
        let env = RunEnv {
            srt: PathBuf::from("/bin/sh"), // stands in for srt: `sh -s X -c CMD` fails
            settings: PathBuf::from("/nonexistent"),
            scratch: scratch.path.clone(),
            timeout: Duration::from_secs(5),
        };
        let witness = Action::Create {
            file: dir.path().join("a/b/.env"),
            dirs: vec![dir.path().join("a"), dir.path().join("a/b")],
        };
        let ex = execute(&witness, &env);
        let control = ex.control.unwrap();
        assert_eq!(control.out.exit, Some(0));
        assert_eq!(control.effect, Some(true));
        // `sh -s X -c CMD` runs nothing: the file never arrives.
        assert_eq!(ex.sandbox.effect, Some(false));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        let path = scratch.path.clone();
        drop(scratch);
        assert!(!path.exists());
    }
}
