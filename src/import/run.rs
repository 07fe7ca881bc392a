//! One `twsrt import AGENT`: read the agent's files through its importer,
//! drop what the profile holds already, render the fragments and the
//! config.toml change, check the result compiles, then show it (the
//! preview) or write it as one transaction (`-w`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::register::Declared;
use super::{Ctx, Entry, Fate, Imported, Put, tilde};
use crate::agent::Agent;
use crate::compile::Compiled;
use crate::error::{Error, Result};
use crate::plan::{FileKind, Plan, Step};
use crate::source::SourceKind;
use crate::ui;

/// What the command line asked for.
pub struct Request<'a> {
    pub agent: &'a str,
    pub from: Option<&'a Path>,
    pub profile: Option<&'a str>,
    pub write: bool,
    pub config_path: &'a Path,
}

/// Run one import; the value is the exit code.
pub fn run(request: &Request) -> Result<i32> {
    let (name, importer) = importer_of(request.agent)?;
    let config = crate::agent::load_config(request.config_path)?;
    let profile = request
        .profile
        .unwrap_or(&config.default_profile)
        .to_string();
    let current = crate::compile::compile(&config, Some(&profile))?;
    let home = crate::paths::home_dir();
    let mut imported = importer.import(&Ctx {
        config: &config,
        home: &home,
        from: request.from,
    })?;
    super::spelling::canonical_denies(&mut imported.entries);
    let (entries, held) = new_entries(&imported, &current);
    report_left(&imported, &home);
    for entry in &entries {
        if let Some(note) = &entry.note {
            ui::note(&note.replace('\n', " "));
        }
    }
    if held > 0 {
        ui::note(&format!(
            "{held} imported {} in profile '{profile}' already",
            if held == 1 { "entry is" } else { "entries are" }
        ));
    }
    let staged = stage(&name, request, &profile, &imported, &entries, &home)?;
    let Some(staged) = staged else {
        ui::note("nothing to import: the policy holds every entry already");
        if request.write {
            adopt_srt_output(&name, request, &config)?;
        }
        return Ok(0);
    };
    if request.write {
        let applied = crate::apply::apply(&staged.plan)?;
        staged.plan.print_applied(&applied);
        adopt_srt_output(&name, request, &config)?;
        let generate = if name == "srt" {
            String::new()
        } else {
            format!(" {name}")
        };
        ui::note(&format!(
            "next: run `twsrt generate{generate}` to preview the agent's files from the policy, \
             then `twsrt generate -w{generate}`"
        ));
    } else {
        show(&staged);
    }
    Ok(0)
}

/// The importer `name` asks for: srt's own file, or a registered agent's.
fn importer_of(name: &str) -> Result<(String, &'static dyn super::Importer)> {
    if name == "srt" {
        return Ok(("srt".to_string(), &super::srt::SRT_IMPORT));
    }
    let agent = importable(name)?;
    let importer = agent.import().ok_or_else(|| unknown(name))?;
    Ok((agent.name().to_string(), importer))
}

/// After `import srt -w` read the srt output itself: the policy now holds
/// what that file says, so twsrt records its bytes as its own and the next
/// `generate -w` replaces it (with the policy's text) without refusing.
fn adopt_srt_output(name: &str, request: &Request, config: &crate::config::Config) -> Result<()> {
    let Some(output) = super::srt::output_path(config) else {
        return Ok(());
    };
    if name != "srt" || request.from.is_some_and(|from| from != output) {
        return Ok(());
    }
    if let Some(bytes) = crate::apply::read_existing(&output)? {
        crate::apply::written::remember(
            request.config_path,
            [(output.as_path(), bytes.as_slice())],
        )?;
    }
    Ok(())
}

/// The registered agent `name`, when it has an importer.
fn importable(name: &str) -> Result<Box<dyn Agent>> {
    crate::agent::registry()
        .into_iter()
        .find(|a| a.name() == name && a.import().is_some())
        .ok_or_else(|| unknown(name))
}

fn unknown(name: &str) -> Error {
    let mut names: Vec<&str> = crate::agent::registry()
        .iter()
        .filter(|a| a.import().is_some())
        .map(|a| a.name())
        .collect();
    names.push("srt");
    Error::Policy(format!(
        "unknown agent '{name}' for import; available: {}",
        names.join(", ")
    ))
}

