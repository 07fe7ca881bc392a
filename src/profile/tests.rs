use super::*;
use std::path::Path;

/// A config with srt fragments a, b, c and bash fragment x, defaulting to
/// profile `child`, and the given `[profiles.*]` tables.
fn config(profiles: &str) -> Config {
    let mut text = String::from("schema_version = 1\ndefault_profile = \"child\"\n");
    for (kind, fragments) in [("srt", &["a", "b", "c"][..]), ("bash", &["x"][..])] {
        text.push_str(&format!("[sources.{kind}]\noutput = \"out/{kind}.json\"\n"));
        for name in fragments {
            text.push_str(&format!(
                "[sources.{kind}.fragments.{name}]\npath = \"{name}.jsonc\"\n"
            ));
        }
    }
    text.push_str(profiles);
    crate::config::parse(&text, Path::new("/cfg/config.toml")).unwrap()
}

fn names(p: &ResolvedProfile, kind: SourceKind) -> Vec<&str> {
    p.fragments(kind).iter().map(|f| f.name.as_str()).collect()
}

#[test]
fn parents_come_first_depth_first_each_profile_once() {
    let c = config(
        r#"
[profiles.root]
srt = ["c"]
bash = ["x"]
[profiles.left]
extends = ["root"]
srt = ["b"]
[profiles.right]
extends = ["root"]
srt = ["a", "c"]
[profiles.child]
extends = ["left", "right", "left"]
srt = ["b", "a"]
"#,
    );
    let p = resolve(&c, None).unwrap();
    assert_eq!(p.name, "child");
    assert_eq!(names(&p, SourceKind::Srt), vec!["c", "b", "a"]);
    assert_eq!(names(&p, SourceKind::Bash), vec!["x"]);
}

#[test]
fn every_kind_needs_a_fragment_after_inheritance() {
    let c = config("[profiles.child]\nsrt = [\"a\"]\n");
    let msg = resolve(&c, None).unwrap_err().to_string();
    assert!(msg.contains("'child'") && msg.contains("bash"), "{msg}");
    let c = config("[profiles.child]\nsrt = [\"a\"]\nbash = []\n");
    assert_eq!(resolve(&c, None).unwrap_err().to_string(), msg);
}

#[test]
fn an_unknown_profile_lists_the_defined_ones() {
    let c = config(
        "[profiles.child]\nsrt = [\"a\"]\nbash = [\"x\"]\n[profiles.other]\nsrt = [\"a\"]\nbash = [\"x\"]\n",
    );
    let msg = resolve(&c, Some("nope")).unwrap_err().to_string();
    assert!(
        msg.contains("'nope'") && msg.contains("child, other"),
        "{msg}"
    );
}
