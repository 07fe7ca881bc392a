//! The path half of the Codex prover: each denyRead and denyWrite rule put
//! to `codex sandbox` (the user's config.toml, its `twsrt` profile, the
//! current directory as the workspace), all in one sandboxed `sh -c`.
//!
//! What is asked, per rule (its path from [`sample_paths`]):
//! * denyRead: one byte of the file read (`head -c 1`, the byte thrown
//!   away: no content is ever shown); a directory's first file, or a file
//!   planted in it;
//! * denyWrite: an existing file opened for appending (nothing is
//!   written), or a new file made with `set -C` in a directory (removed
//!   again if Codex let it be made);
//! * a glob: its sample at the top of the workspace, planted when absent.
//!
//! PASS when the command fails inside Codex's sandbox, FAIL when it
//! succeeds; SKIP when nothing can be asked (the path missing, or not
//! readable or writable outside the sandbox either). Every planted file is
//! removed.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::agent::prove::{Judged, Rule, sample_paths};
use crate::shellwords::quote;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Ask {
    Read,
    Append,
    Create,
}

struct Probe {
    rule: usize,
    ask: Ask,
    path: PathBuf,
    /// A file twsrt made for the probe, removed afterwards.
    planted: bool,
}

/// One verdict per rule of `rules` that is a path rule, `None` for the rest.
pub fn prove(codex: &Path, rules: &[Rule], home: &Path, cwd: &Path) -> Vec<Option<Judged>> {
    let mut out: Vec<Option<Judged>> = rules.iter().map(|_| None).collect();
    let mut probes = Vec::new();
    for (i, r) in rules.iter().enumerate() {
        if r.section != "filesystem" {
            continue;
        }
        match probe_for(i, r, home, cwd) {
            Ok(p) => probes.push(p),
            Err(why) => out[i] = Some(Judged::new("SKIP", why)),
        }
    }
    if probes.is_empty() {
        return out;
    }
    let script: String = probes.iter().enumerate().map(|(n, p)| line(n, p)).collect();
    let ran = Command::new(codex)
        .args(["sandbox", "--", "sh", "-c", &script])
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output();
    for p in &probes {
        if p.planted || (p.ask == Ask::Create && p.path.is_file()) {
            let _ = fs::remove_file(&p.path);
        }
    }
    let (stdout, stderr) = match ran {
        Ok(o) => (
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        Err(e) => (
            String::new(),
            format!("cannot run {}: {e}", codex.display()),
        ),
    };
    for (n, p) in probes.iter().enumerate() {
        out[p.rule] = Some(judge(p, rc_of(&stdout, n), &stderr));
    }
    out
}

/// The exit code the script printed for probe `n`.
fn rc_of(stdout: &str, n: usize) -> Option<i32> {
    let tag = format!("@@{n} ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&tag))
        .and_then(|rc| rc.trim().parse().ok())
}

fn line(n: usize, p: &Probe) -> String {
    let q = quote(&p.path.to_string_lossy());
    let command = match p.ask {
        Ask::Read => format!("head -c 1 -- {q} >/dev/null"),
        Ask::Append => format!("(: >> {q})"),
        Ask::Create => format!("(set -C; : > {q})"),
    };
    format!("{command} 2>/dev/null; echo \"@@{n} $?\"\n")
}

fn judge(p: &Probe, rc: Option<i32>, stderr: &str) -> Judged {
    let what = match p.ask {
        Ask::Read => "reading",
        Ask::Append => "opening for writing",
        Ask::Create => "creating",
    };
    let path = p.path.display();
    match rc {
        Some(0) => Judged::new("FAIL", format!("Codex's sandbox allowed {what} {path}")),
        Some(rc) => Judged::new(
            "PASS",
            format!("Codex's sandbox refused {what} {path} (exit {rc})"),
        ),
        None => {
            let said: Vec<&str> = stderr
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with("WARNING"))
                .take(2)
                .collect();
            Judged::new(
                "FAIL",
                format!(
                    "codex sandbox ran no probe (the sandbox did not start?): {}",
                    said.join(" | ")
                ),
            )
        }
    }
}

/// What to ask for rule `r`, or why nothing can be.
fn probe_for(index: usize, r: &Rule, home: &Path, cwd: &Path) -> Result<Probe, String> {
    let read = r.list == "denyRead";
    let glob = r.rule.contains(['*', '?', '[']);
    let samples = sample_paths(&r.rule, home, cwd);
    let path = if glob {
        samples.last().cloned()
    } else {
        samples.first().cloned()
    }
    .ok_or("no path to ask about")?;
    let probe = |ask, path, planted| Probe {
        rule: index,
        ask,
        path,
        planted,
    };
    let planted_name = format!("twsrt-probe-{}", std::process::id());
    if path.is_file() {
        let ask = if read { Ask::Read } else { Ask::Append };
        control(&path, ask)?;
        return Ok(probe(ask, path, false));
    }
    if path.is_dir() && !glob {
        if !read {
            return Ok(probe(Ask::Create, path.join(planted_name), false));
        }
        if let Some(file) = first_file(&path) {
            control(&file, Ask::Read)?;
            return Ok(probe(Ask::Read, file, false));
        }
        let file = path.join(planted_name);
        plant(&file)?;
        return Ok(probe(Ask::Read, file, true));
    }
    if path.exists() {
        return Err(format!(
            "{} is neither a file nor a directory",
            path.display()
        ));
    }
    let parent_exists = path.parent().is_some_and(Path::is_dir);
    if glob && parent_exists {
        plant(&path)?;
        let ask = if read { Ask::Read } else { Ask::Append };
        return Ok(probe(ask, path, true));
    }
    Err(format!(
        "{} does not exist: nothing to ask Codex about",
        path.display()
    ))
}

/// The directory's first regular file (by name), not below it.
fn first_file(dir: &Path) -> Option<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    entries.into_iter().find(|p| p.is_file())
}

