//! The results on stdout, laid out as twsrt 3.3.3 lays them out: a header
//! line, one aligned table, a details block for each FAIL, INVALID and
//! ERROR, a summary of everything that did not pass, the counts; or one
//! JSON object with `--json`.

use std::io::Write;
use std::path::Path;

use anstream::{AutoStream, ColorChoice};
use serde_json::{Value, json};

use super::model::Probe;
use super::run::{Executed, Side, exit_text};
use super::verdict::{Status, Verdict};

pub struct Outcome {
    pub probe: Probe,
    pub executed: Option<Executed>,
    pub verdict: Verdict,
}

impl Outcome {
    fn ran(&self) -> Option<&Executed> {
        self.executed
            .as_ref()
            .filter(|_| self.verdict.status != Status::Skip)
    }

    fn control(&self) -> Option<&Side> {
        self.ran().and_then(|ex| ex.control.as_ref())
    }

    fn sandbox(&self) -> Option<&Side> {
        self.ran().map(|ex| &ex.sandbox)
    }

    fn duration_ms(&self) -> u64 {
        self.control().map_or(0, |c| c.out.ms) + self.sandbox().map_or(0, |s| s.out.ms)
    }
}

pub struct Header<'a> {
    pub settings: &'a Path,
    pub srt_version: &'a str,
}

/// A RULE column wider than this lets longer rules run over.
const RULE_WIDTH_MAX: usize = 48;
/// The last characters of each stderr kept in the JSON report.
const STDERR_KEPT: usize = 400;

#[derive(Default)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
    pub invalid: usize,
    pub error: usize,
    pub skipped: usize,
}

impl Counts {
    pub fn of(outcomes: &[Outcome]) -> Self {
        let mut c = Counts::default();
        for o in outcomes {
            *match o.verdict.status {
                Status::Pass => &mut c.passed,
                Status::Fail => &mut c.failed,
                Status::Invalid => &mut c.invalid,
                Status::Error => &mut c.error,
                Status::Skip => &mut c.skipped,
            } += 1;
        }
        c
    }

