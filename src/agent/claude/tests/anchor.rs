//! Target names per mode and the anchor beside the full-mode target.

use std::path::PathBuf;

use super::Fixture;
use crate::agent::claude::anchor::{anchor_path, link_value, target_path};

#[test]
fn the_yolo_target_replaces_every_suffix_with_yolo_and_the_last_one() {
    let cases = [
        ("settings.full.json", "settings.yolo.json"),
        ("settings.json5", "settings.yolo.json5"),
        ("settings", "settings.yolo"),
        ("a.b.c.d", "a.yolo.d"),
        (".hidden", ".hidden.yolo"),
        (".a.b", ".a.yolo.b"),
        ("s..json", "s.yolo.json"),
        ("a.b.", "a.b..yolo"),
    ];
    for (full, yolo) in cases {
        let fixture = Fixture::new("{}", "{}", None, &format!("claude_settings = \"c/{full}\""));
        let dir = fixture.dir.path().join("c");
        assert_eq!(target_path(&fixture.config, false), dir.join(full));
        assert_eq!(target_path(&fixture.config, true), dir.join(yolo), "{full}");
        assert_eq!(anchor_path(&fixture.config), dir.join("settings.json"));
    }
}

#[test]
fn an_explicit_yolo_target_is_used_as_configured() {
    let fixture = Fixture::new("{}", "{}", None, "claude_settings_yolo = \"/abs/y.json\"");
    assert_eq!(
        target_path(&fixture.config, true),
        PathBuf::from("/abs/y.json")
    );
    // The anchor stays beside the full-mode target.
    assert_eq!(
        anchor_path(&fixture.config),
        fixture.claude_dir().join("settings.json")
    );
}

#[test]
fn the_link_is_relative_only_beside_the_anchor() {
    let anchor = PathBuf::from("/h/.claude/settings.json");
    assert_eq!(
        link_value(&anchor, &PathBuf::from("/h/.claude/settings.yolo.json")),
        PathBuf::from("settings.yolo.json")
    );
    assert_eq!(
        link_value(&anchor, &PathBuf::from("/h/y/settings.yolo.json")),
        PathBuf::from("/h/y/settings.yolo.json")
    );
}
