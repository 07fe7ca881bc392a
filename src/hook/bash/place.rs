//! Where the shell is while a command line runs, as far as the text makes
//! it certain: the directories relative paths may be under, and whether
//! `~` is still the home directory. A `cd` that may or may not happen (a
//! failing target, a condition, a loop) leaves every directory it may
//! leave, so a relative path is checked under each; a `cd` the text does
//! not determine (an expansion, `cd -`, `CDPATH`, `cdable_vars`), and more
//! than [`MAX_DIRS`] directories, leave the place unknown, and relative
//! operands are then undetermined. An assignment to `HOME` leaves `~`
//! unknown.

use super::super::operands::{Arg, Operand};

/// How many directories a relative path is checked under before the
/// place counts as unknown.
pub const MAX_DIRS: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The directories the shell may be in, each as text relative to the
    /// event's working directory (`` is that directory, `~/x` is below
    /// the real home); `None`: unknown.
    dirs: Option<Vec<String>>,
    /// `~` still expands to the home directory the policy knows.
    pub home_known: bool,
    /// A relative `cd` target may be searched elsewhere (`CDPATH` set,
    /// `shopt -s cdable_vars`).
    pub cd_searches: bool,
    /// `pushd`'s directory stack, as far as it is known.
    stack: Vec<Option<Vec<String>>>,
}

impl Place {
    /// The event's working directory; `cd_searches` when the environment
    /// the command inherits sets `CDPATH`.
    pub fn start(cd_searches: bool) -> Place {
        Place {
            dirs: Some(vec![String::new()]),
            home_known: true,
            cd_searches,
            stack: Vec::new(),
        }
    }

    /// Every place either of two may be.
    pub fn union(&self, other: &Place) -> Place {
        let dirs = match (&self.dirs, &other.dirs) {
            (Some(a), Some(b)) => {
                let mut all = a.clone();
                all.extend(b.iter().filter(|d| !a.contains(d)).cloned());
                (all.len() <= MAX_DIRS).then_some(all)
            }
            _ => None,
        };
        Place {
            dirs,
            home_known: self.home_known && other.home_known,
            cd_searches: self.cd_searches || other.cd_searches,
            stack: if self.stack == other.stack {
                self.stack.clone()
            } else {
                Vec::new()
            },
        }
    }

    pub fn unknown(&self) -> Place {
        Place {
            dirs: None,
            ..self.clone()
        }
    }

    /// Where a successful `cd target` goes.
    pub fn cd(&self, target: &Arg) -> Place {
        let Arg::Lit(t) = target else {
            return self.unknown();
        };
        let searched = !(t.starts_with(['/', '~'])
            || t == "."
            || t == ".."
            || t.starts_with("./")
            || t.starts_with("../"));
        if t == "-" || (searched && self.cd_searches) || (t.starts_with('~') && !self.home_known) {
            return self.unknown();
        }
        let dirs = if t.starts_with(['/', '~']) {
            Some(vec![t.trim_end_matches('/').to_string()])
        } else {
            self.dirs
                .as_ref()
                .map(|dirs| dirs.iter().map(|d| join(d, t)).collect())
        };
        Place {
            dirs,
            ..self.clone()
        }
    }

    /// `pushd target`: `cd`, remembering where it was.
    pub fn pushd(&self, target: &Arg) -> Place {
        let mut next = self.cd(target);
        next.stack.push(self.dirs.clone());
        next
    }

    /// `popd`: back where the last `pushd` was.
    pub fn popd(&self) -> Place {
        let mut next = self.clone();
        next.dirs = next.stack.pop().flatten();
        next
    }

    /// The operands a path text opens from here: one per directory, or
    /// undetermined.
    pub fn operands(&self, text: &str) -> Vec<Operand> {
        if let Some(rest) = proc_root(text) {
            return vec![Operand::Path(rest)];
        }
        let text = match proc_cwd(text) {
            Some(Ok(rest)) => rest,
            Some(Err(())) => return vec![Operand::Opaque(text.to_string())],
            None => text.to_string(),
        };
        if text.starts_with('~') {
            return vec![if self.home_known {
                Operand::Path(text)
            } else {
                Operand::Opaque(text)
            }];
        }
        if text.starts_with('/') {
            return vec![Operand::Path(text)];
        }
        match &self.dirs {
            Some(dirs) => dirs.iter().map(|d| Operand::Path(join(d, &text))).collect(),
            None => vec![Operand::Opaque(text)],
        }
    }
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() {
        path.to_string()
    } else if path.is_empty() || path == "." {
        dir.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

/// `/proc/<pid>/root/x` is `/x` (the same root for every process here).
fn proc_root(text: &str) -> Option<String> {
    let rest = text.strip_prefix("/proc/")?;
    let (_, after) = rest.split_once('/')?;
    let inner = after.strip_prefix("root")?;
    (inner.is_empty() || inner.starts_with('/'))
        .then(|| format!("/{}", inner.trim_start_matches('/')))
}

/// `/proc/self/cwd/x` is `x` from here; another process's cwd is unknown.
fn proc_cwd(text: &str) -> Option<Result<String, ()>> {
    let rest = text.strip_prefix("/proc/")?;
    let (pid, after) = rest.split_once('/').unwrap_or((rest, ""));
    let inner = after.strip_prefix("cwd")?;
    if !(inner.is_empty() || inner.starts_with('/')) {
        return None;
    }
    if pid == "self" || pid == "thread-self" {
        let rel = inner.trim_start_matches('/');
        Some(Ok(if rel.is_empty() {
            ".".into()
        } else {
            rel.into()
        }))
    } else {
        Some(Err(()))
    }
}
