//! Loading arbitrary config.toml text.
//!
//! Properties: no panic; a syntax error points inside the text; a loaded
//! config keeps every invariant the rest of the program relies on (both
//! sources, each with fragments named `.jsonc` and distinct outputs, a defined
//! default profile, known selections and parents, no extends cycle), every
//! profile resolves or is refused cleanly, and the sandbox overrides print as
//! JSON.
#![no_main]

use std::collections::HashSet;
use std::path::Path;

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use twsrt::error::Error;
use twsrt::source::SourceKind;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check(text);
});

fn check(text: &str) {
    let path = Path::new("/cfg/config.toml");
    let config = match twsrt::config::parse(text, path) {
        Ok(config) => config,
        Err(Error::TomlSyntax { line, column, .. }) => {
            let lines: Vec<&str> = text.split('\n').collect();
            assert!(line >= 1 && line <= lines.len(), "line {line} out of range");
            let len = lines[line - 1].chars().count();
            assert!(
                column >= 1 && column <= len + 1,
                "column {column} out of range"
            );
            return;
        }
        Err(Error::Config { .. }) => return,
        Err(e) => panic!("unexpected error kind: {e:?}"),
    };

    let kinds: Vec<SourceKind> = config.sources.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, SourceKind::ALL);
    let outputs: HashSet<_> = config.sources.iter().map(|s| &s.output).collect();
    assert_eq!(
        outputs.len(),
        config.sources.len(),
        "two sources share an output"
    );
    for source in &config.sources {
        assert!(!source.fragments.is_empty());
        for f in &source.fragments {
            assert!(f.path.to_string_lossy().ends_with(".jsonc"));
            assert_ne!(f.path, source.output);
        }
    }
    assert!(!config.profiles.is_empty());
    assert!(config.profile(&config.default_profile).is_some());
    for (name, def) in &config.profiles {
        for parent in &def.extends {
            assert!(
                config.profile(parent).is_some(),
                "{name} extends unknown {parent}"
            );
        }
        for (kind, names) in &def.selections {
            for n in names {
                assert!(config.source(*kind).fragment(n).is_some());
            }
        }
    }
    for (name, _) in config.profiles.iter().take(16) {
        match twsrt::profile::resolve(&config, Some(name)) {
            Ok(resolved) => {
                assert_eq!(&resolved.name, name);
                for (kind, fragments) in &resolved.fragments {
                    assert!(!fragments.is_empty());
                    let names: HashSet<&str> = fragments.iter().map(|f| f.name.as_str()).collect();
                    assert_eq!(names.len(), fragments.len(), "{name}: a fragment twice");
                    for f in fragments {
                        assert!(config.source(*kind).fragment(&f.name).is_some());
                    }
                }
            }
            Err(Error::Policy(_)) => {}
            Err(e) => panic!("unexpected resolve error: {e:?}"),
        }
    }
    assert!(twsrt::profile::resolve(&config, Some("\u{0}no such profile")).is_err());

    for yolo in [false, true] {
        let overrides = Value::Object(config.overrides(yolo).clone());
        let text = twsrt::pyjson::to_pretty(&overrides);
        let back: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("overrides do not print as JSON: {e}\n{text}"));
        assert!(
            twsrt_fuzz::py_eq(&back, &overrides),
            "overrides changed when printed"
        );
    }
}
