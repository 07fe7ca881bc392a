//! The results: one aligned table, details for each result that is not PASS,
//! a summary line; or one JSON object with `--json`. Both on stdout.

use std::io::Write;
use std::path::Path;

use anstream::{AutoStream, ColorChoice};
use serde_json::{Value, json};

use super::probe::Probe;
use super::run::{Executed, Side, exit_text, trim_stderr};
use super::verdict::{Status, Verdict};

pub struct Outcome {
    pub probe: Probe,
    pub executed: Option<Executed>,
    pub verdict: Verdict,
}

impl Outcome {
    fn exits(&self) -> String {
        match &self.executed {
            Some(ex) if self.verdict.status != Status::Skip => format!(
                "{}/{}",
                exit_text(ex.control.out.exit),
                exit_text(ex.sandbox.out.exit)
            ),
            _ => "-".into(),
        }
    }

    fn ms(&self) -> Option<u64> {
        self.executed
            .as_ref()
            .map(|ex| ex.control.out.ms + ex.sandbox.out.ms)
    }
}

pub struct Header<'a> {
    pub settings: &'a Path,
    pub profile: &'a str,
    pub srt: &'a Path,
    pub srt_version: &'a str,
    pub differs: bool,
}

#[derive(Default)]
pub struct Counts {
    pub by_status: [usize; 5],
    pub total: usize,
}

impl Counts {
    pub fn of(outcomes: &[Outcome]) -> Self {
        let mut counts = Counts::default();
        for o in outcomes {
            let i = Status::ALL
                .iter()
                .position(|s| *s == o.verdict.status)
                .expect("a status");
            counts.by_status[i] += 1;
            counts.total += 1;
        }
        counts
    }

    pub fn any_bad(&self) -> bool {
        Status::ALL
            .iter()
            .zip(self.by_status)
            .any(|(s, n)| s.is_bad() && n > 0)
    }
}

fn color_choice() -> ColorChoice {
    if std::env::var_os("NO_COLOR").is_some() {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}

fn style(status: Status) -> &'static str {
    match status {
        Status::Pass => "\x1b[32m",
        Status::Fail => "\x1b[1;31m",
        Status::Invalid => "\x1b[33m",
        Status::Error => "\x1b[31m",
        Status::Skip => "\x1b[2m",
    }
}

const RESET: &str = "\x1b[0m";

/// The table, the details and the summary.
pub fn print_text(outcomes: &[Outcome], counts: &Counts, elapsed_ms: u64) {
    let mut out = AutoStream::new(std::io::stdout().lock(), color_choice());
    // A failed write (stdout closed) cannot be reported anywhere better
    // than the exit code, which the verdicts decide.
    let _ = write_text(&mut out, outcomes, counts, elapsed_ms);
}

fn write_text(
    out: &mut impl Write,
    outcomes: &[Outcome],
    counts: &Counts,
    elapsed_ms: u64,
) -> std::io::Result<()> {
    write_table(out, outcomes)?;
    for o in outcomes.iter().filter(|o| o.verdict.status != Status::Pass) {
        writeln!(out)?;
        write_details(out, o)?;
    }
    writeln!(out)?;
    write_summary(out, counts, elapsed_ms)
}

const HEADER: [&str; 5] = ["KIND", "RULE", "EXIT", "MS", "PROBE"];
const STATUS_WIDTH: usize = "INVALID".len();

/// One row per outcome under a header, every column as wide as its widest
/// cell; EXIT and MS right-aligned.
fn write_table(out: &mut impl Write, outcomes: &[Outcome]) -> std::io::Result<()> {
    let rows: Vec<[String; 5]> = outcomes.iter().map(row).collect();
    let mut widths = HEADER.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let header = format!("{:STATUS_WIDTH$}", "STATUS");
    write_row(out, &header, &HEADER, &widths)?;
    for (o, row) in outcomes.iter().zip(&rows) {
        let status = o.verdict.status;
        let first = format!("{}{:STATUS_WIDTH$}{RESET}", style(status), status.name());
        write_row(out, &first, row, &widths)?;
    }
    Ok(())
}

fn row(o: &Outcome) -> [String; 5] {
    [
        o.probe.kind.name().to_string(),
        o.probe.label(),
        o.exits(),
        o.ms().map_or_else(|| "-".into(), |ms| ms.to_string()),
        match &o.probe.action {
            Ok(action) => action.command(),
            Err(_) => "-".into(),
        },
    ]
}

