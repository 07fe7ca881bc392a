//! Claude Code: one JSON settings file holding `permissions` (the app-layer
//! rules for the built-in tools and Bash) and `sandbox` (the native sandbox,
//! from the srt pass-through keys and the mode's overrides).
//!
//! `generate -w` merges into the existing file selectively ([`merge`]) and
//! points the `settings.json` anchor at it ([`anchor`]); `diff` compares
//! sets of entries ([`diff`]).

mod adoption;
mod allow_read;
mod anchor;
mod carry;
pub mod codes;
mod deny_path;
mod diff;
mod doctor;
mod drop_ins;
mod existing;
mod explain;
mod foreign;
mod grammar;
mod grammar_subcommands;
mod guard;
mod hook_entry;
mod import;
pub mod launch;
mod launch_env;
mod layer_audit;
pub mod layers;
mod loaded;
pub mod managed;
mod merge;
mod overrides;
mod project;
mod relink;
mod render;
mod sandbox_part;
pub mod schema;
mod settings_env;
mod switches;
mod sync;
mod sync_table;
#[cfg(test)]
mod tests;

#[cfg(test)]
mod launch_tests;

#[cfg(test)]
mod launch_gap_tests;

use std::path::Path;

pub use anchor::{anchor_path, target_path};
pub use loaded::{Loaded, loaded};
pub use project::{project_settings, stage_project};

use serde_json::{Map, Value};

use crate::agent::{Agent, AgentDiff, Ctx, Warnings};
use crate::config::TargetKey;
use crate::error::Result;
use crate::explain::ExplainLayers;
use crate::paths::home_dir;
use crate::plan::{FileKind, Plan};
use crate::pyjson::{Out, to_pretty};
use crate::srt::path::Places;

pub struct Claude;

/// The settings file for full mode, the yolo mode's own one, and whether the
/// guard hook's PreToolUse entry is installed into them (`true`, or
/// `"sandbox"`: the hook runs what it cannot see through inside srt).
const TARGET_KEYS: [TargetKey; 3] = [
    TargetKey::path("claude_settings").check(anchor::not_the_anchor_name),
    TargetKey::path("claude_settings_yolo").needs("claude_settings"),
    TargetKey::flag_or(
        hook_entry::HOOK_KEY,
        &[hook_entry::WORD, hook_entry::ANALYSIS],
    )
    .needs("claude_settings"),
];

