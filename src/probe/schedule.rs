//! Which probes may run at the same time.
//!
//! Every srt run looks at the host tree while it builds its sandbox: it
//! checks which deny paths exist, scans the working directory for dangerous
//! files with ripgrep, and for each deny path that does not exist yet (under
//! a writable directory) bubblewrap creates an empty placeholder file that
//! srt removes when the run ends. Two runs that overlap then race: one run
//! removes a placeholder the other is about to bind (`bwrap: Can't find
//! source path`), or unbinds it while the other runs. Probes that create
//! files (a write probe, a witness for a glob) change the tree the same way.
//!
//! So each probe claims what it touches: a key per placeholder path
//! (exclusive: every srt run creates and removes it), and the host tree
//! itself (shared by every srt run, exclusive for a probe that creates a
//! file). [`run_all`] never starts a probe whose claims conflict with a
//! running one, and otherwise keeps the report order.

use std::path::{Path, PathBuf};
use std::sync::{Condvar, Mutex};

use serde_json::Value;

use super::derive::{ProbeSite, list};
use super::model::{Action, Probe, Section};
use crate::srt::glob;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Shared,
    Exclusive,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub key: PathBuf,
    pub mode: Use,
}

/// Two probes conflict when they claim one key and either claims it
/// exclusively.
pub fn conflicts(a: &[Claim], b: &[Claim]) -> bool {
    a.iter().any(|x| {
        b.iter()
            .any(|y| x.key == y.key && (x.mode == Use::Exclusive || y.mode == Use::Exclusive))
    })
}

/// The key standing for "the host tree as srt sees it".
const TREE: &str = "<the host tree srt inspects>";

/// srt's own deny list in the working directory (Linux, 0.0.78-0.0.83).
const MANDATORY: [&str; 12] = [
    ".gitconfig",
    ".gitmodules",
    ".bashrc",
    ".bash_profile",
    ".zshrc",
    ".zprofile",
    ".profile",
    ".ripgreprc",
    ".mcp.json",
    ".vscode",
    ".idea",
    ".claude/commands",
];

/// The placeholder files srt runs may create: each deny path (the
/// settings' literal ones and srt's own) that does not exist, where its
/// nearest existing ancestor lies in a writable directory; the placeholder
/// is the first missing component. Errs on the side of listing too much.
pub fn placeholders(settings: &Value, ctx: &ProbeSite) -> Vec<PathBuf> {
    let writable: Vec<PathBuf> = list(settings, Section::AllowWrite)
        .iter()
        .filter(|a| !a.is_empty() && !glob::has_glob_chars(a))
        .map(|a| ctx.absolute(a))
        .collect();
    let mut denies: Vec<PathBuf> = [Section::DenyRead, Section::DenyWrite]
        .iter()
        .flat_map(|s| list(settings, *s))
        .filter(|d| !d.is_empty() && !glob::has_glob_chars(d))
        .map(|d| ctx.absolute(&d))
        .collect();
    denies.extend(MANDATORY.iter().map(|m| ctx.cwd.join(m)));
    denies.push(ctx.cwd.join(".claude/agents"));
    let mut out: Vec<PathBuf> = Vec::new();
    for deny in denies {
        if let Some(stub) = first_missing(&deny)
            && stub
                .parent()
                .is_some_and(|p| writable.iter().any(|w| p.starts_with(w)))
            && !out.contains(&stub)
        {
            out.push(stub);
        }
    }
    out
}

/// The outermost component of `path` that does not exist (None when the
/// whole path exists).
fn first_missing(path: &Path) -> Option<PathBuf> {
    if std::fs::symlink_metadata(path).is_ok() {
        return None;
    }
    let mut missing = path.to_path_buf();
    while let Some(parent) = missing.parent() {
        if std::fs::symlink_metadata(parent).is_ok() {
            break;
        }
        missing = parent.to_path_buf();
    }
    Some(missing)
}

