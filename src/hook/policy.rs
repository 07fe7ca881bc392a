//! The two lists the hook compares with, taken from the compiled policy:
//! srt's `filesystem.denyRead` and the compiled `filesystem.denyWrite`
//! (which already holds every denyRead entry and the policy files). Each
//! entry is spelled as written (for the reason shown), and as an absolute
//! path split into segments, once as written and once with its existing
//! symlinks followed, so an entry that is itself a link is still caught.
//! The bash deny and ask rules are kept as written, for the meaning match
//! ([`super::meaning`]).
//!
//! A hard link has no path to compare: an operand that is a file with more
//! than one name is looked up by device and inode among the protected
//! files ([`Policy::hard_link`]), which are found by walking the entries
//! once per event, only when such an operand comes up.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::compile::Compiled;
use crate::paths::{absolute_normalised, resolve_symlinks};
use crate::rules::{Action, Scope, select};

use super::matcher;

/// One policy entry.
#[derive(Debug, Clone)]
pub struct Entry {
    written: String,
    spellings: Vec<Vec<String>>,
    /// Not the policy's own: a file that can switch the guard off
    /// ([`Policy::guard_also`]).
    guard: bool,
    /// Names only the path itself, not what lies below it (a folder that
    /// must not be replaced, whose other files are not protected).
    exact: bool,
}

impl Entry {
    fn new(written: &str, cwd: &Path, home: &Path) -> Entry {
        let text = expand_home(written, home);
        let spellings = if text.starts_with("**") {
            // srt matches a leading `**` anywhere, whatever the directory.
            vec![split_owned(&text)]
        } else {
            let lexical = absolute_normalised(Path::new(&text), cwd);
            let real = resolve_symlinks(&lexical);
            let mut out = vec![split_owned(&lexical.to_string_lossy())];
            if real != lexical {
                out.push(split_owned(&real.to_string_lossy()));
            }
            out
        };
        Entry {
            written: written.to_string(),
            spellings,
            guard: false,
            exact: false,
        }
    }

    /// The entry is a guard file the hook adds, not one the policy lists.
    pub fn is_guard(&self) -> bool {
        self.guard
    }

    pub fn written(&self) -> &str {
        &self.written
    }

    /// The entry's spellings, each as absolute segments (or `**` first).
    pub fn segments(&self) -> &[Vec<String>] {
        &self.spellings
    }

    /// `path` (segments of an absolute path) is this entry or below it.
    pub fn covers(&self, path: &[&str]) -> bool {
        if self.exact {
            // A last segment no path holds: the entry must end where the
            // path does.
            let end = "\0";
            let mut path = path.to_vec();
            path.push(end);
            return self.spellings.iter().any(|s| {
                let mut s = s.clone();
                s.push(end.to_string());
                matcher::covers(&s, &path)
            });
        }
        self.spellings.iter().any(|s| matcher::covers(s, path))
    }

    /// This entry lies strictly below `path`. An entry that starts with
    /// `**` names files anywhere: every directory could hold one, so it
    /// would make every recursive command ask; it is checked on the files
    /// a command names, not on the walks.
    pub fn below(&self, path: &[&str]) -> bool {
        self.spellings
            .iter()
            .filter(|s| s.first().is_none_or(|f| f != "**"))
            .any(|s| matcher::below(s, path))
    }
}

/// The policy as the hook reads it, for one event's working directory.
#[derive(Debug, Clone)]
pub struct Policy {
    home: PathBuf,
    deny_read: Vec<Entry>,
    deny_write: Vec<Entry>,
    linked: OnceCell<Linked>,
    /// [`MAX_WALKED`], smaller in tests.
    walk_budget: usize,
    /// The bash deny and ask rules, as written (see [`super::meaning`]).
    bash_deny: Vec<String>,
    bash_ask: Vec<String>,
}

/// How many directory entries the walk for hard links visits at most, over
/// all policy entries together. Past it the index is incomplete and a file
/// with several names that it does not hold cannot be told apart from a
/// protected one.
pub const MAX_WALKED: usize = 20_000;

/// The protected files with more than one name, by (device, inode).
#[derive(Debug, Clone, Default)]
struct Linked {
    files: HashMap<(u64, u64), PathBuf>,
    /// Why the walk did not see every protected file, when it did not.
    incomplete: Option<String>,
}

/// What an operand is, as far as hard links go.
#[derive(Debug, PartialEq, Eq)]
pub enum HardLink {
    /// Not a file with several names, or none of them is protected.
    No,
    /// Another name of this protected file.
    Of(PathBuf),
    /// A file with several names that the walk could not rule out.
    Unknown(String),
}