/// The access works outside the sandbox, so a refusal inside is Codex's.
fn control(path: &Path, ask: Ask) -> Result<(), String> {
    let opened = match ask {
        Ask::Read => fs::File::open(path).map(drop),
        _ => fs::OpenOptions::new().append(true).open(path).map(drop),
    };
    opened.map_err(|e| {
        format!(
            "{} cannot be opened outside Codex's sandbox either ({e}): nothing to compare",
            path.display()
        )
    })
}

fn plant(path: &Path) -> Result<(), String> {
    fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map(drop)
        .map_err(|e| format!("cannot plant a probe file at {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_quotes_each_path_and_tags_its_exit_code() {
        let p = Probe {
            rule: 0,
            ask: Ask::Append,
            path: PathBuf::from("/h/it's"),
            planted: false,
        };
        let line = line(3, &p);
        assert!(line.starts_with("(: >> '/h/it'\\''s')"), "{line}");
        assert!(line.ends_with("echo \"@@3 $?\"\n"), "{line}");
        assert_eq!(rc_of("x\n@@3 1\n@@4 0\n", 3), Some(1));
        assert_eq!(rc_of("@@4 0\n", 4), Some(0));
        assert_eq!(rc_of("", 0), None);
    }

    #[test]
    fn a_refusal_passes_a_success_fails_and_no_answer_fails() {
        let p = Probe {
            rule: 0,
            ask: Ask::Read,
            path: PathBuf::from("/h/.ssh/id"),
            planted: false,
        };
        assert_eq!(judge(&p, Some(1), "").verdict, "PASS");
        assert_eq!(judge(&p, Some(0), "").verdict, "FAIL");
        let broken = judge(&p, None, "WARNING: x\nbwrap: Can't bind mount\n");
        assert_eq!(broken.verdict, "FAIL");
        assert!(
            broken.detail.contains("bwrap: Can't bind mount"),
            "{}",
            broken.detail
        );
    }
}
