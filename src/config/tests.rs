use super::*;

const BASE: &str = r#"
schema_version = 1
default_profile = "default"
[sources.srt]
output = "~/.srt-settings.json"
[sources.srt.fragments.base]
path = "srt/base.jsonc"
[sources.srt.fragments.work]
path = "srt/work.jsonc"
[sources.bash]
output = "bash-rules.json"
[sources.bash.fragments.base]
path = "bash/base.jsonc"
[profiles.default]
srt = ["base"]
bash = ["base"]
[profiles.work]
extends = ["default"]
srt = ["work"]
"#;

/// Parsed, with `[targets]` held to the agents' keys as the commands do.
fn load(text: &str) -> Result<Config> {
    let config = parse_with(
        text,
        Path::new("/cfg/config.toml"),
        &crate::agent::config_tables(),
    )?;
    crate::agent::check_targets(&config)?;
    Ok(config)
}

/// The error message, which must name the config file.
fn error(text: &str) -> String {
    let err = load(text).expect_err("config should be rejected");
    let msg = err.to_string();
    assert!(
        msg.contains("/cfg/config.toml"),
        "{msg} does not name the file"
    );
    assert_eq!(err.exit_code(), 1);
    msg
}

fn replace(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from} not in BASE");
    BASE.replacen(from, to, 1)
}

#[test]
fn a_valid_config_loads_with_resolved_paths() {
    let c = load(BASE).unwrap();
    assert_eq!(c.default_profile, "default");
    assert_eq!(
        c.source(SourceKind::Bash).unwrap().output,
        PathBuf::from("/cfg/bash-rules.json")
    );
    assert_eq!(
        c.source(SourceKind::Srt).unwrap().fragments[1].path,
        PathBuf::from("/cfg/srt/work.jsonc")
    );
    assert_eq!(
        c.source(SourceKind::Srt).unwrap().output,
        crate::paths::home_dir().join(".srt-settings.json")
    );
    // Agents are opt-in: no target key, no target path.
    assert!(!c.targets.contains("claude_settings"));
    assert!(c.targets.path("codex_config").is_none());
    assert_eq!(c.profile_names(), vec!["default", "work"]);
}