/// What one probe claims (nothing for one that does not run).
pub fn claims(probe: &Probe, placeholders: &[PathBuf]) -> Vec<Claim> {
    let action = match &probe.action {
        Ok(action) if probe.runs() => action,
        _ => return Vec::new(),
    };
    let tree = match action {
        Action::Create { .. } => Use::Exclusive,
        _ => Use::Shared,
    };
    let mut out = vec![Claim {
        key: PathBuf::from(TREE),
        mode: tree,
    }];
    out.extend(placeholders.iter().map(|p| Claim {
        key: p.clone(),
        mode: Use::Exclusive,
    }));
    out
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

struct State {
    /// Not started yet, in report order.
    pending: Vec<usize>,
    running: Vec<usize>,
}

/// Run `work(i)` for every item, at most `jobs` at a time, never two at
/// once whose claims conflict. Results come back in item order.
pub fn run_all<T: Send>(
    claims: &[Vec<Claim>],
    jobs: usize,
    work: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let state = Mutex::new(State {
        pending: (0..claims.len()).collect(),
        running: Vec::new(),
    });
    let changed = Condvar::new();
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..claims.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, claims.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let mut st = lock(&state);
                    let i = loop {
                        if st.pending.is_empty() {
                            return;
                        }
                        let free = st.pending.iter().position(|&i| {
                            st.running
                                .iter()
                                .all(|&r| !conflicts(&claims[i], &claims[r]))
                        });
                        match free {
                            Some(at) => break st.pending.remove(at),
                            None => st = changed.wait(st).unwrap_or_else(|e| e.into_inner()),
                        }
                    };
                    st.running.push(i);
                    drop(st);
                    let result = work(i);
                    lock(&results)[i] = Some(result);
                    lock(&state).running.retain(|&r| r != i);
                    changed.notify_all();
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item ran"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::model::Expect;
    use super::*;
    use serde_json::json;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    fn claim(key: &str, mode: Use) -> Claim {
        Claim {
            key: PathBuf::from(key),
            mode,
        }
    }

    /// Runs every item with a pause, logging start and end ticks, and
    /// checks that no two items whose claims conflict were ever running at
    /// once; returns the most items seen running together.
    fn overlaps(claims: &[Vec<Claim>], jobs: usize) -> usize {
        let clock = AtomicUsize::new(0);
        let live = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let spans = run_all(claims, jobs, |i| {
            let start = clock.fetch_add(1, Ordering::SeqCst);
            let now = live.fetch_add(1, Ordering::SeqCst) + 1;
            peak.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(5 + (i % 3) as u64 * 3));
            live.fetch_sub(1, Ordering::SeqCst);
            (i, start, clock.fetch_add(1, Ordering::SeqCst))
        });
        for (k, &(i, s1, e1)) in spans.iter().enumerate() {
            assert_eq!(i, k, "results come back in item order");
            for &(j, s2, e2) in &spans[k + 1..] {
                let overlap = s1 < e2 && s2 < e1;
                assert!(
                    !(overlap && conflicts(&claims[i], &claims[j])),
                    "items {i} and {j} share a claim and overlapped: {:?} {:?}",
                    claims[i],
                    claims[j]
                );
            }
        }
        peak.load(Ordering::SeqCst)
    }

    #[test]
    fn probes_that_share_a_path_never_overlap() {
        use Use::*;
        let tree = |m| claim(TREE, m);
        // Readers share the tree; a probe that creates a file has it alone;
        // placeholder paths are every srt run's alone.
        let mut claims = Vec::new();
        for i in 0..24 {
            claims.push(match i % 6 {
                0 => vec![tree(Exclusive)],
                1 => vec![tree(Shared), claim("/w/.gitconfig", Exclusive)],
                2 => vec![],
                _ => vec![tree(Shared)],
            });
        }
        overlaps(&claims, 4);
        // Without any exclusive claim the jobs really run side by side.
        let readers: Vec<Vec<Claim>> = (0..8).map(|_| vec![tree(Shared)]).collect();
        assert!(overlaps(&readers, 4) > 1);
        // A placeholder path in every claim set makes the runs one at a time.
        let stubbed: Vec<Vec<Claim>> = (0..8)
            .map(|_| vec![tree(Shared), claim("/w/.bashrc", Exclusive)])
            .collect();
        assert_eq!(overlaps(&stubbed, 4), 1);
    }

    #[test]
    fn claims_follow_what_a_probe_touches() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(cwd.join(".claude")).unwrap();
        std::fs::write(cwd.join(".bashrc"), "").unwrap();
        let ctx = ProbeSite::new(cwd.clone(), true);
        let settings = json!({"filesystem": {
            "denyRead": [],
            "denyWrite": ["missing/deep/file", "/elsewhere/x"],
            "allowWrite": ["."]
        }});
        let stubs = placeholders(&settings, &ctx);
        // The first missing component, each once; /elsewhere is not
        // writable, so srt stubs nothing there; existing files need none.
        assert!(stubs.contains(&cwd.join("missing")));
        assert!(stubs.contains(&cwd.join(".gitconfig")));
        assert!(stubs.contains(&cwd.join(".claude/commands")));
        assert!(!stubs.contains(&cwd.join(".bashrc")));
        assert!(!stubs.iter().any(|s| s.starts_with("/elsewhere")));
        let not_writable = json!({"filesystem": {"allowWrite": ["/nonexistent-root"]}});
        assert!(placeholders(&not_writable, &ctx).is_empty());

        let probe = |action| Probe {
            section: Section::DenyWrite,
            rule: "r".into(),
            expect: Expect::Deny,
            action,
            drift: None,
        };
        let create = probe(Ok(Action::Create {
            file: cwd.join("f"),
            dirs: vec![],
        }));
        let read = probe(Ok(Action::Read(cwd.join("f"))));
        let skip = probe(Err("no".into()));
        assert!(conflicts(&claims(&create, &[]), &claims(&read, &[])));
        assert!(!conflicts(&claims(&read, &[]), &claims(&read, &[])));
        assert!(conflicts(&claims(&read, &stubs), &claims(&read, &stubs)));
        assert!(claims(&skip, &stubs).is_empty());
    }
}
