//! OpenCode's row in `twsrt explain`, decided on the `permission` entries
//! `generate` writes, evaluated as OpenCode evaluates them: the tool's
//! permission checks for the access (a path outside the launch directory
//! first asks `external_directory` with its directory and `/*`, then the
//! tool's own key with the path relative to the launch directory), the
//! last matching entry deciding each ([`super::pattern`]). One layer,
//! `permission`, rank 50. Shown only when `[targets] opencode_config` is
//! set.

use std::path::{Component, Path, PathBuf};

use super::mapping::{Entry, FLAT_KEY, Verdict as Action};
use super::merge::{self, Rule};
use super::pattern;
use crate::agent::Ctx;
use crate::drift::access::{Decision, Verdict};
use crate::explain::{ExplainLayers, Layer, Subject};
use crate::srt::path::Places;

static PERMISSION: Layer = Layer {
    rank: 50,
    layer: "permission",
    agent: "opencode",
};

/// The generated entries, or why they could not be rendered.
pub struct Layers {
    rendered: Result<(Vec<Rule>, Vec<Entry>), String>,
    home: PathBuf,
    cwd: PathBuf,
}

impl Layers {
    /// Render the entries for `ctx`. A policy that does not render is no
    /// error here: the row says why.
    pub fn of(ctx: &Ctx, places: &Places) -> crate::error::Result<Self> {
        let rendered = super::mapping::translate(ctx.rules(), &mut Vec::new())
            .map_err(|e| e.to_string())
            .and_then(|entries| {
                let empty = serde_json::Value::Object(Default::default());
                let merged = merge::merge(Some(&empty), &entries, &|_| false)?;
                Ok((merge::permission_rules(&merged.value)?, entries))
            });
        Ok(Layers {
            rendered,
            home: places.home.to_path_buf(),
            cwd: places.cwd.to_path_buf(),
        })
    }

    /// The last entry matching `key` and `text` (`~/` in a pattern being
    /// the home directory), if any.
    fn last<'a>(&self, rules: &'a [Rule], key: &str, text: &str) -> Option<&'a Rule> {
        let home = self.home.to_string_lossy();
        rules.iter().rev().find(|r| {
            let expanded = match r.pattern.strip_prefix("~/") {
                Some(rest) => format!("{home}/{rest}"),
                None => r.pattern.clone(),
            };
            pattern::matches(key, &r.key) && pattern::matches(text, &expanded)
        })
    }

    /// The checks OpenCode makes for the access: (key, text) pairs.
    fn checks(&self, subject: &Subject) -> Vec<(&'static str, String)> {
        let path_checks = |key: &'static str, path: &Path| {
            let mut out = Vec::new();
            if !path.starts_with(&self.cwd) {
                let dir = path.parent().unwrap_or(path);
                out.push((
                    "external_directory",
                    format!("{}/*", dir.to_string_lossy().trim_end_matches('/')),
                ));
            }
            out.push((key, relative(&self.cwd, path)));
            out
        };
        match subject {
            Subject::Read(p) => path_checks("read", p),
            Subject::Write(p) => path_checks("edit", p),
            Subject::Domain(d) => vec![("webfetch", format!("https://{d}/"))],
            Subject::Command(c) => vec![("bash", c.to_string())],
        }
    }
}

impl ExplainLayers for Layers {
    fn decide(&self, subject: &Subject) -> Vec<(&'static Layer, Decision)> {
        vec![(&PERMISSION, decide(self, subject))]
    }
}

fn decide(layers: &Layers, subject: &Subject) -> Decision {
    let (rules, entries) = match &layers.rendered {
        Ok(rendered) => rendered,
        Err(why) => return Decision::without_rule(Verdict::NotCovered, Some(why)),
    };
    // The strictest check decides: one deny refuses the call.
    let mut found: Option<(&Rule, &str)> = None;
    for (key, text) in layers.checks(subject) {
        if let Some(rule) = layers.last(rules, key, &text)
            && found.is_none_or(|(f, _)| f.verdict < rule.verdict)
        {
            found = Some((rule, key));
        }
    }
    let Some((rule, key)) = found else {
        return Decision::without_rule(
            Verdict::NotCovered,
            Some("no twsrt entry matches: OpenCode's defaults decide"),
        );
    };
    let verdict = match rule.verdict {
        Action::Deny => Verdict::Deny,
        Action::Ask => Verdict::Ask,
        Action::Allow => Verdict::Allow,
    };
    if key == FLAT_KEY {
        // One action for every URL: no policy entry decides this domain.
        let note = format!(
            "{} for every URL: OpenCode's webfetch takes no URL patterns",
            verdict.name()
        );
        return Decision::without_rule(verdict, Some(&note));
    }
    let note = format!("{} entry under {key}", verdict.name());
    match entries
        .iter()
        .find(|e| e.key == rule.key && e.pattern == rule.pattern)
    {
        Some(entry) => Decision::rule(
            verdict,
            (entry.origin.list.to_string(), entry.origin.rule.clone()),
            Some(&note),
        ),
        None => Decision::without_rule(verdict, Some(&note)),
    }
}

/// `path` relative to `base`, as Node's `path.relative` spells it (`..`
/// for each of `base`'s components not shared).
fn relative(base: &Path, path: &Path) -> String {
    let parts = |p: &Path| -> Vec<String> {
        p.components()
            .filter_map(|c| match c {
                Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let (b, p) = (parts(base), parts(path));
    let common = b.iter().zip(&p).take_while(|(x, y)| x == y).count();
    let mut out: Vec<String> = vec!["..".to_string(); b.len() - common];
    out.extend(p[common..].iter().cloned());
    out.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Action as Kind, Scope, SecurityRule};

    fn layers(cwd: &str) -> Layers {
        let rules = [SecurityRule {
            scope: Scope::Read,
            action: Kind::Deny,
            pattern: "~/.ssh",
        }];
        let entries = super::super::mapping::translate(&rules, &mut Vec::new()).unwrap();
        let empty = serde_json::Value::Object(Default::default());
        let merged = merge::merge(Some(&empty), &entries, &|_| false).unwrap();
        Layers {
            rendered: Ok((merge::permission_rules(&merged.value).unwrap(), entries)),
            home: PathBuf::from("/home/u"),
            cwd: PathBuf::from(cwd),
        }
    }

    #[test]
    fn outside_the_launch_directory_external_directory_decides() {
        let read = Subject::Read(Path::new("/home/u/.ssh/id_rsa"));
        let outside = decide(&layers("/work/p"), &read);
        assert_eq!(outside.verdict, Verdict::Deny);
        assert_eq!(
            outside.note.as_deref(),
            Some("deny entry under external_directory")
        );
        let inside = decide(&layers("/home/u"), &read);
        assert_eq!(inside.note.as_deref(), Some("deny entry under read"));
        let other = decide(
            &layers("/work/p"),
            &Subject::Read(Path::new("/work/p/a.txt")),
        );
        assert_eq!(other.verdict, Verdict::NotCovered);
    }

    #[test]
    fn relative_spells_as_node_does() {
        use std::path::Path;
        let rel = |b: &str, p: &str| relative(Path::new(b), Path::new(p));
        assert_eq!(rel("/work/p", "/home/u/.ssh/id"), "../../home/u/.ssh/id");
        assert_eq!(rel("/home/u/p", "/home/u/.ssh/id"), "../.ssh/id");
        assert_eq!(rel("/home/u", "/home/u/.ssh"), ".ssh");
        assert_eq!(rel("/home/u", "/home/u"), "");
    }
}
