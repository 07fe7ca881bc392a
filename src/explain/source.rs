//! Where a rule was written: the first fragment of the profile (in
//! composition order) that lists it, as `file:line` with the file relative
//! to config.toml's directory when it is below it. The lines are the ones
//! the compile's parse recorded ([`compile`]): no fragment is parsed twice.

use std::path::Path;
use std::rc::Rc;

use crate::compile::Compiled;
use crate::config::Config;
use crate::drift::access::Decision;
use crate::error::Result;
use crate::fragment::Located;
use crate::source::SourceKind;

/// Compiles `profile` of `config` keeping each fragment's positions, for
/// [`Sources::load`].
pub fn compile(config: &Config, profile: Option<&str>) -> Result<Compiled> {
    crate::fragment::keep_positions();
    crate::compile::compile(config, profile)
}

pub struct Sources {
    /// (kind, shown path, the fragment with its positions), in order.
    fragments: Vec<(SourceKind, String, Rc<Located>)>,
    /// The agents' guard files the compile write-denied.
    guard_files: Vec<String>,
}

impl Sources {
    /// Every fragment of the profile, with the positions its parse in
    /// [`compile`] recorded. After a compile that kept none, each fragment
    /// is read and parsed here (one that does not parse was already refused
    /// by the compile).
    pub fn load(compiled: &Compiled, config_path: &Path) -> Sources {
        let base = config_path.parent().unwrap_or(Path::new(""));
        let mut fragments = Vec::new();
        for (kind, list) in &compiled.profile.fragments {
            for fragment in list {
                let Some(located) = crate::fragment::kept(&fragment.path).or_else(|| {
                    let text = std::fs::read_to_string(&fragment.path).ok()?;
                    crate::fragment::parse_located(&text, &fragment.path).ok()
                }) else {
                    continue;
                };
                let shown = fragment.path.strip_prefix(base).unwrap_or(&fragment.path);
                fragments.push((*kind, shown.display().to_string(), located));
            }
        }
        Sources {
            fragments,
            guard_files: compiled.guard_files.clone(),
        }
    }

    /// `file:line` of `rule` in the list `list` (dotted, `filesystem.denyRead`)
    /// of a `kind` fragment; `None` for a rule the compile added (a denyRead
    /// path is write-denied too, and so are the policy files).
    pub fn find(&self, kind: SourceKind, list: &str, rule: &str) -> Option<String> {
        let pointer = format!("/{}", list.replace('.', "/"));
        self.fragments
            .iter()
            .filter(|(k, _, _)| *k == kind)
            .find_map(|(_, shown, located)| {
                located
                    .list(&pointer)
                    .find(|s| s.value == rule)
                    .map(|s| format!("{shown}:{}", s.line))
            })
            .or_else(|| {
                (list == "filesystem.denyWrite" && self.guard_files.iter().any(|g| g == rule))
                    .then(|| "[targets] (agent guard file)".to_string())
            })
    }

    /// The fragment line of the rule deciding `decision`: srt lists are
    /// `filesystem.*` and `network.*`, the bash ones `deny`, `ask`,
    /// `allow`; a write-denied denyRead path names its denyRead line.
    pub fn source_of(&self, decision: &Decision) -> Option<String> {
        let (list, rule) = (decision.list.as_deref()?, decision.rule.as_deref()?);
        let kind = if list.contains('.') {
            SourceKind::Srt
        } else {
            SourceKind::Bash
        };
        self.find(kind, list, rule).or_else(|| {
            // The compile write-denies every denyRead path.
            (list == "filesystem.denyWrite")
                .then(|| self.find(kind, "filesystem.denyRead", rule))
                .flatten()
                .map(|at| format!("{at} (denyRead)"))
        })
    }
}
