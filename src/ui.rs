//! Diagnostics: one style per kind of message, on the stream the reference
//! uses. Colour only on a terminal and never when `NO_COLOR` is set (even to
//! an empty value). Generated configuration is printed with `data`, unstyled.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

use anstream::{AutoStream, ColorChoice};

static VERBOSE: AtomicBool = AtomicBool::new(false);

pub fn set_verbose(on: bool) {
    VERBOSE.store(on, Ordering::Relaxed);
}

fn choice() -> ColorChoice {
    if std::env::var_os("NO_COLOR").is_some() {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}

const RESET: &str = "\x1b[0m";
const BOLD_RED: &str = "\x1b[1;31m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const GREEN: &str = "\x1b[32m";
const CYAN: &str = "\x1b[36m";
const DIM_CYAN: &str = "\x1b[2;36m";

fn styled_line(to_stderr: bool, style: &str, text: &str) {
    // A failed write to a closed pipe is not worth a panic or an error exit.
    if to_stderr {
        let mut s = AutoStream::new(std::io::stderr().lock(), choice());
        let _ = writeln!(s, "{style}{text}{RESET}");
    } else {
        let mut s = AutoStream::new(std::io::stdout().lock(), choice());
        let _ = writeln!(s, "{style}{text}{RESET}");
    }
}

/// Generated output (JSON, TOML, flags, rules): stdout, never styled.
pub fn data(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// A plain stdout line (headers such as `--- claude ---`).
pub fn plain(text: &str) {
    data(text);
}

pub fn error(text: &str) {
    styled_line(true, BOLD_RED, &format!("Error: {text}"));
}

pub fn warning(text: &str) {
    styled_line(true, YELLOW, &format!("Warning: {text}"));
}

/// Informational notice on stdout (cyan).
pub fn info(text: &str) {
    styled_line(false, CYAN, text);
}

/// A successful write or a clean diff (green, stdout).
pub fn success(text: &str) {
    styled_line(false, GREEN, text);
}

/// Drift found (yellow, stdout).
pub fn drift(text: &str) {
    styled_line(false, YELLOW, text);
}

/// An entry on disk that the sources do not produce (red, stdout).
pub fn extra(text: &str) {
    styled_line(false, RED, text);
}

/// `-v` lifecycle facts on stderr. Never pass policy contents, patterns,
/// domains or values read from any file here: only counts, names, paths.
pub fn debug(text: impl FnOnce() -> String) {
    if VERBOSE.load(Ordering::Relaxed) {
        styled_line(true, DIM_CYAN, &format!("Debug: {}", text()));
    }
}
