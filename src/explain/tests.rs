//! The row order: by rank, whatever order the agents come in, and every
//! registered layer on a rank of its own after srt's.

use std::path::Path;

use super::*;
use crate::config::TargetKind;

static LOW: Layer = Layer {
    rank: 10,
    layer: "low",
    agent: "a",
};
static LOW_TWIN: Layer = Layer {
    rank: 10,
    layer: "twin",
    agent: "a",
};
static HIGH: Layer = Layer {
    rank: 30,
    layer: "high",
    agent: "b",
};

/// Layers that decide `not covered` on every subject.
struct Fixed(Vec<&'static Layer>);

impl ExplainLayers for Fixed {
    fn decide(&self, _: &Subject) -> Vec<(&'static Layer, Decision)> {
        self.0.iter().map(|l| (*l, not_covered(l.layer))).collect()
    }
}

fn places<'a>(home: &'a Path) -> Places<'a> {
    Places { home, cwd: home }
}

#[test]
fn rows_follow_the_rank_not_the_order_the_agents_come_in() {
    let home = Path::new("/home/u");
    let places = places(home);
    let settings = serde_json::json!({});
    let srt = srt::Srt::new(&settings, &places);
    let agents: Vec<Box<dyn ExplainLayers>> = vec![
        Box::new(Fixed(vec![&HIGH])),
        Box::new(Fixed(vec![&LOW, &LOW_TWIN])),
    ];
    let rows = decide(&srt, &agents, &Subject::Command("ls"));
    let names: Vec<&str> = rows.iter().map(|(l, _)| l.layer).collect();
    // srt first; one rank keeps the order the layers were returned in.
    assert_eq!(names, ["srt", "low", "twin", "high"]);
}

/// A config.toml setting every `[targets]` key every agent declares.
fn every_target(dir: &Path) -> crate::config::Config {
    let mut targets = String::new();
    for key in crate::agent::target_keys() {
        let value = match key.kind {
            TargetKind::Path => format!("\"{}/{}.toml\"", dir.display(), key.name),
            _ => "true".to_string(),
        };
        targets.push_str(&format!("{} = {value}\n", key.name));
    }
    let text = format!(
        "schema_version = 1\ndefault_profile = \"d\"\n[sources.srt]\noutput = \"srt.json\"\n\
         [sources.srt.fragments.a]\npath = \"srt.jsonc\"\n[sources.bash]\noutput = \"bash.json\"\n\
         [sources.bash.fragments.a]\npath = \"bash.jsonc\"\n[profiles.d]\nsrt = [\"a\"]\n\
         bash = [\"a\"]\n[targets]\n{targets}"
    );
    std::fs::write(
        dir.join("srt.jsonc"),
        r#"{"filesystem": {"denyRead": ["~/.ssh"]}}"#,
    )
    .unwrap();
    std::fs::write(dir.join("bash.jsonc"), r#"{"deny": ["rm"]}"#).unwrap();
    crate::config::parse(&text, &dir.join("config.toml")).unwrap()
}

#[test]
fn every_registered_layer_has_a_rank_of_its_own_after_srt() {
    let dir = tempfile::tempdir().unwrap();
    let config = every_target(dir.path());
    let compiled = crate::compile::compile(&config, None).unwrap();
    let places = places(dir.path());
    let file = dir.path().join("f");
    let subjects = [
        Subject::Read(&file),
        Subject::Write(&file),
        Subject::Domain("example.org"),
        Subject::Command("rm x"),
    ];
    let mut ranks = Vec::new();
    for yolo in [false, true] {
        let ctx = crate::agent::Ctx::new(&config, &compiled, yolo);
        for agent in crate::agent::registry() {
            // With every key set, every agent shows its rows.
            let layers = agent.explain(&ctx, &places).unwrap();
            let layers = layers.unwrap_or_else(|| panic!("no rows for {}", agent.name()));
            for subject in &subjects {
                for (layer, _) in layers.decide(subject) {
                    assert!(layer.rank > srt::RANK, "{layer:?}");
                    ranks.push((layer.rank, layer.layer, layer.agent));
                }
            }
        }
    }
    ranks.sort_unstable();
    ranks.dedup();
    let mut alone: Vec<u16> = ranks.iter().map(|(rank, _, _)| *rank).collect();
    alone.dedup();
    assert_eq!(
        alone.len(),
        ranks.len(),
        "two layers share a rank: {ranks:?}"
    );
}

#[test]
fn the_source_lines_are_the_compile_s_parse() {
    let dir = tempfile::tempdir().unwrap();
    let config = every_target(dir.path());
    let compiled = super::compile(&config, None).unwrap();
    for (_, list) in &compiled.profile.fragments {
        for fragment in list {
            assert!(
                crate::fragment::kept(&fragment.path).is_some(),
                "{fragment:?}"
            );
        }
    }
    let sources = Sources::load(&compiled, &config.path);
    assert_eq!(
        sources.find(
            crate::source::SourceKind::Srt,
            "filesystem.denyRead",
            "~/.ssh"
        ),
        Some("srt.jsonc:1".to_string())
    );
}