impl Agent for Claude {
    fn config_table(&self) -> Option<&'static crate::config::AgentTable> {
        Some(&sync_table::TABLE)
    }

    fn codes(&self) -> &'static [crate::diag::Code] {
        codes::ALL
    }

    fn name(&self) -> &'static str {
        "claude"
    }

    fn launch(&self) -> Option<&'static dyn crate::agent::launch::Launch> {
        Some(&launch::ClaudeLaunch)
    }

    fn hook(&self) -> Option<fn(&crate::agent::HookCall) -> Result<i32>> {
        Some(guard::answer)
    }

    fn import(&self) -> Option<&'static dyn crate::agent::import::Importer> {
        Some(&import::ClaudeImport)
    }

    fn home_dir(&self) -> Option<&'static str> {
        Some(".claude")
    }

    fn suggested_targets(&self) -> &'static [&'static str] {
        &["claude_settings = \"~/.claude/settings.full.json\""]
    }

    fn managed(&self) -> Option<&'static dyn crate::agent::managed::Managed> {
        Some(&managed::Layer)
    }

    fn target_keys(&self) -> &'static [TargetKey] {
        &TARGET_KEYS
    }

    /// With the guard hook installed, also the program the hook entry
    /// runs: a sandboxed command that replaced it would decide every later
    /// call.
    fn guard_files(&self, config: &crate::config::Config) -> Vec<std::path::PathBuf> {
        let mut files = crate::agent::declared_files(self.target_keys(), config);
        if hook_entry::install(&config.targets).is_some() {
            files.extend(hook_entry::program());
        }
        files
    }

    /// With the guard hook installed, the project's settings files
    /// ([`switches::PROJECT_SETTINGS`]).
    fn guard_rules(&self, config: &crate::config::Config) -> Vec<String> {
        match hook_entry::install(&config.targets) {
            Some(_) => switches::PROJECT_SETTINGS.map(String::from).to_vec(),
            None => Vec::new(),
        }
    }

    /// The file `diff` compares: the mode's target, or `settings.json`
    /// when Claude Code loads something else there.
    fn target(&self, ctx: &Ctx) -> std::path::PathBuf {
        loaded(ctx.config, ctx.yolo).compared().to_path_buf()
    }

    fn preview(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<String> {
        overrides::check(ctx, warnings)?;
        overrides::srt_keys(ctx, warnings);
        warn_quoted(ctx, warnings);
        // A preview writes nothing: it shows the settings and says that
        // Claude Code would drop them (a write refuses them).
        if let Err(e) = check_generated(ctx, &home_dir()) {
            let message = format!("{e}; `generate -w` refuses to write it");
            warnings.push(crate::agent::warning(
                "claude",
                codes::SETTINGS_REJECTED,
                message,
            ));
        }
        Ok(preview(ctx, &home_dir()))
    }

    fn stage(&self, ctx: &Ctx, plan: &mut Plan, warnings: &mut Warnings) -> Result<()> {
        overrides::check(ctx, warnings)?;
        overrides::srt_keys(ctx, warnings);
        warn_quoted(ctx, warnings);
        check_generated(ctx, &home_dir())?;
        stage(ctx, plan, &home_dir())
    }

    fn diff(&self, ctx: &Ctx, warnings: &mut Warnings) -> Result<AgentDiff> {
        overrides::check(ctx, warnings)?;
        overrides::srt_keys(ctx, warnings);
        warn_quoted(ctx, warnings);
        check_generated(ctx, &home_dir())?;
        diff(ctx, &home_dir())
    }

    /// The permissions and sandbox rows always (rendered whether or not
    /// Claude is configured), the hook row when it is installed.
    fn explain<'a>(
        &self,
        ctx: &'a Ctx<'a>,
        places: &'a Places<'a>,
    ) -> Result<Option<Box<dyn ExplainLayers + 'a>>> {
        Ok(Some(Box::new(explain::Layers::of(ctx, places)?)))
    }

    fn doctor_checks(&self, input: &crate::lint::Input, out: &mut Vec<crate::diag::Diagnostic>) {
        doctor::check(input, out);
    }
}

/// Fuzzing entry point (`fuzz/`), not a stable API: the settings `generate`
/// renders for `ctx`, and the selective merge of them into `existing` (the
/// top-level object of an existing settings file), as `generate -w` does it.
#[doc(hidden)]
pub fn fuzz_merge(
    ctx: &Ctx,
    existing: Map<String, Value>,
    home: &Path,
) -> (Map<String, Value>, Result<Map<String, Value>>) {
    let generated = generate(ctx, home);
    let merged = merge::merge(existing, &generated, Path::new("settings.full.json"));
    (generated, merged)
}

/// What the generator reads; `home` is where a denyRead `~` points.
fn input<'a>(ctx: &'a Ctx, home: &'a Path) -> render::Input<'a> {
    render::Input {
        rules: ctx.rules(),
        srt: ctx.compiled.srt(),
        overrides: ctx.config.overrides(ctx.yolo),
        yolo: ctx.yolo,
        home,
        hooks: hook_entry::generated(ctx.config, ctx.yolo),
    }
}

/// The generated settings as Claude Code's settings schema takes them: the
/// sandbox object is where the user's srt keys and overrides land (an
/// error names the mode's target, where they would be written).
fn check_generated(ctx: &Ctx, home: &Path) -> Result<()> {
    let mut doc = Map::new();
    let sandbox = render::sandbox_value(&input(ctx, home));
    doc.insert("sandbox".into(), sandbox);
    schema::check_file(&doc, &anchor::target_path(ctx.config, ctx.yolo))
}

/// The generated settings.
fn generate(ctx: &Ctx, home: &Path) -> Map<String, Value> {
    render::render(&input(ctx, home))
}

/// What `generate claude` prints: the generated settings as JSON.
fn preview(ctx: &Ctx, home: &Path) -> String {
    // Room for the permission lists (up to four rules per policy rule, each
    // with its affixes and indentation) plus the sandbox: capacity that is
    // never written costs no memory, while growing a large text by doubling
    // copies it into fresh pages each time.
    let rules: usize = ctx.rules().iter().map(|r| 4 * (r.pattern.len() + 24)).sum();
    let mut text = String::with_capacity(rules + 64 * 1024);
    render::write_preview(&input(ctx, home), &mut text);
    text
}