impl Policy {
    /// The entries of `compiled`, relative ones taken from `cwd`.
    pub fn new(compiled: &Compiled, home: &Path, cwd: &Path) -> Policy {
        let rules = compiled.rules();
        let entries = |scope| {
            select(&rules, scope, Action::Deny)
                .map(|r| Entry::new(r.pattern, cwd, home))
                .collect()
        };
        let bash = |action| {
            select(&rules, Scope::Execute, action)
                .map(|r| r.pattern.to_string())
                .collect()
        };
        Policy {
            home: home.to_path_buf(),
            deny_read: entries(Scope::Read),
            deny_write: entries(Scope::Write),
            linked: OnceCell::new(),
            walk_budget: MAX_WALKED,
            bash_deny: bash(Action::Deny),
            bash_ask: bash(Action::Ask),
        }
    }

    /// A policy from lists (tests).
    #[cfg(test)]
    pub fn from_lists(home: &Path, cwd: &Path, read: &[&str], write: &[&str]) -> Policy {
        let all = |list: &[&str]| list.iter().map(|p| Entry::new(p, cwd, home)).collect();
        let mut write: Vec<&str> = write.to_vec();
        write.extend_from_slice(read);
        Policy {
            home: home.to_path_buf(),
            deny_read: all(read),
            deny_write: all(&write),
            linked: OnceCell::new(),
            walk_budget: MAX_WALKED,
            bash_deny: Vec::new(),
            bash_ask: Vec::new(),
        }
    }

    /// The same policy with these bash deny and ask rules (tests).
    #[cfg(test)]
    pub fn with_bash_rules(mut self, deny: &[&str], ask: &[&str]) -> Policy {
        let own = |list: &[&str]| list.iter().map(|r| r.to_string()).collect();
        self.bash_deny = own(deny);
        self.bash_ask = own(ask);
        self
    }

    /// The same policy with a smaller walk for hard links (tests).
    #[cfg(test)]
    pub fn with_walk_budget(mut self, budget: usize) -> Policy {
        self.walk_budget = budget;
        self
    }

    /// Write-deny `paths` too (absolute), as written.
    pub fn deny_writes_also(&mut self, paths: &[PathBuf], cwd: &Path) {
        let home = self.home.clone();
        self.deny_write.extend(
            paths
                .iter()
                .map(|p| Entry::new(&p.to_string_lossy(), cwd, &home)),
        );
    }

