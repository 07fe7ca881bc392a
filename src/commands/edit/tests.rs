use std::path::Path;

use super::*;

/// bash is registered before srt here, and one file is registered twice.
const CONFIG: &str = "schema_version = 1\ndefault_profile = \"d\"\n\
    [sources.bash.fragments.b]\npath = \"bash/b.jsonc\"\n\
    [sources.srt.fragments.s]\npath = \"srt/s.jsonc\"\n\
    [sources.srt.fragments.t]\npath = \"srt/t.jsonc\"\n\
    [sources.srt.fragments.again]\npath = \"srt/s.jsonc\"\n\
    [profiles.d]\nsrt = [\"s\"]\nbash = [\"b\"]\n\
    [profiles.w]\nextends = [\"d\"]\nsrt = [\"t\"]\n";

fn paths(profile: Option<&str>, kinds: &[SourceKind]) -> Vec<String> {
    let config = crate::config::parse(CONFIG, Path::new("/h/config.toml")).unwrap();
    let resolved = profile.map(|p| resolve(&config, Some(p)).unwrap());
    fragment_paths(&config, resolved.as_ref(), kinds)
        .iter()
        .map(|p| p.display().to_string())
        .collect()
}

#[test]
fn every_registered_fragment_srt_first_each_file_once() {
    assert_eq!(
        paths(None, &SourceKind::ALL),
        ["/h/srt/s.jsonc", "/h/srt/t.jsonc", "/h/bash/b.jsonc"]
    );
    assert_eq!(paths(None, &[SourceKind::Bash]), ["/h/bash/b.jsonc"]);
}

#[test]
fn a_profile_opens_what_it_resolves_to_inherited_included() {
    assert_eq!(
        paths(Some("w"), &SourceKind::ALL),
        ["/h/srt/s.jsonc", "/h/srt/t.jsonc", "/h/bash/b.jsonc"]
    );
    assert_eq!(
        paths(Some("d"), &SourceKind::ALL),
        ["/h/srt/s.jsonc", "/h/bash/b.jsonc"]
    );
    assert_eq!(paths(Some("w"), &[SourceKind::Bash]), ["/h/bash/b.jsonc"]);
}