fn stage(ctx: &Ctx, plan: &mut Plan, home: &Path) -> Result<()> {
    let layout = anchor::layout(
        anchor::target_path(ctx.config, ctx.yolo),
        anchor::anchor_path(ctx.config),
        &anchor::mode_files(ctx.config),
        sync_table::ClaudeSync::of(ctx.config).is_some(),
    )?;
    if let Some(file) = &layout.foreign {
        plan.note_before_writes(adopted_note(&layout, file));
    }
    // The preview shows the generated settings, not the merged file. A new
    // target is exactly that text, so it is printed once and not built as a
    // document first (`write_preview` equals `to_pretty(render())`, a test
    // holds them equal); only a merge needs the document.
    let generated_text = preview(ctx, home);
    say_asks_left(ctx, home, &layout, plan)?;
    let mut base = base(ctx, &layout, &generated_text, plan)?;
    if base.is_none()
        && let Some((file, denies)) = donor_denies(&layout)?
        && !adoption::removals(ctx, home, &[(file, &denies)], &generate(ctx, home)).is_empty()
    {
        // The donor's own denies are kept by a merge into nothing.
        base = Some(Map::new());
    }
    let merged = match base {
        Some(doc) => {
            let generated = generate(ctx, home);
            let merged = merge::merge(doc.clone(), &generated, &layout.base)?;
            let (merged, kept) = keep_foreign_entries(ctx, home, &layout, &doc, merged, plan)?;
            schema::check_file(&merged, &layout.base)?;
            let bom = crate::bom::kept_for(&layout.base);
            let mode = foreign::stricter_mode(&merged).map(str::to_string);
            let text = format!("{bom}{}\n", to_pretty(&Value::Object(merged)));
            say_kept(&layout.target, &kept, mode.as_deref(), &text, plan);
            Some(text)
        }
        None => None,
    };
    if let Some(from) = layout.migrate_from {
        plan.migrate(from, layout.target.clone());
    }
    match merged {
        Some(text) => {
            plan.write(layout.target, text, FileKind::AgentTarget);
            plan.show_preview("claude", generated_text);
        }
        None => plan.write_shown(
            "claude",
            layout.target,
            generated_text,
            FileKind::AgentTarget,
        ),
    }
    if let Some((link, value)) = layout.symlink {
        plan.symlink(link, value);
    }
    Ok(())
}

/// The document to merge into, or `None` when there is nothing to merge:
/// no file, or one that holds exactly what a new target gets
/// (`generated_text`, see [`merge::leaves_unchanged`]): the everyday write
/// over twsrt's own file then reads it without parsing it (for a large
/// policy a document of values takes several times the file's size).
fn base(
    ctx: &Ctx,
    layout: &anchor::Layout,
    generated_text: &str,
    plan: &mut Plan,
) -> Result<Option<Map<String, Value>>> {
    let plain = layout.foreign.is_none() && sync::donor(layout).is_none();
    if plain
        && leaves_unchanged(ctx)
        && existing::holds_exactly(&layout.base, |out| out.push_str(generated_text))
    {
        return Ok(None);
    }
    sync::base(ctx.config, layout, plan)
}

/// [`merge::leaves_unchanged`] for the settings `ctx` generates.
fn leaves_unchanged(ctx: &Ctx) -> bool {
    let hooks = hook_entry::generated(ctx.config, ctx.yolo);
    merge::leaves_unchanged(ctx.config.overrides(ctx.yolo), hooks.as_ref())
}

/// The `Info:` line of a `settings.json` that links to the user's own file.
fn adopted_note(layout: &anchor::Layout, file: &Path) -> String {
    let anchor = layout
        .symlink
        .as_ref()
        .map(|(a, _)| a.display().to_string());
    let what = if layout.migrate_from.is_some() {
        "its settings move into"
    } else {
        "[claude_sync] copies its settings into"
    };
    format!(
        "{} links to {}, which twsrt does not write: {what} {} and the link is repointed \
         there ({} itself is left as it is, and Claude Code no longer loads it)",
        anchor.unwrap_or_default(),
        file.display(),
        layout.target.display(),
        file.display()
    )
}