    /// Write-deny `entries` too (as rules are written: `~/`, `**/`,
    /// absolute): the files that can switch the guard off or change what
    /// the agent loads, which no policy needs to list.
    /// An entry ending in `/.` names only that path (the folder itself,
    /// not its files).
    pub fn guard_also(&mut self, entries: &[String], cwd: &Path) {
        let home = self.home.clone();
        self.deny_write.extend(entries.iter().map(|p| {
            let (text, exact) = match p.strip_suffix("/.") {
                Some(folder) => (folder, true),
                None => (p.as_str(), false),
            };
            Entry {
                guard: true,
                exact,
                ..Entry::new(text, cwd, &home)
            }
        }));
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    pub fn deny_read(&self) -> &[Entry] {
        &self.deny_read
    }

    pub fn deny_write(&self) -> &[Entry] {
        &self.deny_write
    }

    /// The bash deny rules, as written.
    pub fn bash_deny(&self) -> &[String] {
        &self.bash_deny
    }

    /// The bash ask rules, as written.
    pub fn bash_ask(&self) -> &[String] {
        &self.bash_ask
    }

    /// Whether the file `path` opens is another name of a protected file:
    /// only a file (not a directory) with a link count above one is looked
    /// up, so the walk over the entries happens at most once per event and
    /// only when such a file is named.
    pub fn hard_link(&self, path: &Resolved) -> HardLink {
        let Ok(meta) = std::fs::metadata(&path.real) else {
            return HardLink::No;
        };
        if meta.is_dir() || meta.nlink() < 2 {
            return HardLink::No;
        }
        let linked = self.linked.get_or_init(|| self.walk_for_links());
        match linked.files.get(&(meta.dev(), meta.ino())) {
            Some(file) => HardLink::Of(file.clone()),
            None => match &linked.incomplete {
                Some(why) => HardLink::Unknown(format!(
                    "it has {} names and {why}, so the hook cannot tell whether it is a protected file",
                    meta.nlink()
                )),
                None => HardLink::No,
            },
        }
    }

    /// The protected file with more than one name that is (`dev`, `ino`),
    /// or why the index may lack it (`Err`), or `Ok(None)`.
    pub fn linked_file(&self, dev: u64, ino: u64) -> Result<Option<&Path>, &str> {
        let linked = self.linked.get_or_init(|| self.walk_for_links());
        match linked.files.get(&(dev, ino)) {
            Some(file) => Ok(Some(file)),
            None => match &linked.incomplete {
                Some(why) => Err(why),
                None => Ok(None),
            },
        }
    }

    /// No protected file has a second name (and the index is complete):
    /// a walk need not look at inodes.
    pub fn no_linked_files(&self) -> bool {
        let linked = self.linked.get_or_init(|| self.walk_for_links());
        linked.files.is_empty() && linked.incomplete.is_none()
    }

    /// Every file with several names under the denyWrite entries (which
    /// hold the denyRead ones), as each entry's real path spells it.
    /// Symlinks inside are not followed (they name other paths, compared by
    /// path); entries with glob characters name files anywhere and are not
    /// walked.
    fn walk_for_links(&self) -> Linked {
        let mut linked = Linked::default();
        let mut budget = self.walk_budget;
        let mut stack: Vec<PathBuf> = self
            .deny_write
            .iter()
            .filter_map(|e| Some((e.guard, e.spellings.last()?)))
            .filter(|(_, s)| !s.iter().any(|seg| seg.contains(['*', '?', '['])))
            .map(|(guard, s)| (guard, PathBuf::from(format!("/{}", s.join("/")))))
            // A guard directory (the agent's own config folder) is large
            // and holds nothing a policy protects by inode; its files are.
            .filter(|(guard, p)| !guard || p.is_file())
            .map(|(_, p)| p)
            .collect();
        while let Some(path) = stack.pop() {
            let Ok(meta) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if meta.is_dir() {
                let entries = match std::fs::read_dir(&path) {
                    Ok(entries) => entries,
                    Err(e) => {
                        linked.incomplete =
                            Some(format!("{} cannot be listed ({e})", path.display()));
                        continue;
                    }
                };
                for entry in entries.flatten() {
                    if budget == 0 {
                        linked.incomplete = Some(format!(
                            "the protected directories hold more than {} entries",
                            self.walk_budget
                        ));
                        return linked;
                    }
                    budget -= 1;
                    stack.push(entry.path());
                }
            } else if meta.is_file() && meta.nlink() > 1 {
                linked.files.entry((meta.dev(), meta.ino())).or_insert(path);
            }
        }
        linked
    }
}

/// An operand as the command will open it: absolute, and with its existing
/// symlinks followed.
pub struct Resolved {
    lexical: String,
    real: String,
}

impl Resolved {
    /// A path already absolute and real (a protected file found by the walk).
    pub fn of_real(path: &Path) -> Resolved {
        let text = path.to_string_lossy().into_owned();
        Resolved {
            lexical: text.clone(),
            real: text,
        }
    }
}

impl Resolved {
    /// Both spellings, as segments.
    pub fn spellings(&self) -> impl Iterator<Item = Vec<&str>> {
        [split(&self.lexical), split(&self.real)].into_iter()
    }

    /// The spelling with links followed.
    pub fn real(&self) -> &str {
        &self.real
    }

    /// It is an existing directory (links followed).
    pub fn is_dir(&self) -> bool {
        Path::new(&self.real).is_dir()
    }
}

/// `text` (a literal operand, `~` and `~/` still unexpanded) against `cwd`.
pub fn resolve(text: &str, cwd: &Path, home: &Path) -> Resolved {
    let expanded = expand_home(text, home);
    let lexical = absolute_normalised(Path::new(&expanded), cwd);
    // Following links before removing `..` is what the kernel does; the
    // lexical spelling is kept too, for a path the text names directly.
    let real = resolve_symlinks(&cwd.join(&expanded));
    Resolved {
        lexical: lexical.to_string_lossy().into_owned(),
        real: real.to_string_lossy().into_owned(),
    }
}

/// `~` and `~/...` with the home directory, as the shell expands them.
pub fn expand_home(text: &str, home: &Path) -> String {
    let home = home.to_string_lossy();
    if text == "~" {
        return home.into_owned();
    }
    match text.strip_prefix("~/") {
        Some(rest) => format!("{}/{rest}", home.trim_end_matches('/')),
        None => text.to_string(),
    }
}

fn split(path: &str) -> Vec<&str> {
    path.split('/').filter(|s| !s.is_empty()).collect()
}

fn split_owned(path: &str) -> Vec<String> {
    split(path).into_iter().map(String::from).collect()
}
