//! Gemini CLI's `managed` row in `twsrt explain`: the admin policy folder
//! installed under the managed root ([`super::admin::POLICIES`]), every
//! `.toml` file in it in name order, read as it is on disk and run through
//! twsrt's emulation of Gemini's engine ([`super::engine`]) as one tier,
//! the admin tier, which ranks above every user and workspace rule
//! (doc/clients.md, "Gemini CLI: managed policy files").
//!
//! Gemini CLI skips the whole folder unless it is owned by root and not
//! writable by group or others; the row then says Gemini ignores it and
//! decides nothing. Under `--root DIR` (a tree built for a package, owned
//! by whoever built it) the owner is the installer's to set: the row is
//! decided as if root owned the folder, and says so; the mode counts as
//! it is.
//!
//! A rule of `twsrt.toml`, when that file is the one `generate --scope
//! managed` writes for the policy, names its policy rule (and so its
//! fragment line); any other rule is named by its file and place.

use std::path::{Path, PathBuf};

use super::Origin;
use super::admin::{POLICIES, mode_refusal, owner_refusal};
use super::engine::Policy;
use super::explain::{call, join, verdict};
use crate::agent::Ctx;
use crate::drift::access::{Decision, Verdict};
use crate::explain::{Layer, Subject, not_covered};

pub static ADMIN: Layer = Layer {
    rank: 40,
    layer: "managed",
    agent: "gemini",
};

/// The file twsrt writes into the folder.
const OWN_FILE: &str = "twsrt.toml";

/// The installed admin folder, as far as the row reads it.
pub struct Admin {
    state: State,
}

enum State {
    /// Gemini CLI does not load the folder, or twsrt cannot read it: why.
    Unused(String),
    Loaded(Loaded),
}

struct Loaded {
    policy: Policy,
    /// Each file, with the index its rules start at in `policy`.
    files: Vec<(PathBuf, usize)>,
    /// Where twsrt's own file's rules start, and the policy rule of each,
    /// when the file is the one the policy renders.
    origins: Option<(usize, Vec<Origin>)>,
    /// What the row assumes (the owner of a built tree).
    caveat: Option<String>,
}

impl Admin {
    /// The admin folder installed under `ctx`'s managed root, `None` when
    /// it holds no `.toml` file; `~` in the policy is `home`.
    pub fn installed(ctx: &Ctx, home: &Path) -> Option<Admin> {
        let dir = ctx.managed_root.join(POLICIES);
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return None;
            }
            Err(e) => return Some(unused(format!("{} cannot be read ({e})", dir.display()))),
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
            .collect();
        if files.is_empty() {
            return None;
        }
        files.sort();
        let meta = match std::fs::metadata(&dir) {
            Ok(meta) => meta,
            Err(e) => return Some(unused(format!("{} cannot be read ({e})", dir.display()))),
        };
        let owner = owner_refusal(&meta);
        let (skip_owner, caveat) = match (owner, ctx.managed_root.built) {
            (Some(why), true) => (
                None,
                Some(format!(
                    "decided as if installed owned by root (under --root, {why})"
                )),
            ),
            (owner, _) => (owner, None),
        };
        let reasons: Vec<String> = [skip_owner, mode_refusal(&meta)]
            .into_iter()
            .flatten()
            .collect();
        if !reasons.is_empty() {
            return Some(unused(format!(
                "Gemini CLI ignores the admin policies in {}: {}",
                dir.display(),
                reasons.join(", and ")
            )));
        }
        Some(match load(ctx, home, &files) {
            Ok((policy, starts, origins)) => Admin {
                state: State::Loaded(Loaded {
                    policy,
                    files: files.into_iter().zip(starts).collect(),
                    origins,
                    caveat,
                }),
            },
            Err(why) => unused(why),
        })
    }

    /// The admin tier's decision on `subject`.
    pub fn decide(&self, subject: &Subject) -> Decision {
        let loaded = match &self.state {
            State::Unused(why) => return not_covered(why),
            State::Loaded(loaded) => loaded,
        };
        let (tool, args, note) = call(subject);
        let caveat = |text: String| match &loaded.caveat {
            Some(caveat) => format!("{text}; {caveat}"),
            None => text,
        };
        let Some(found) = loaded.policy.check(tool, &args) else {
            let note = join(note, "no admin rule matches: the tiers below decide");
            return Decision::without_rule(Verdict::NotCovered, Some(&caveat(note)));
        };
        let verdict = verdict(found.outcome);
        let origin = loaded.origins.as_ref().and_then(|(start, origins)| {
            found
                .index
                .checked_sub(*start)
                .and_then(|local| origins.get(local))
        });
        let at = loaded
            .files
            .iter()
            .rev()
            .find(|(_, start)| *start <= found.index);
        match (origin, at) {
            (Some(origin), _) => {
                let note = join(
                    note,
                    &format!("admin tier: {} rule on {tool}", verdict.name()),
                );
                Decision::rule(
                    verdict,
                    (origin.list.to_string(), origin.rule.clone()),
                    Some(&caveat(note)),
                )
            }
            (None, Some((file, start))) => {
                let place = format!(
                    "admin tier: {} rule {} of {} on {tool}",
                    verdict.name(),
                    found.index - start + 1,
                    file.display()
                );
                Decision::without_rule(verdict, Some(&caveat(join(note, &place))))
            }
            (None, None) => {
                let place = format!("admin tier: {} rule on {tool}", verdict.name());
                Decision::without_rule(verdict, Some(&caveat(join(note, &place))))
            }
        }
    }
}

fn unused(why: String) -> Admin {
    Admin {
        state: State::Unused(why),
    }
}

/// The tier, where each file's rules start, and twsrt's own origins.
type Tier = (Policy, Vec<usize>, Option<(usize, Vec<Origin>)>);

/// The files loaded as one tier, and the origins of twsrt's own file when
/// it is the one the policy renders for `ctx`.
fn load(ctx: &Ctx, home: &Path, files: &[PathBuf]) -> Result<Tier, String> {
    let mut texts = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("{} cannot be read ({e})", file.display()))?;
        texts.push(text);
    }
    let borrowed: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (policy, starts) = Policy::load_tier(&borrowed).map_err(|e| {
        // The engine names the file by its place in the list.
        let named = files
            .iter()
            .enumerate()
            .find_map(|(i, f)| {
                e.strip_prefix(&format!("file {i}: "))
                    .map(|rest| format!("{}: {rest}", f.display()))
            })
            .unwrap_or(e);
        format!("an admin policy does not load, not read here: {named}")
    })?;
    let own = files
        .iter()
        .position(|f| f.file_name().is_some_and(|n| n == OWN_FILE));
    let origins = own.and_then(|i| {
        let (text, origins) = super::admin::rendered(ctx, home).ok()?;
        (texts[i] == text).then(|| (starts[i], origins))
    });
    Ok((policy, starts, origins))
}
