//! What every check reads: the config, each registered fragment parsed once
//! with its positions ([`crate::fragment::parse_located`], kept for the
//! profiles' compiles too: [`crate::fragment::keep_positions`]), the home and
//! working directories the checks resolve paths against, and the profile
//! graph walked in the reference's order.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::config::Config;
use crate::diag::{Code, Diagnostic, Severity, Span};
use crate::error::Error;
use crate::fragment::Located;
use crate::source::SourceKind;

/// One registered fragment.
pub struct Frag {
    pub kind: SourceKind,
    pub name: String,
    pub path: PathBuf,
    /// How the report names it: relative to config.toml's directory when it
    /// lies below it, else the full path.
    pub shown: String,
    /// The parsed fragment, `None` when it could not be read or parsed.
    pub located: Option<Rc<Located>>,
    load_error: Option<LoadError>,
}

/// Why a fragment did not load: the message, and where in the file when
/// the parser said so.
struct LoadError {
    message: String,
    span: Option<Span>,
}

impl Frag {
    /// Whether `value` is silenced by a `// doctor-ignore` comment here.
    pub fn ignores(&self, value: &str) -> bool {
        self.located
            .as_ref()
            .is_some_and(|l| l.ignored.contains(value))
    }

    /// The string entries of the list at `pointer`, in order.
    pub fn list(&self, pointer: &str) -> Vec<&str> {
        let Some(located) = &self.located else {
            return Vec::new();
        };
        located
            .value
            .pointer(pointer)
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default()
    }
}

pub struct Input<'a> {
    pub config: &'a Config,
    /// `$HOME`: what `~` in a rule means.
    pub home: PathBuf,
    /// The working directory: where a launch here reads project layers.
    pub cwd: PathBuf,
    /// Registry order: sources in config order, fragments as listed.
    pub frags: Vec<Frag>,
    deny_rules: std::cell::OnceCell<Vec<(&'static str, HashSet<String>)>>,
}

impl<'a> Input<'a> {
    pub fn new(config: &'a Config) -> Self {
        // The checks compile profiles: those compiles take these parses.
        crate::fragment::keep_positions();
        let dir = config.path.parent().unwrap_or(Path::new("")).to_path_buf();
        let frags = config
            .sources
            .iter()
            .flat_map(|s| s.fragments.iter().map(move |f| (s.kind, f)))
            .map(|(kind, f)| {
                let (located, load_error) = match load(&f.path) {
                    Ok(l) => (Some(l), None),
                    Err(e) => (None, Some(e)),
                };
                Frag {
                    kind,
                    name: f.name.clone(),
                    path: f.path.clone(),
                    shown: shown(&f.path, &dir),
                    located,
                    load_error,
                }
            })
            .collect();
        Input {
            config,
            home: crate::paths::home_dir(),
            cwd: std::env::current_dir().unwrap_or_default(),
            frags,
            deny_rules: std::cell::OnceCell::new(),
        }
    }

    /// Per deny list, the normalized non-glob rules of every registered srt
    /// fragment (what a symlinked entry's real path is looked up in).
    pub fn deny_rules(&self) -> &[(&'static str, HashSet<String>)] {
        self.deny_rules.get_or_init(|| {
            let home = self.home.to_string_lossy();
            ["/filesystem/denyRead", "/filesystem/denyWrite"]
                .into_iter()
                .map(|pointer| {
                    let rules = self
                        .loaded()
                        .filter(|f| f.kind == SourceKind::Srt)
                        .flat_map(|f| f.list(pointer))
                        .filter(|e| !super::is_glob(e))
                        .map(|e| super::normalize(e, &home))
                        .collect();
                    (pointer, rules)
                })
                .collect()
        })
    }

    /// The fragment-load errors, in registry order.
    pub fn load_findings(&self) -> Vec<Diagnostic> {
        self.frags
            .iter()
            .filter_map(|f| {
                let e = f.load_error.as_ref()?;
                let found = Diagnostic::new(
                    Severity::Error,
                    Code::FragmentLoad,
                    &f.shown,
                    e.message.clone(),
                );
                Some(match e.span {
                    Some(span) => found.at(span),
                    None => found,
                })
            })
            .collect()
    }

    /// The fragments that parsed.
    pub fn loaded(&self) -> impl Iterator<Item = &Frag> {
        self.frags.iter().filter(|f| f.located.is_some())
    }

    pub fn frag(&self, kind: SourceKind, name: &str) -> Option<&Frag> {
        self.frags.iter().find(|f| f.kind == kind && f.name == name)
    }

    /// Profile names sorted, the order profile findings are reported in.
    pub fn profile_names(&self) -> Vec<&'a str> {
        let mut names = self.config.profile_names();
        names.sort_unstable();
        names
    }

    /// `name` and its ancestors, parents first, depth first in `extends`
    /// order, each once: the order resolution takes fragments in.
    pub fn lineage(&self, name: &'a str) -> Vec<&'a str> {
        let mut order = Vec::new();
        let mut seen = HashSet::new();
        self.visit(name, &mut seen, &mut order);
        order
    }

    fn visit(&self, name: &'a str, seen: &mut HashSet<&'a str>, order: &mut Vec<&'a str>) {
        if !seen.insert(name) {
            return;
        }
        if let Some((n, def)) = self.config.profiles.iter().find(|(n, _)| n == name) {
            for parent in &def.extends {
                self.visit(parent, seen, order);
            }
            order.push(n.as_str());
        }
    }

    /// The resolved fragments of `profile` for `kind`, in order.
    pub fn resolved(&self, profile: &'a str, kind: SourceKind) -> Vec<&Frag> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for p in self.lineage(profile) {
            let selected = self.config.profile(p).and_then(|d| d.selections.get(&kind));
            for name in selected.into_iter().flatten() {
                if seen.insert(name.as_str())
                    && let Some(f) = self.frag(kind, name)
                {
                    out.push(f);
                }
            }
        }
        out
    }
}

fn load(path: &Path) -> Result<Rc<Located>, LoadError> {
    let plain = |message: String| LoadError {
        message,
        span: None,
    };
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(plain(format!("JSONC source not found: {}", path.display())));
        }
        Err(e) => return Err(plain(Error::io(path, e).to_string())),
    };
    let text = crate::text_position::utf8(bytes).map_err(|at| LoadError {
        message: Error::jsonc_not_utf8(path, at).to_string(),
        span: Some(Span {
            line: at.line,
            column: at.column,
        }),
    })?;
    crate::fragment::parse_located(&text, path).map_err(|e| match e {
        Error::Jsonc {
            path,
            line,
            column,
            message,
        } => LoadError {
            message: format!(
                "{}:{line}:{column}: invalid JSON: {message}",
                path.display()
            ),
            span: Some(Span { line, column }),
        },
        other => plain(other.to_string()),
    })
}

fn shown(path: &Path, dir: &Path) -> String {
    match path.strip_prefix(dir) {
        Ok(rest) if !dir.as_os_str().is_empty() => rest.display().to_string(),
        _ => path.display().to_string(),
    }
}