/// The imported entries the compiled profile does not hold yet, and how
/// many it does.
fn new_entries(imported: &Imported, current: &Compiled) -> (Vec<Entry>, usize) {
    let holds = |entry: &Entry| match &entry.value {
        Put::Entry(list, text) => current
            .document(list.kind())
            .pointer(list.pointer())
            .and_then(Value::as_array)
            .is_some_and(|items| items.iter().any(|v| v.as_str() == Some(text))),
        Put::Setting(pointer, value) => current.srt().pointer(pointer) == Some(value),
    };
    // An empty pattern is no rule (every kind refuses one): named, not kept.
    let empty = |e: &&Entry| matches!(&e.value, Put::Entry(_, text) if text.trim().is_empty());
    for entry in imported.entries.iter().filter(empty) {
        for origin in &entry.origins {
            ui::warning(&format!(
                "not imported: an empty pattern ({} {})",
                origin.file.display(),
                origin.at
            ));
        }
    }
    let (held, new): (Vec<&Entry>, Vec<&Entry>) = imported
        .entries
        .iter()
        .filter(|e| !empty(e))
        .partition(|e| holds(e));
    (new.into_iter().cloned().collect(), held.len())
}

/// The items import leaves in the agent's files, on stderr.
fn report_left(imported: &Imported, home: &Path) {
    for left in &imported.left {
        let place = format!("{} {}", tilde(&left.origin.file, home), left.origin.at);
        match left.fate {
            Fate::Kept => ui::note(&format!(
                "left in the agent file: {} ({place}): {}",
                left.what, left.reason
            )),
            Fate::Untranslatable => ui::warning(&format!(
                "not imported: {} ({place}): {}",
                left.what, left.reason
            )),
            Fate::Remove => ui::warning(&format!(
                "delete before `twsrt generate -w`: {} ({place}): {}",
                left.what, left.reason
            )),
        }
    }
}

/// The files of one import, fully rendered.
struct Staged {
    plan: Plan,
    config_path: PathBuf,
    config_before: String,
    config_after: String,
}

/// The plan: each fragment with entries, then config.toml; `None` when no
/// entry is new.
fn stage(
    agent: &str,
    request: &Request,
    profile: &str,
    imported: &Imported,
    entries: &[Entry],
    home: &Path,
) -> Result<Option<Staged>> {
    let name = format!("imported-{agent}");
    let dir = request.config_path.parent().unwrap_or(Path::new(""));
    let sources: Vec<String> = imported.sources.iter().map(|s| tilde(s, home)).collect();
    let header = format!(
        "Imported by `twsrt import {agent}` from {}.\n\
         Each entry names the file and the place it came from.",
        sources.join(", ")
    );
    let mut fragments = Vec::new();
    let mut declared = Vec::new();
    for kind in [SourceKind::Srt, SourceKind::Bash] {
        let Some(text) = super::fragment::render(kind, entries, &header, home) else {
            continue;
        };
        let relative = format!("{}/{name}.jsonc", kind.name());
        let path = dir.join(&relative);
        if std::fs::symlink_metadata(&path).is_ok() {
            return Err(Error::target(
                &path,
                "exists already; import never overwrites a fragment (rename or remove it, \
                 then import again)",
            ));
        }
        declared.push(Declared {
            kind,
            name: name.clone(),
            path: relative,
        });
        fragments.push((path, text));
    }
    if fragments.is_empty() {
        return Ok(None);
    }
    let config_before = read_text(request.config_path)?;
    let config_after =
        super::register::register(&config_before, request.config_path, profile, &declared)?;
    super::check::check(&config_after, request.config_path, profile, &fragments)?;
    let mut plan = Plan::default();
    for (path, text) in fragments {
        plan.write(path, text, FileKind::AgentTarget);
    }
    plan.write(
        request.config_path.to_path_buf(),
        config_after.clone(),
        FileKind::AgentTarget,
    );
    Ok(Some(Staged {
        plan,
        config_path: request.config_path.to_path_buf(),
        config_before,
        config_after,
    }))
}

fn read_text(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    crate::text_position::utf8(bytes).map_err(|at| Error::toml_not_utf8(path, at))
}

/// The preview: each new fragment, then config.toml's change as a unified
/// diff, on stdout; the files on stderr.
fn show(staged: &Staged) {
    for step in &staged.plan.steps {
        let Step::Write { path, content, .. } = step else {
            continue;
        };
        if *path == staged.config_path {
            ui::heading(&format!("--- {} ---", path.display()));
            let diff = similar::TextDiff::from_lines(&staged.config_before, &staged.config_after);
            let text = diff
                .unified_diff()
                .context_radius(2)
                .header("config.toml", "config.toml (imported)")
                .to_string();
            ui::data(text.trim_end());
        } else {
            ui::heading(&format!("--- {} ---", path.display()));
            ui::data(String::from_utf8_lossy(content).trim_end());
        }
    }
    for step in &staged.plan.steps {
        if let Step::Write { path, .. } = step {
            ui::would_write(&format!("Would write: {}", path.display()));
        }
    }
    ui::note_bold(
        "preview only, no file was written. Add -w/--write to write the files listed above.",
    );
}