/// The (line, column) of the TOML syntax error `text` makes.
#[track_caller]
fn syntax_error_at(text: &str) -> (usize, usize) {
    match load(text).unwrap_err() {
        Error::TomlSyntax { line, column, .. } => (line, column),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn toml_syntax_errors_carry_line_and_column() {
    assert_eq!(
        syntax_error_at("schema_version = 1\na = 1\na = 2\n"),
        (3, 1)
    );
}

#[test]
fn an_unknown_target_key_is_an_error_naming_it_and_the_known_ones() {
    let msg = error(&format!(
        "{BASE}[targets]\nclaude_setings = \"~/x.json\"\ncodex_config = \"c.toml\"\nzz = 1\n"
    ));
    // The known keys are what the agents declare, in registry order (so a
    // new agent's keys need no edit here).
    let known: Vec<&str> = crate::agent::target_keys().iter().map(|k| k.name).collect();
    assert_eq!(
        msg,
        format!(
            "/cfg/config.toml:21:1: targets: unknown key(s) claude_setings, zz; the targets twsrt \
             knows are {}; did you mean \"claude_settings\" for \"claude_setings\"?",
            known.join(", ")
        )
    );
    assert!(known.starts_with(&["claude_settings", "claude_settings_yolo", "claude_hook"]));
}

#[test]
fn a_lone_carriage_return_ends_a_line_in_error_positions() {
    // TOML forbids a lone `\r`; the error after it is placed the way
    // fragment errors are (text_position::line_column).
    assert_eq!(syntax_error_at("# c\rd\nschema_version = [\n"), (2, 1));
}

#[test]
fn the_legacy_flat_sources_schema_is_refused_with_a_hint() {
    let msg = error("schema_version = 1\n[sources]\nsrt = \"x.json\"\n");
    assert!(msg.contains("[sources.<kind>]"), "{msg}");
}

#[test]
fn schema_version_must_be_exactly_one() {
    assert!(error(&BASE.replace("schema_version = 1\n", "")).contains("schema_version"));
    assert!(error(&replace("schema_version = 1", "schema_version = 2")).contains("2"));
    assert!(error(&replace("schema_version = 1", "schema_version = \"1\"")).contains("\"1\""));
    assert!(error(&replace("schema_version = 1", "schema_version = true")).contains("true"));
}

const BASH_SOURCE: &str = "[sources.bash]\noutput = \"bash-rules.json\"\n[sources.bash.fragments.base]\npath = \"bash/base.jsonc\"\n";

#[test]
fn source_kinds_are_checked() {
    let msg = error(&format!("{BASE}[sources.foo]\noutput = \"f.json\"\n"));
    assert!(
        msg.contains("sources.foo") && msg.contains("'foo'"),
        "{msg}"
    );
    let no_srt = replace(
        "[sources.srt]\noutput = \"~/.srt-settings.json\"\n[sources.srt.fragments.base]\npath = \"srt/base.jsonc\"\n[sources.srt.fragments.work]\npath = \"srt/work.jsonc\"\n",
        "",
    );
    assert!(error(&no_srt).contains("srt"));
    let no_frags = replace(
        "[sources.bash.fragments.base]\npath = \"bash/base.jsonc\"\n",
        "",
    );
    assert!(error(&no_frags).contains("sources.bash"));
    let not_table = "schema_version = 1\n[sources]\nsrt = 3\n";
    assert!(error(not_table).contains("sources.srt must be a table"));
    let empty = "schema_version = 1\n[sources]\n";
    assert!(error(empty).contains("[sources]"));
}

#[test]
fn bash_is_optional_and_a_profile_may_then_not_name_it() {
    let no_bash = replace(BASH_SOURCE, "").replacen("bash = [\"base\"]\n", "", 1);
    let c = load(&no_bash).unwrap();
    assert!(c.source(SourceKind::Bash).is_none());
    assert_eq!(c.sources.len(), 1);
    let msg = error(&replace(BASH_SOURCE, ""));
    for fact in [
        "profiles.default",
        "'bash'",
        "[sources.bash]",
        "profiles.default.bash",
    ] {
        assert!(msg.contains(fact), "{fact} not in {msg}");
    }
}

#[test]
fn an_omitted_output_lies_beside_config_toml() {
    let text = replace("output = \"~/.srt-settings.json\"\n", "").replacen(
        "output = \"bash-rules.json\"\n",
        "",
        1,
    );
    let c = load(&text).unwrap();
    let output = |k| c.source(k).unwrap().output.clone();
    assert_eq!(
        output(SourceKind::Srt),
        PathBuf::from("/cfg/srt-settings.json")
    );
    assert_eq!(
        output(SourceKind::Bash),
        PathBuf::from("/cfg/bash-rules.json")
    );
    // The defaults take part in the one-writer-per-file check.
    let clash = replace(
        "output = \"~/.srt-settings.json\"",
        "output = \"bash-rules.json\"",
    )
    .replacen(
        "output = \"bash-rules.json\"\n[sources.bash",
        "[sources.bash",
        1,
    );
    let msg = error(&clash);
    assert!(
        msg.contains("sources.bash and sources.srt") && msg.contains("/cfg/bash-rules.json"),
        "{msg}"
    );
}

#[test]
fn sources_keep_the_order_config_toml_lists_them_in() {
    let bash_first = replace(BASH_SOURCE, "").replacen(
        "[sources.srt]\n",
        &format!("{BASH_SOURCE}[sources.srt]\n"),
        1,
    );
    let c = load(&bash_first).unwrap();
    let kinds: Vec<SourceKind> = c.sources.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [SourceKind::Bash, SourceKind::Srt]);
}

#[test]
fn relative_config_paths_print_without_dot_segments() {
    let c = parse(BASE, Path::new("./alt/./config.toml")).unwrap();
    assert_eq!(
        c.source(SourceKind::Bash).unwrap().output,
        PathBuf::from("alt/bash-rules.json")
    );
    assert_eq!(
        config_path(Some("./alt/./c.toml")),
        PathBuf::from("alt/c.toml")
    );
}

#[test]
fn fragment_paths_are_checked() {
    assert!(
        error(&replace("path = \"srt/base.jsonc\"", "path = \"\""))
            .contains("sources.srt.fragments.base.path")
    );
    assert!(
        error(&replace("path = \"srt/base.jsonc\"", "xpath = \"a.jsonc\"")).ends_with(
            "sources.srt.fragments.base.path is required; did you mean \"path\" for \"xpath\"?"
        )
    );
    assert!(
        error(&replace(
            "path = \"srt/base.jsonc\"",
            "path = \"srt/base.json\""
        ))
        .contains(".jsonc")
    );
    assert!(
        error(&replace("path = \"srt/base.jsonc\"", "path = 3"))
            .contains("sources.srt.fragments.base.path")
    );
    let same = replace(
        "output = \"bash-rules.json\"",
        "output = \"bash/base.jsonc\"",
    );
    assert!(error(&same).contains("sources.bash.fragments.base"));
    let equal_outputs = replace(
        "output = \"bash-rules.json\"",
        "output = \"~/.srt-settings.json\"",
    );
    let msg = error(&equal_outputs);
    assert!(
        msg.contains("sources.bash") && msg.contains("sources.srt"),
        "{msg}"
    );
}

#[test]
fn profiles_are_checked() {
    let without = &BASE[..BASE.find("[profiles.default]").unwrap()];
    assert!(error(without).contains("profile"));
    assert!(error(&format!("{without}[profiles]\ndefault = 3\n")).contains("profiles.default"));
    let msg = error(&format!("{BASE}zeta = 1\nalpha = 2\n"));
    assert!(msg.contains("alpha, zeta"), "{msg}");
    assert!(error(&replace("srt = [\"base\"]", "srt = \"base\"")).contains("profiles.default.srt"));
    assert!(error(&replace("srt = [\"base\"]", "srt = [1]")).contains("profiles.default.srt"));
    assert!(
        error(&replace("extends = [\"default\"]", "extends = \"default\""))
            .contains("profiles.work.extends")
    );
    assert!(error(&replace("extends = [\"default\"]", "extends = [\"nope\"]")).contains("'nope'"));
    assert!(error(&replace("srt = [\"base\"]", "srt = [\"basex\"]")).contains("'basex'"));
}

#[test]
fn extends_cycles_are_reported_with_their_chain() {
    let cyclic = replace(
        "[profiles.default]\n",
        "[profiles.default]\nextends = [\"work\"]\n",
    );
    assert!(error(&cyclic).contains("default -> work -> default"));
    let own = replace(
        "[profiles.default]\n",
        "[profiles.default]\nextends = [\"default\"]\n",
    );
    assert!(error(&own).contains("default -> default"));
}

#[test]
fn cycles_are_found_with_their_chain() {
    let def = |parents: &[&str]| ProfileDef {
        extends: parents.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    let profiles = vec![
        ("a".to_string(), def(&["b"])),
        ("b".to_string(), def(&["c"])),
        ("c".to_string(), def(&["b"])),
    ];
    assert_eq!(
        find_extends_cycle(&profiles),
        Some(vec!["b".to_string(), "c".into(), "b".into()])
    );
    let fine = vec![
        ("a".to_string(), def(&[])),
        ("b".to_string(), def(&["a", "a"])),
    ];
    assert_eq!(find_extends_cycle(&fine), None);
}

#[test]
fn default_profile_is_checked_before_the_profile_graph() {
    let text = replace("default_profile = \"default\"", "default_profile = \"zzz\"").replacen(
        "extends = [\"default\"]",
        "extends = [\"ghost\"]",
        1,
    );
    assert!(error(&text).contains("'zzz'"));
}

#[test]
fn secondary_targets_require_their_primary_key() {
    for (key, primary) in [
        ("claude_settings_yolo", "claude_settings"),
        ("copilot_output_yolo", "copilot_output"),
        ("codex_rules", "codex_config"),
    ] {
        let msg = error(&format!("{BASE}[targets]\n{key} = \"x\"\n"));
        assert!(
            msg.contains(&format!("targets.{key} requires {primary}")),
            "{msg}"
        );
        load(&format!(
            "{BASE}[targets]\n{key} = \"x\"\n{primary} = \"y\"\n"
        ))
        .unwrap();
    }
    // In the reference's order, before any value is read.
    let msg = error(&format!(
        "{BASE}[targets]\ncodex_rules = \"x\"\nclaude_settings_yolo = 3\n"
    ));
    assert!(
        msg.contains("targets.claude_settings_yolo requires"),
        "{msg}"
    );
    // A misspelt key is reported before a missing primary.
    let msg = error(&format!(
        "{BASE}[targets]\ncodex_rules = \"x\"\nbogus = 1\n"
    ));
    assert!(msg.contains("bogus"), "{msg}");
}

#[test]
fn default_profile_must_name_a_defined_profile() {
    assert!(
        error(&replace(
            "default_profile = \"default\"",
            "default_profile = \"\""
        ))
        .contains("default_profile")
    );
    assert!(error(&replace("default_profile = \"default\"", "")).contains("default_profile"));
    assert!(
        error(&replace(
            "default_profile = \"default\"",
            "default_profile = \"zzz\""
        ))
        .contains("'zzz'")
    );
}

#[test]
fn targets_have_defaults_and_claude_settings_cannot_be_the_anchor() {
    let text = format!("{BASE}[targets]\nclaude_settings = \"~/.claude/settings.json\"\n");
    assert!(error(&text).contains("settings.json"));
    let text = format!(
        "{BASE}[targets]\ncodex_config = \"codex.toml\"\ncopilot_output = \"/abs/flags\"\n"
    );
    let c = load(&text).unwrap();
    assert_eq!(
        c.targets.path("codex_config"),
        Some(Path::new("/cfg/codex.toml"))
    );
    assert_eq!(
        c.targets.path("copilot_output"),
        Some(Path::new("/abs/flags"))
    );
    assert!(
        error(&format!("{BASE}[targets]\nclaude_settings = 3\n"))
            .contains("targets.claude_settings")
    );
}

/// A path key holding something else names the value it holds, as the
/// reference does ("got 7"), for targets, outputs and fragment paths.
#[test]
fn a_path_that_is_not_a_string_is_named_with_its_value() {
    let says = |text: &str, key: &str, found: &str| {
        let msg = error(text);
        assert!(
            msg.ends_with(&format!(
                "{key} must be a non-empty path string, found {found}"
            )),
            "{msg}"
        );
    };
    says(
        &format!("{BASE}[targets]\nclaude_settings = 3\n"),
        "targets.claude_settings",
        "3",
    );
    says(
        &replace("output = \"bash-rules.json\"", "output = [\"x\"]"),
        "sources.bash.output",
        "[\"x\"]",
    );
    says(
        &replace("path = \"srt/work.jsonc\"", "path = \"\""),
        "sources.srt.fragments.work.path",
        "\"\"",
    );
}

#[test]
fn sandbox_overrides_are_kept_per_mode() {
    let text = format!(
        "{BASE}[sandbox_overrides.yolo]\nenabled = true\nexcludedCommands = [\"docker\"]\n[sandbox_overrides.full]\nenabled = false\n"
    );
    let c = load(&text).unwrap();
    assert_eq!(c.overrides(true).get("enabled"), Some(&Value::Bool(true)));
    assert_eq!(c.overrides(false).get("enabled"), Some(&Value::Bool(false)));
    assert!(
        error(&format!("{BASE}[sandbox_overrides]\nfull = 3\n")).contains("sandbox_overrides.full")
    );
}

/// A target with a yolo variant: the full path, the yolo key's path, or
/// the derived `.yolo` name when the yolo key is unset.
#[test]
fn a_target_for_the_mode_falls_back_to_the_derived_yolo_name() {
    let c = load(&format!(
        "{BASE}[targets]\ncopilot_output = \"/f/flags.txt\"\ncodex_config = \"/c/config.toml\"\n\
         codex_rules = \"/c/r.rules\"\n"
    ))
    .unwrap();
    let t = &c.targets;
    let mode = |key: &str, yolo_key: &str, yolo: bool| t.for_mode(key, yolo_key, yolo);
    let path = |p: &str| Some(PathBuf::from(p));
    assert_eq!(
        mode("copilot_output", "copilot_output_yolo", false),
        path("/f/flags.txt")
    );
    assert_eq!(
        mode("copilot_output", "copilot_output_yolo", true),
        path("/f/flags.yolo.txt")
    );
    // Any path key can stand as the yolo one.
    assert_eq!(
        mode("codex_config", "codex_rules", true),
        path("/c/r.rules")
    );
    assert_eq!(mode("claude_settings", "claude_settings_yolo", true), None);
}

/// Each typo of the issue, with where it is written and the key meant.
#[test]
fn every_unknown_key_is_an_error_at_its_position_with_the_nearest_key() {
    let lines = BASE.lines().count();
    for (extra, expected) in [
        (
            "[target]\nclaude_settings = \"x.json\"\n",
            format!(
                "/cfg/config.toml:{}:2: unknown key \"target\" in config.toml's top level; \
                 did you mean \"targets\"?",
                lines + 1
            ),
        ),
        (
            "[sandbox_override.yolo]\nallowUnsandboxedCommands = false\n",
            format!(
                "/cfg/config.toml:{}:2: unknown key \"sandbox_override\" in config.toml's top \
                 level; did you mean \"sandbox_overrides\"?",
                lines + 1
            ),
        ),
        (
            "[sandbox_overrides.full]\nenabeld = false\n",
            format!(
                "/cfg/config.toml:{}:1: unknown key \"enabeld\" in [sandbox_overrides.full]: \
                 Claude Code 2.1.332 has no such sandbox setting and would ignore it; did you \
                 mean \"enabled\"?",
                lines + 2
            ),
        ),
        (
            "[sandbox_overrides.full.network]\nallowLocalBindng = true\n",
            format!(
                "/cfg/config.toml:{}:1: unknown key \"network.allowLocalBindng\" in \
                 [sandbox_overrides.full]: Claude Code 2.1.332 has no such sandbox setting and \
                 would ignore it; did you mean \"allowLocalBinding\"?",
                lines + 2
            ),
        ),
        (
            "[sandbox_overrides.ful]\nenabled = false\n",
            format!(
                "/cfg/config.toml:{}:20: unknown key \"ful\" in [sandbox_overrides]; did you \
                 mean \"full\"?",
                lines + 1
            ),
        ),
        (
            "[sources.srt.fragments.extra]\npath = \"e.jsonc\"\npaht = \"f.jsonc\"\n",
            format!(
                "/cfg/config.toml:{}:1: unknown key \"paht\" in [sources.srt.fragments.extra]; \
                 did you mean \"path\"?",
                lines + 3
            ),
        ),
    ] {
        assert_eq!(error(&format!("{BASE}{extra}")), expected, "{extra}");
    }
}

#[test]
fn a_misspelt_top_level_key_is_named_before_the_key_it_misses() {
    let text = replace("default_profile = \"default\"", "default_profil = \"x\"");
    assert_eq!(
        error(&text),
        "/cfg/config.toml:3:1: unknown key \"default_profil\" in config.toml's top level; did \
         you mean \"default_profile\"?"
    );
    let text = replace(
        "output = \"bash-rules.json\"",
        "outptu = \"bash-rules.json\"",
    );
    assert!(
        error(&text)
            .ends_with("unknown key \"outptu\" in [sources.bash]; did you mean \"output\"?"),
        "{text}"
    );
}

#[test]
fn a_key_far_from_every_known_one_lists_the_known_ones() {
    assert_eq!(
        error(&format!("{BASE}[colors]\n")),
        format!(
            "/cfg/config.toml:{}:2: unknown key \"colors\" in config.toml's top level; the known \
             keys are schema_version, default_profile, sources, profiles, targets, \
             sandbox_overrides, managed, claude_sync",
            BASE.lines().count() + 1
        )
    );
}

#[test]
fn every_claude_sandbox_key_is_accepted_in_an_override_at_any_depth() {
    let text = format!(
        "{BASE}[sandbox_overrides.full]\nenabled = true\nfailIfUnavailable = true\n\
         autoAllowBashIfSandboxed = false\nallowUnsandboxedCommands = false\n\
         excludedCommands = [\"docker\"]\n\
         [sandbox_overrides.full.network]\nallowLocalBinding = true\nallowManagedDomainsOnly = true\n\
         tlsTerminate = {{ caCertPath = \"a\" }}\n\
         [sandbox_overrides.full.filesystem]\nallowManagedReadPathsOnly = true\n\
         [[sandbox_overrides.yolo.credentials.files]]\npath = \"~/.netrc\"\nmode = \"deny\"\n\
         [[sandbox_overrides.yolo.credentials.files]]\npath = \"~/.x\"\nmoed = \"deny\"\n"
    );
    let msg = error(&text);
    assert!(
        msg.ends_with(
            "unknown key \"credentials.files[*].moed\" in [sandbox_overrides.yolo]: Claude Code \
             2.1.332 has no such sandbox setting and would ignore it; did you mean \"mode\"?"
        ),
        "{msg}"
    );
    let at = format!(":{}:1:", BASE.lines().count() + 18);
    assert!(msg.contains(&at), "{msg} is not at {at}");
    load(&text.replace("moed", "mode")).unwrap();
}