/// `status` is already padded (and styled): padding inside the colour codes
/// keeps the columns aligned whether or not they are stripped.
fn write_row(
    out: &mut impl Write,
    status: &str,
    cells: &[impl AsRef<str>; 5],
    widths: &[usize; 5],
) -> std::io::Result<()> {
    let [c0, c1, c2, c3, c4] = cells.each_ref().map(AsRef::as_ref);
    writeln!(
        out,
        "{status}  {c0:w0$}  {c1:w1$}  {c2:>w2$}  {c3:>w3$}  {c4}",
        w0 = widths[0],
        w1 = widths[1],
        w2 = widths[2],
        w3 = widths[3],
    )
}

/// What was run, what was expected, what happened, and why that is the
/// verdict (only the reason for a probe that did not run).
fn write_details(out: &mut impl Write, o: &Outcome) -> std::io::Result<()> {
    let status = o.verdict.status;
    writeln!(
        out,
        "{}{}{RESET} {} {}",
        style(status),
        status.name(),
        o.probe.kind.name(),
        o.probe.label()
    )?;
    if let (Ok(action), Some(ex)) = (&o.probe.action, &o.executed) {
        writeln!(out, "  probe:    {}", action.command())?;
        if action.control_command() != action.command() {
            writeln!(out, "  control:  {}", action.control_command())?;
        }
        writeln!(out, "  expected: {} in the sandbox", o.probe.expect.name())?;
        writeln!(out, "  exits:    {}", side_line(ex))?;
        let stderr = trim_stderr(&ex.sandbox.out.stderr, 300);
        if !stderr.is_empty() {
            writeln!(out, "  stderr:   {stderr}")?;
        }
    }
    writeln!(out, "  reason:   {}", o.verdict.reason)
}

/// `N probes: n PASS, n FAIL, ... (s.s s)`.
fn write_summary(out: &mut impl Write, counts: &Counts, elapsed_ms: u64) -> std::io::Result<()> {
    let parts: Vec<String> = Status::ALL
        .iter()
        .zip(counts.by_status)
        .map(|(s, n)| format!("{n} {}", s.name()))
        .collect();
    writeln!(
        out,
        "{} {}: {} ({:.1} s)",
        counts.total,
        if counts.total == 1 { "probe" } else { "probes" },
        parts.join(", "),
        elapsed_ms as f64 / 1000.0
    )
}

fn side_line(ex: &Executed) -> String {
    let one = |name: &str, side: &Side| {
        let mut text = format!(
            "{name} exit {} in {} ms",
            exit_text(side.out.exit),
            side.out.ms
        );
        if side.out.timed_out {
            text.push_str(" (timed out)");
        }
        if side.retried {
            text.push_str(" (second try)");
        }
        text
    };
    format!(
        "{}; {}",
        one("control", &ex.control),
        one("sandbox", &ex.sandbox)
    )
}

fn side_json(side: &Side) -> Value {
    json!({
        "exit": side.out.exit,
        "timed_out": side.out.timed_out,
        "stderr": trim_stderr(&side.out.stderr, 300),
        "duration_ms": side.out.ms,
    })
}

/// One JSON object: the setup facts, the counts, every result.
pub fn json(header: &Header, outcomes: &[Outcome], counts: &Counts, elapsed_ms: u64) -> Value {
    let mut summary = serde_json::Map::new();
    summary.insert("total".into(), json!(counts.total));
    for (s, n) in Status::ALL.iter().zip(counts.by_status) {
        summary.insert(s.name().to_ascii_lowercase(), json!(n));
    }
    summary.insert("duration_ms".into(), json!(elapsed_ms));
    let results: Vec<Value> = outcomes
        .iter()
        .map(|o| {
            let action = o.probe.action.as_ref().ok();
            json!({
                "kind": o.probe.kind.name(),
                "rule": o.probe.rule,
                "note": o.probe.note,
                "origin": o.probe.origin.name(),
                "target": action.map(|a| a.target()),
                "command": action.map(|a| a.command()),
                "control_command": action.map(|a| a.control_command()),
                "expectation": o.probe.expect.name(),
                "status": o.verdict.status.name(),
                "control": o.executed.as_ref().map(|ex| side_json(&ex.control)),
                "sandbox": o.executed.as_ref().map(|ex| {
                    let mut v = side_json(&ex.sandbox);
                    v["retried"] = json!(ex.sandbox.retried);
                    v
                }),
                "duration_ms": o.ms(),
                "reason": o.verdict.reason,
            })
        })
        .collect();
    json!({
        "settings": header.settings.display().to_string(),
        "profile": header.profile,
        "settings_differ_from_policy": header.differs,
        "srt": header.srt.display().to_string(),
        "srt_version": header.srt_version,
        "summary": summary,
        "results": results,
    })
}
