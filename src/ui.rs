//! Diagnostics: one style per kind of message, on the stream the reference
//! uses. Colour only on a terminal and never when `NO_COLOR` is set (even to
//! an empty value). Generated configuration is printed with `data`, unstyled.
//!
//! stdout carries a command's result only (renderings, diff reports), so it
//! can be captured; everything that narrates (what would be or was written,
//! notes, warnings, errors) goes to stderr.
//!
//! Every stdout write goes through [`to_stdout`]: the first failure is kept
//! (and later writes are skipped), and `main` asks [`stdout_failure`] after
//! the command: a closed pipe ends the run quietly, any other failure (a
//! full disk) is an error, so output that never arrived is never a success.
//! A failed write to stderr has nowhere to be reported and is dropped.
//!
//! `-q/--quiet` ([`set_quiet`]) drops the `Info:` notes and the warnings;
//! errors, stdout and the status lines of what is or would be written stay.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use anstream::{AutoStream, ColorChoice};

static VERBOSE: AtomicBool = AtomicBool::new(false);
static QUIET: AtomicBool = AtomicBool::new(false);

/// The first failed stdout write of the run.
static STDOUT_FAILED: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Run `write` on stdout unless an earlier write failed; keep its failure.
pub fn to_stdout(write: impl FnOnce(&mut std::io::StdoutLock<'static>) -> std::io::Result<()>) {
    let mut failed = STDOUT_FAILED.lock().unwrap_or_else(|e| e.into_inner());
    if failed.is_some() {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = write(&mut out) {
        *failed = Some(e);
    }
}

/// How writing the command's output to stdout went, checked once by `main`
/// after the command: stdout is flushed, then the first failure is returned.
pub fn stdout_failure() -> Option<std::io::Error> {
    to_stdout(|out| out.flush());
    STDOUT_FAILED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
}

pub fn set_verbose(on: bool) {
    VERBOSE.store(on, Ordering::Relaxed);
}

/// Whether `-v` was given: besides the [`debug`] lines, commands show what
/// they leave out by default (the agent limits among generation warnings).
pub fn verbose() -> bool {
    VERBOSE.load(Ordering::Relaxed)
}

/// `-q`: [`warning`], [`note`] and [`note_bold`] print nothing.
pub fn set_quiet(on: bool) {
    QUIET.store(on, Ordering::Relaxed);
}

fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

fn choice() -> ColorChoice {
    if std::env::var_os("NO_COLOR").is_some() {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}

/// Whether stderr is styled, worked out once (a terminal check and the
/// environment): neither changes during a run.
fn stderr_styled() -> bool {
    static STYLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *STYLED.get_or_init(|| {
        choice() != ColorChoice::Never
            && AutoStream::choice(&std::io::stderr()) != ColorChoice::Never
    })
}

/// Whether stdout is styled: a terminal that takes colour, `NO_COLOR`
/// unset. Output with a styled and a plain form (the `profiles` table)
/// picks its form with this.
pub fn stdout_styled() -> bool {
    choice() != ColorChoice::Never && AutoStream::choice(&std::io::stdout()) != ColorChoice::Never
}

const RESET: &str = "\x1b[0m";
const BOLD_RED: &str = "\x1b[1;31m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const BOLD_CYAN: &str = "\x1b[1;36m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";
const DIM_CYAN: &str = "\x1b[2;36m";

fn styled_line(to_stderr: bool, style: &str, text: &str) {
    styled_segments(to_stderr, &[(style, text)]);
}

/// One line made of differently styled pieces. On stdout the styles are
/// left out unless [`stdout_styled`]; stderr strips them where it must.
fn styled_segments(to_stderr: bool, segments: &[(&str, &str)]) {
    let styled = if to_stderr {
        stderr_styled()
    } else {
        stdout_styled()
    };
    let mut line = String::new();
    for (style, text) in segments {
        if style.is_empty() || !styled {
            line.push_str(text);
        } else {
            line.push_str(style);
            line.push_str(text);
            line.push_str(RESET);
        }
    }
    if to_stderr {
        // The line and its newline in one piece: stderr is unbuffered, so
        // each piece written is a system call of its own.
        line.push('\n');
        let err = std::io::stderr().lock();
        let _ = if styled {
            AutoStream::new(err, choice()).write_all(line.as_bytes())
        } else {
            // Unstyled, the line has no escapes of ours; any in the text
            // itself (a file name) are still taken out.
            anstream::StripStream::new(err).write_all(line.as_bytes())
        };
    } else {
        to_stdout(|out| writeln!(out, "{line}"));
    }
}

/// Generated output (JSON, TOML, flags, rules): stdout, never styled.
pub fn data(text: &str) {
    to_stdout(|out| writeln!(out, "{text}"));
}

/// Bytes for stdout as they are (a completion script).
pub fn raw(bytes: &[u8]) {
    to_stdout(|out| out.write_all(bytes));
}

/// A plain stdout line (headers such as `--- claude ---`).
pub fn plain(text: &str) {
    data(text);
}

pub fn error(text: &str) {
    styled_line(true, BOLD_RED, &format!("Error: {text}"));
}

/// `Warning: TEXT` on stderr, unless `-q`.
pub fn warning(text: &str) {
    if quiet() {
        return;
    }
    styled_line(true, YELLOW, &format!("Warning: {text}"));
}

/// Informational line on stdout (cyan): the `--- NAME ---` headers of a
/// preview, the `test` banner.
pub fn heading(text: &str) {
    styled_line(false, CYAN, text);
}

/// `Info: TEXT` on stderr: nothing failed, but the user should know (an
/// agent skipped, a file migrated). Labelled like errors and warnings so a
/// skipped item never reads as a failure. Nothing with `-q`.
pub fn note(text: &str) {
    if quiet() {
        return;
    }
    styled_line(true, CYAN, &format!("Info: {text}"));
}

/// [`note`] in bold: the line a preview ends with.
pub fn note_bold(text: &str) {
    if quiet() {
        return;
    }
    styled_line(true, BOLD_CYAN, &format!("Info: {text}"));
}

/// A file the preview would write (`Would write ...`), on stderr.
pub fn would_write(text: &str) {
    styled_line(true, CYAN, text);
}

/// A completed write (`Wrote ...`), on stderr (green), so `-w` leaves
/// stdout free for data.
pub fn wrote(text: &str) {
    styled_line(true, GREEN, text);
}

/// A status line without a label on stderr (`Unchanged: P`), unstyled.
pub fn note_plain(text: &str) {
    styled_line(true, "", text);
}

/// A clean diff (green, stdout).
pub fn success(text: &str) {
    styled_line(false, GREEN, text);
}

/// Drift found (yellow, stdout).
pub fn drift(text: &str) {
    styled_line(false, YELLOW, text);
}

/// The header of one drifted agent: `NAME: N missing, M extra  TARGET`.
pub fn drift_header(name: &str, counts: &str, target: &str) {
    styled_segments(
        false,
        &[
            (BOLD, &format!("{name}: ")),
            (YELLOW, counts),
            ("", "  "),
            (DIM, target),
        ],
    );
}

/// An entry the target lacks (green, stdout).
pub fn missing(text: &str) {
    styled_line(false, GREEN, text);
}

/// An entry on disk that the sources do not produce (red, stdout).
pub fn extra(text: &str) {
    styled_line(false, RED, text);
}

/// The line explaining `+` and `-` after a drift report (stdout).
pub fn diff_legend(missing: &str, extra: &str) {
    styled_segments(false, &[(GREEN, missing), ("", "   "), (RED, extra)]);
}

/// `-v` lifecycle facts on stderr. Never pass policy contents, patterns,
/// domains or values read from any file here: only counts, names, paths.
pub fn debug(text: impl FnOnce() -> String) {
    if VERBOSE.load(Ordering::Relaxed) {
        styled_line(true, DIM_CYAN, &format!("Debug: {}", text()));
    }
}
