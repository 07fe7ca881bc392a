//! Links and moves made earlier in the same command line: after `ln -s
//! ~/.ssh l` the path `l/id_rsa` is `~/.ssh/id_rsa`, after `mv ~/.config/gh
//! /tmp/gh` the path `/tmp/gh/hosts.yml` holds `~/.config/gh/hosts.yml`. A
//! destination that may be a directory names both itself and
//! `dir/<name of the source>`. Paths are compared lexically, each spelled
//! from the event's working directory (as [`super::place`] spells them).

use super::super::commands::Spec;
use super::super::operands::{self, Arg, Operand};
use super::Walker;

/// One name made in this line for another path.
#[derive(Debug, Clone)]
pub struct Alias {
    name: Vec<String>,
    /// What the name leads to; `None`: a path the text does not determine.
    target: Option<String>,
}

impl Walker {
    /// `ln` or `mv` with `args`: remember the names they make.
    pub(super) fn links(&mut self, name: &str, spec: &Spec, args: &[Arg]) {
        if name != "ln" && name != "mv" {
            return;
        }
        let symbolic = name == "ln" && args.iter().any(is_symbolic);
        let (mut operands, target_dir) = operands::operands_and_target(spec, args);
        let sources: Vec<Arg>;
        let mut names: Vec<Arg> = Vec::new();
        match target_dir {
            Some(dir) => {
                sources = operands;
                names.push(dir);
            }
            None if operands.len() >= 2 => {
                names.extend(operands.pop());
                sources = operands;
            }
            None if name == "ln" => {
                sources = operands;
                names.push(Arg::Lit(".".into()));
            }
            None => return,
        }
        let before = self.aliases.len();
        for source in &sources {
            for made in &names {
                self.alias(source, made, symbolic, before);
            }
        }
    }

    /// `made` (or `made/<source's name>`) now leads to `source`, and to
    /// where the first `known` aliases lead `source`.
    fn alias(&mut self, source: &Arg, made: &Arg, symbolic: bool, known: usize) {
        let Arg::Lit(made) = made else { return };
        let base = match source {
            Arg::Lit(s) => s.trim_end_matches('/').rsplit('/').next().unwrap_or(s),
            Arg::Unknown(_) => "",
        };
        let mut spelled = vec![made.clone()];
        if !base.is_empty() {
            spelled.push(format!("{}/{base}", made.trim_end_matches('/')));
        }
        for spelling in spelled {
            for link in self.place.operands(&spelling) {
                let Operand::Path(link) = link else { continue };
                let targets = match source {
                    // A relative symlink target is taken from the link's
                    // directory, anything else from the working directory.
                    Arg::Lit(s) if symbolic && !s.starts_with(['/', '~']) => {
                        let dir = link.rsplit_once('/').map_or("", |(d, _)| d);
                        vec![Some(if dir.is_empty() {
                            s.clone()
                        } else {
                            format!("{dir}/{s}")
                        })]
                    }
                    Arg::Lit(s) => self
                        .place
                        .operands(s)
                        .into_iter()
                        .map(|o| match o {
                            Operand::Path(p) => Some(p),
                            _ => None,
                        })
                        .collect(),
                    Arg::Unknown(_) => vec![None],
                };
                let name = segments(&link);
                // `ln -s x .` makes `./x`, not a new name for `.`.
                if name.is_empty() || name == ["/"] || name == ["~"] {
                    continue;
                }
                let mut all = Vec::new();
                for target in targets {
                    // A link to a link leads where that one does too.
                    if let Some(t) = &target {
                        all.extend(through(&self.aliases[..known], t));
                    }
                    all.push(target);
                }
                for target in all {
                    self.aliases.push(Alias {
                        name: name.clone(),
                        target,
                    });
                }
            }
        }
    }

    /// The glob `pattern` (spelled as the aliases are) could pass through
    /// a name this line made: its segments match the name's, pattern
    /// segments matching any name (a leading `.` too).
    pub(super) fn glob_through_aliases(&self, pattern: &str) -> bool {
        let spelled = segments(pattern);
        self.aliases.iter().any(|a| {
            a.name.len() <= spelled.len()
                && a.name.iter().zip(&spelled).all(|(n, p)| {
                    n == p
                        || (p.contains(['*', '?', '['])
                            && crate::srt::glob::segment_matches(
                                p,
                                n,
                                crate::srt::glob::Classes::Bash,
                            ))
                })
        })
    }

    /// What `path` also is through the aliases made so far (each at most
    /// once; an alias made from an alias was resolved when it was made).
    pub(super) fn through_aliases(&self, path: &str) -> Vec<Option<String>> {
        through(&self.aliases, path)
    }
}

/// What `path` also is through `aliases`.
fn through(aliases: &[Alias], path: &str) -> Vec<Option<String>> {
    let spelled = segments(path);
    aliases
        .iter()
        .filter(|a| spelled.starts_with(&a.name))
        .map(|a| {
            let rest = spelled[a.name.len()..].join("/");
            a.target.as_ref().map(|t| {
                if rest.is_empty() {
                    t.clone()
                } else {
                    format!("{}/{rest}", t.trim_end_matches('/'))
                }
            })
        })
        .collect()
}

/// `ln -s`, `ln -sf`, `ln --symbolic`.
fn is_symbolic(arg: &Arg) -> bool {
    match arg {
        Arg::Lit(t) if t == "--symbolic" => true,
        Arg::Lit(t) => t.starts_with('-') && !t.starts_with("--") && t.contains('s'),
        Arg::Unknown(_) => false,
    }
}

/// A path's segments after lexical normalisation: `.` and empty segments
/// dropped, `..` taking the one before it; a leading `/` or `~` kept.
fn segments(path: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if path.starts_with('/') {
        out.push("/".into());
    }
    for s in path.split('/') {
        match s {
            "" | "." => {}
            ".." if out
                .last()
                .is_some_and(|l| l != ".." && l != "/" && l != "~") =>
            {
                out.pop();
            }
            _ => out.push(s.to_string()),
        }
    }
    out
}