    pub fn any_bad(&self) -> bool {
        self.failed + self.invalid + self.error > 0
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

/// The header line, the table, the details, the summary, the counts.
pub fn print_text(header: &Header, outcomes: &[Outcome]) {
    // A failed write is judged by `main` (ui::stdout_failure).
    crate::ui::to_stdout(|out| {
        write_text(&mut AutoStream::new(out, color_choice()), header, outcomes)
    });
}

fn write_text(out: &mut impl Write, header: &Header, outcomes: &[Outcome]) -> std::io::Result<()> {
    writeln!(
        out,
        "srt {}, settings {}, {} probes",
        header.srt_version,
        header.settings.display(),
        outcomes.len()
    )?;
    let widths = Widths::of(outcomes);
    let lead = widths.lead("STATUS  ", "KIND", "RULE");
    writeln!(out, "{lead} CTL SBX     MS  PROBE")?;
    for o in outcomes {
        write_row(out, o, &widths)?;
    }
    for o in outcomes.iter().filter(|o| o.verdict.status.is_bad()) {
        write_details(out, o)?;
    }
    let c = Counts::of(outcomes);
    if outcomes.iter().any(|o| o.verdict.status != Status::Pass) {
        writeln!(out, "--- summary ---")?;
        for o in outcomes.iter().filter(|o| o.verdict.status != Status::Pass) {
            let lead = widths.lead(
                &status_cell(o.verdict.status),
                o.probe.kind(),
                &o.probe.rule,
            );
            writeln!(out, "{lead}  {}", o.verdict.reason)?;
        }
    }
    writeln!(
        out,
        "passed={} failed={} invalid={} error={} skipped={}",
        c.passed, c.failed, c.invalid, c.error, c.skipped
    )
}

struct Widths {
    kind: usize,
    rule: usize,
}

impl Widths {
    /// STATUS (already padded), KIND and RULE, each padded to its column.
    fn lead(&self, status: &str, kind: &str, rule: &str) -> String {
        format!(
            "{status} {kind:<kw$} {rule:<rw$}",
            kw = self.kind,
            rw = self.rule
        )
    }

    fn of(outcomes: &[Outcome]) -> Self {
        let widest = |f: &dyn Fn(&Outcome) -> usize| outcomes.iter().map(f).max().unwrap_or(0);
        Widths {
            kind: widest(&|o| o.probe.kind().len()).max(4),
            rule: widest(&|o| o.probe.rule.chars().count()).clamp(4, RULE_WIDTH_MAX),
        }
    }
}

/// The status padded to its column inside the colour codes, so the columns
/// line up whether or not the codes are stripped.
fn status_cell(status: Status) -> String {
    format!("{}{:<8}{RESET}", style(status), status.name())
}

fn exit_cell(side: Option<&Side>) -> String {
    side.map_or_else(|| "-".into(), |s| exit_text(s.out.exit))
}

fn write_row(out: &mut impl Write, o: &Outcome, w: &Widths) -> std::io::Result<()> {
    let (ms, probe) = match o.ran() {
        Some(_) => (o.duration_ms().to_string(), o.probe.command()),
        None => ("-".into(), o.verdict.reason.clone()),
    };
    let lead = w.lead(
        &status_cell(o.verdict.status),
        o.probe.kind(),
        &o.probe.rule,
    );
    writeln!(
        out,
        "{lead} {:>3} {:>3} {:>6}  {probe}",
        exit_cell(o.control()),
        exit_cell(o.sandbox()),
        ms
    )
}

fn write_details(out: &mut impl Write, o: &Outcome) -> std::io::Result<()> {
    let status = o.verdict.status;
    writeln!(out)?;
    writeln!(
        out,
        "{}{}{RESET} {} {}",
        style(status),
        status.name(),
        o.probe.kind(),
        o.probe.rule
    )?;
    writeln!(out, "  reason: {}", o.verdict.reason)?;
    if o.ran().is_none() {
        return Ok(());
    }
    writeln!(out, "  command: {}", o.probe.command())?;
    // Each output says whose it is: the run inside srt, or the plain one.
    for (label, side) in [("sandbox", o.sandbox()), ("control", o.control())] {
        let stderr = side.map_or("", |s| s.out.stderr.trim());
        if !stderr.is_empty() {
            writeln!(out, "  {label} stderr: {stderr}")?;
        }
    }
    Ok(())
}

/// The last `STDERR_KEPT` characters.
fn tail(text: &str) -> String {
    let count = text.chars().count();
    text.chars()
        .skip(count.saturating_sub(STDERR_KEPT))
        .collect()
}

fn result_json(o: &Outcome) -> Value {
    let exit = |s: Option<&Side>| s.and_then(|s| s.out.exit);
    let stderr = |s: Option<&Side>| s.map_or_else(String::new, |s| tail(&s.out.stderr));
    json!({
        "kind": o.probe.kind(),
        "section": o.probe.section.name(),
        "rule": o.probe.rule,
        "command": o.probe.command(),
        "expect": o.probe.expect.name(),
        "status": o.verdict.status.name(),
        "control_exit": exit(o.control()),
        "sandbox_exit": exit(o.sandbox()),
        "control_stderr": stderr(o.control()),
        "sandbox_stderr": stderr(o.sandbox()),
        "duration_ms": o.duration_ms(),
        "reason": o.verdict.reason,
    })
}

/// One JSON object: srt's version, the settings file, the counts, every
/// result.
pub fn json(header: &Header, outcomes: &[Outcome]) -> Value {
    let c = Counts::of(outcomes);
    json!({
        "srt_version": header.srt_version,
        "settings": header.settings.display().to_string(),
        "summary": {
            "total": outcomes.len(),
            "passed": c.passed,
            "failed": c.failed,
            "invalid": c.invalid,
            "error": c.error,
            "skipped": c.skipped,
        },
        "results": outcomes.iter().map(result_json).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::super::model::{Action, Expect, Section};
    use super::super::run::Output;
    use super::*;
    use std::path::PathBuf;

    fn side(exit: Option<i32>, ms: u64, stderr: &str) -> Side {
        Side {
            out: Output {
                exit,
                ms,
                stderr: stderr.into(),
                ..Output::default()
            },
            ..Side::default()
        }
    }

    fn outcome(
        section: Section,
        rule: &str,
        expect: Expect,
        action: Result<Action, String>,
        runs: Option<(Option<Side>, Side)>,
        status: Status,
        reason: &str,
    ) -> Outcome {
        Outcome {
            probe: Probe {
                section,
                rule: rule.into(),
                expect,
                action,
                drift: None,
            },
            executed: runs.map(|(control, sandbox)| Executed { control, sandbox }),
            verdict: Verdict {
                status,
                reason: reason.into(),
            },
        }
    }

    fn sample() -> Vec<Outcome> {
        let long = format!("~/{}", "x".repeat(50));
        vec![
            outcome(
                Section::DenyRead,
                "**/*.pem",
                Expect::Deny,
                Err("glob pattern: no concrete probe".into()),
                None,
                Status::Skip,
                "glob pattern: no concrete probe",
            ),
            outcome(
                Section::DenyRead,
                &long,
                Expect::Deny,
                Ok(Action::Read(PathBuf::from("/h/x"))),
                Some((Some(side(Some(0), 2, "")), side(Some(1), 561, "denied\n"))),
                Status::Pass,
                "",
            ),
            outcome(
                Section::AllowedDomains,
                "*.github.com",
                Expect::Allow,
                Ok(Action::Connect("https://twsrt-probe.github.com/".into())),
                Some((None, side(Some(56), 452, ""))),
                Status::Pass,
                "proxy answered 502",
            ),
            outcome(
                Section::DenyRead,
                "~/gone",
                Expect::Deny,
                Ok(Action::Read(PathBuf::from("/h/gone"))),
                Some((
                    Some(side(
                        Some(1),
                        40,
                        "head: cannot open '/h/gone': No such file\n",
                    )),
                    side(
                        Some(1),
                        527,
                        "head: cannot open '/h/gone': Input/output error\n",
                    ),
                )),
                Status::Invalid,
                "probe fails even without sandbox (exit 1)",
            ),
            Outcome {
                probe: Probe {
                    section: Section::DeniedDomains,
                    rule: "evil.com".into(),
                    expect: Expect::Deny,
                    action: Ok(Action::Http("https://evil.com/".into())),
                    drift: Some(crate::drift::Side::Missing),
                },
                executed: None,
                verdict: Verdict {
                    status: Status::Fail,
                    reason: "missing from the settings file".into(),
                },
            },
        ]
    }

    #[test]
    fn the_text_report_is_laid_out_like_3_3_3() {
        let header = Header {
            settings: Path::new("/h/.srt-settings.json"),
            srt_version: "0.0.83",
        };
        let mut out = Vec::new();
        write_text(&mut out, &header, &sample()).unwrap();
        let text = String::from_utf8(out).unwrap().replace(RESET, "");
        let text: String = text
            .split('\x1b')
            .enumerate()
            .map(|(i, part)| {
                if i == 0 {
                    part
                } else {
                    &part[part.find('m').unwrap() + 1..]
                }
            })
            .collect();
        let long = format!("~/{}", "x".repeat(50));
        let pad = " ".repeat(48 - "*.github.com".len());
        let curl = "curl -sS -m 10 -o /dev/null";
        // A probe that did not run (a rule the file lost) has no command
        // or output in its details; each output is labelled with its run.
        let want = format!(
            "srt 0.0.83, settings /h/.srt-settings.json, 5 probes\n\
             STATUS   KIND      RULE{rule_pad} CTL SBX     MS  PROBE\n\
             SKIP     read-deny **/*.pem{skip_pad}   -   -      -  glob pattern: no concrete probe\n\
             PASS     read-deny {long}   0   1    563  head -c 1 -- /h/x\n\
             PASS     net-allow *.github.com{pad}   -  56    452  {curl} -w '%{{http_connect}}' https://twsrt-probe.github.com/\n\
             INVALID  read-deny ~/gone{gpad}   1   1    567  head -c 1 -- /h/gone\n\
             FAIL     net-deny  evil.com{epad}   -   -      -  missing from the settings file\n\
             \n\
             INVALID read-deny ~/gone\n  \
             reason: probe fails even without sandbox (exit 1)\n  \
             command: head -c 1 -- /h/gone\n  \
             sandbox stderr: head: cannot open '/h/gone': Input/output error\n  \
             control stderr: head: cannot open '/h/gone': No such file\n\
             \n\
             FAIL net-deny evil.com\n  \
             reason: missing from the settings file\n\
             --- summary ---\n\
             SKIP     read-deny **/*.pem{skip_pad}  glob pattern: no concrete probe\n\
             INVALID  read-deny ~/gone{gpad}  probe fails even without sandbox (exit 1)\n\
             FAIL     net-deny  evil.com{epad}  missing from the settings file\n\
             passed=2 failed=1 invalid=1 error=0 skipped=1\n",
            rule_pad = " ".repeat(44),
            skip_pad = " ".repeat(40),
            gpad = " ".repeat(48 - "~/gone".len()),
            epad = " ".repeat(48 - "evil.com".len()),
        );
        assert_eq!(text, want);
    }

    #[test]
    fn json_has_the_3_3_3_keys_and_nulls_for_a_skip() {
        let header = Header {
            settings: Path::new("/h/s.json"),
            srt_version: "0.0.78",
        };
        let v = json(&header, &sample());
        let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        assert_eq!(keys(&v), ["srt_version", "settings", "summary", "results"]);
        assert_eq!(
            v["summary"],
            json!({"total": 5, "passed": 2, "failed": 1, "invalid": 1, "error": 0, "skipped": 1})
        );
        assert_eq!(
            v["results"][0],
            json!({
                "kind": "read-deny", "section": "denyRead", "rule": "**/*.pem", "command": "",
                "expect": "deny", "status": "SKIP", "control_exit": null, "sandbox_exit": null,
                "control_stderr": "", "sandbox_stderr": "", "duration_ms": 0,
                "reason": "glob pattern: no concrete probe"
            })
        );
        assert_eq!(v["results"][2]["control_exit"], Value::Null);
        assert_eq!(v["results"][2]["sandbox_exit"], 56);
        assert_eq!(v["results"][3]["duration_ms"], 567);
        assert_eq!(
            v["results"][3]["control_stderr"],
            "head: cannot open '/h/gone': No such file\n"
        );
        assert_eq!(v["results"][4]["sandbox_exit"], Value::Null);
        assert_eq!(tail(&"é".repeat(500)).chars().count(), 400);
    }
}