/// The deny and ask entries twsrt did not write, from `doc` (the document
/// merged into) or from the user's own file that `settings.json` links to,
/// that the `merged` document no longer holds: kept at the end of their
/// lists (returned, for [`say_kept`]), or with `--drop-foreign` left out
/// and recorded for the `Warning:` lines.
fn keep_foreign_entries(
    ctx: &Ctx,
    home: &Path,
    layout: &anchor::Layout,
    doc: &Map<String, Value>,
    mut merged: Map<String, Value>,
    plan: &mut Plan,
) -> Result<(Map<String, Value>, Vec<crate::plan::Removal>)> {
    // A synced target was rebuilt from the linked file, which keeps its
    // own lists: they are read from it.
    let linked = match &layout.foreign {
        Some(file) if *file != layout.base => existing::read(file)?,
        _ => None,
    };
    // A re-linked dotfile replaces an existing target: its foreign entries
    // are kept too.
    let replaced = match &layout.migrate_from {
        Some(_) if layout.target != layout.base => existing::read(&layout.target)?,
        _ => None,
    };
    let mut before = vec![(layout.base.clone(), doc)];
    if let (Some(file), Some(linked)) = (&layout.foreign, &linked) {
        before.push((file.clone(), linked));
    }
    if let Some(replaced) = &replaced {
        before.push((layout.target.clone(), replaced));
    }
    // A new target of one mode keeps the denies of the other mode's file.
    let donor = donor_denies(layout)?;
    if let Some((file, denies)) = &donor {
        before.push((file.clone(), denies));
    }
    let foreign = adoption::removals(ctx, home, &before, &merged);
    if ctx.drop_foreign {
        for removal in foreign {
            plan.removal(removal);
        }
        return Ok((merged, Vec::new()));
    }
    adoption::keep(&mut merged, &foreign);
    Ok((merged, foreign))
}

/// Spell each extra deny or ask entry that twsrt did not write as
/// `ENTRY (foreign, narrowing)`: `generate -w` keeps it ([`keep_foreign_entries`]),
/// so it is the user's narrowing, not drift a write would clear.
fn mark_foreign(ctx: &Ctx, home: &Path, differences: &mut [crate::drift::Difference]) {
    let guarded = |d: &crate::drift::Difference| {
        d.side == crate::drift::Side::Extra
            && matches!(d.section.as_str(), "permissions.deny" | "permissions.ask")
    };
    if !differences.iter().any(guarded) {
        return;
    }
    let foreign = adoption::foreign_test(ctx, home);
    for d in differences.iter_mut().filter(|d| guarded(d)) {
        if foreign(&d.section, &d.entry) {
            d.shown = format!("{} (foreign, narrowing)", d.shown);
            d.direction = crate::drift::Direction::Narrowing;
        }
    }
}

/// For a target that does not exist yet while `settings.json` links to the
/// other mode's file (the donor, [`sync::donor`]): that file and its deny
/// lists ([`adoption::deny_lists`]), when it has any. A deny holds in both
/// modes; asks stay with the mode that has them (yolo asks nothing).
fn donor_denies(
    layout: &anchor::Layout,
) -> Result<Option<(std::path::PathBuf, Map<String, Value>)>> {
    if layout.base.exists() {
        return Ok(None);
    }
    let Some(file) = sync::donor(layout) else {
        return Ok(None);
    };
    let Some(doc) = existing::read(&file)? else {
        return Ok(None);
    };
    let denies = adoption::deny_lists(&doc);
    Ok((!denies.is_empty()).then_some((file, denies)))
}

/// For a yolo target that does not exist yet beside the full file
/// `settings.json` links to: one `Info:` line naming the asks of that file
/// twsrt did not write, which the yolo file does not carry (it asks nothing).
fn say_asks_left(ctx: &Ctx, home: &Path, layout: &anchor::Layout, plan: &mut Plan) -> Result<()> {
    if !ctx.yolo || layout.base.exists() {
        return Ok(());
    }
    let Some(file) = sync::donor(layout) else {
        return Ok(());
    };
    let Some(doc) = existing::read(&file)? else {
        return Ok(());
    };
    let asks = adoption::list(&doc, "permissions.ask").to_vec();
    let asks = Map::from_iter([(
        "permissions".to_string(),
        Value::Object(Map::from_iter([("ask".to_string(), Value::Array(asks))])),
    )]);
    let left = adoption::removals(ctx, home, &[(file.clone(), &asks)], &Map::new());
    if !left.is_empty() {
        let entries: Vec<&str> = left.iter().map(|r| r.entry.as_str()).collect();
        plan.note_before_writes(format!(
            "claude: the yolo file does not carry your asks in {} ({}): yolo mode asks nothing",
            file.display(),
            entries.join(", ")
        ));
    }
    Ok(())
}

/// One `Info:` line per kept foreign entry, and one for a kept `defaultMode`
/// stricter than the policy's (`mode`), when the write changes the target
/// (the first adoption, an entry added by hand since) or under `-v`: a
/// file that already holds them is said nothing about again.
fn say_kept(
    target: &Path,
    kept: &[crate::plan::Removal],
    mode: Option<&str>,
    text: &str,
    plan: &mut Plan,
) {
    let unchanged = || {
        crate::apply::read_existing(target)
            .ok()
            .flatten()
            .is_some_and(|bytes| bytes == text.as_bytes())
    };
    if (kept.is_empty() && mode.is_none()) || (!crate::ui::verbose() && unchanged()) {
        return;
    }
    if let Some(mode) = mode {
        plan.note_before_writes(format!(
            "claude: keeps your permissions.defaultMode \"{mode}\", which asks or runs less \
             than Claude Code's \"default\" the policy assumes (twsrt writes no defaultMode)"
        ));
    }
    for r in kept {
        plan.note_before_writes(format!(
            "claude: keeps {} {} from {} beside the policy's entries (twsrt did not write \
             it, and keeping it only narrows; generate -w --drop-foreign removes it)",
            r.section,
            r.entry,
            r.path.display(),
        ));
    }
}

/// Compares the policy with what Claude Code loads for the mode: the
/// target when `settings.json` links to it, else whatever `settings.json`
/// holds (nothing, when it is missing or dangling), plus the link's own
/// difference.
fn diff(ctx: &Ctx, home: &Path) -> Result<AgentDiff> {
    let load = loaded(ctx.config, ctx.yolo);
    let target = &load.target;
    // What a new target gets has no difference from the generated settings
    // (see `base` above): the everyday diff compares the file with the
    // preview as both are written and read, without holding or parsing either.
    if load.is_target()
        && leaves_unchanged(ctx)
        && existing::holds_exactly(target, |out| render::write_preview(&input(ctx, home), out))
    {
        return Ok(AgentDiff::Compared(load.differences()));
    }
    let on_disk = if target.exists() {
        existing::read(target)?
    } else {
        None
    };
    let Some(on_disk) = on_disk else {
        return Ok(AgentDiff::TargetMissing(format!(
            "claude target file not found: {}",
            target.display()
        )));
    };
    // A file the merge would refuse (a `permissions` that is a list, a
    // `sandbox` that is a string) is an error here too, not drift.
    merge::check_shape(&on_disk, target)?;
    let on_disk = if load.is_target() {
        on_disk
    } else {
        let loaded = match std::fs::metadata(&load.anchor) {
            Ok(_) => existing::read(&load.anchor)?,
            Err(_) => None,
        };
        let loaded = loaded.unwrap_or_default();
        merge::check_shape(&loaded, &load.anchor)?;
        loaded
    };
    let generated = generate(ctx, home);
    let mut differences = load.differences();
    differences.extend(schema::difference(&on_disk));
    let grants = foreign::grants(&generated, &on_disk);
    differences.extend(grants.iter().map(foreign::Grant::difference));
    let mut entries = diff::entries(&generated, &on_disk).into_differences();
    mark_foreign(ctx, home, &mut entries);
    differences.extend(entries);
    Ok(AgentDiff::Compared(differences))
}

/// The bash rules holding quotes, which Claude Code holds for their own
/// spelling only ([`crate::agent::quoted_rules`]).
fn warn_quoted(ctx: &Ctx, warnings: &mut Warnings) {
    let quoted = crate::agent::quoted_rules::quoted(ctx);
    if let Some(m) = crate::agent::quoted_rules::message("Claude Code", &quoted) {
        warnings.push(crate::agent::warning("claude", codes::QUOTED_RULE, m));
    }
}
