use std::path::Path;

use super::*;

const SCENARIOS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/parity/scenarios");

fn scenario_config(name: &str) -> Config {
    let path = format!("{SCENARIOS}/{name}/home/.config/twsrt/config.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    crate::config::parse(&text, Path::new("/home/u/.config/twsrt/config.toml")).unwrap()
}

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/fixtures/profiles/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path).unwrap()
}

/// On a terminal the table is twsrt 3.3.3's, escape sequences included:
/// bold headers, bold cyan names, the default in bold green, magenta
/// parents, inherited fragments dim, the footer dim italic to the width.
#[test]
fn the_terminal_table_is_the_reference_recording() {
    for (scenario, recording) in [
        ("view_profiles_inheritance", "inheritance.tty"),
        ("view_profiles_default_elsewhere", "default_elsewhere.tty"),
    ] {
        let table = profile_table(&scenario_config(scenario));
        assert_eq!(table.boxed(None), fixture(recording), "{scenario}");
        // A terminal as wide as the table or wider changes nothing.
        assert_eq!(table.boxed(Some(61)), fixture(recording), "{scenario}");
    }
}

/// On a narrower terminal the wrappable columns shrink and wrap, words too
/// long for a line end in `…`, the profile column keeps its width: as
/// 3.3.3 draws it on a terminal of 40 and of 25 columns.
#[test]
fn a_narrow_terminal_gets_the_reference_wrapping() {
    let table = profile_table(&scenario_config("view_profiles_inheritance"));
    for (columns, recording) in [
        (40, "inheritance_40_columns.tty"),
        (25, "inheritance_25_columns.tty"),
    ] {
        assert_eq!(table.boxed(Some(columns)), fixture(recording), "{columns}");
    }
}

#[test]
fn the_plain_table_has_the_same_cells_aligned_without_styles() {
    let table = profile_table(&scenario_config("view_profiles_inheritance"));
    assert_eq!(
        table.plain(),
        "Profile    Extends      srt                bash\n\
         combined   work, extra  base, work, extra  base, work\n\
         default *               base               base\n\
         extra                   extra, base        base\n\
         work       default      base, work         base, work\n\
         * default profile\n"
    );
}

fn config(text: &str) -> Config {
    crate::config::parse(text, Path::new("/h/config.toml")).unwrap()
}

const TWO_KINDS: &str = "schema_version = 1\ndefault_profile = \"d\"\n\
    [sources.bash.fragments.b]\npath = \"b.jsonc\"\n\
    [sources.srt.fragments.s]\npath = \"s.jsonc\"\n\
    [sources.srt.fragments.t]\npath = \"t.jsonc\"\n\
    [profiles.d]\nsrt = [\"s\"]\nbash = [\"b\"]\n\
    [profiles.mix]\nsrt = [\"t\"]\n\
    [profiles.c]\nextends = [\"d\"]\nsrt = [\"t\", \"s\"]\n";

/// The plain table's cells, cut at the offsets where the header's columns start.
fn cells(plain: &str) -> Vec<Vec<String>> {
    let header = plain.lines().next().unwrap_or_default();
    let bytes = header.as_bytes();
    let mut starts = vec![0];
    starts.extend((2..bytes.len()).filter(|&i| bytes[i] != b' ' && bytes[i - 2..i] == *b"  "));
    plain
        .lines()
        .map(|line| {
            (0..starts.len())
                .map(|i| {
                    let end = starts.get(i + 1).map_or(line.len(), |&e| e.min(line.len()));
                    line.get(starts[i].min(end)..end)
                        .unwrap_or("")
                        .trim()
                        .to_string()
                })
                .collect()
        })
        .collect()
}

/// Kind columns in config.toml order, rows by name; an unresolvable
/// profile says why in the first kind column and leaves the others empty.
#[test]
fn rows_are_sorted_and_an_unresolvable_profile_is_invalid() {
    let plain = profile_table(&config(TWO_KINDS)).plain();
    assert_eq!(plain.lines().last(), Some("* default profile"));
    let table = cells(&plain);
    assert_eq!(table[0], ["Profile", "Extends", "bash", "srt"]);
    assert_eq!(table[1], ["c", "d", "b", "s, t"]);
    assert_eq!(table[2], ["d *", "", "b", "s"]);
    assert_eq!(table[3][..2], ["mix", ""]);
    assert!(table[3][2].starts_with("invalid: "), "{:?}", table[3]);
    assert!(table[3][2].contains("'mix'") && table[3][2].contains("bash"));
    assert_eq!(table[3][3], "");
    assert_eq!(table.len(), 5);
}

/// On a terminal a fragment the profile inherits is dim; one it selects
/// itself is plain, even when a parent selects it too.
#[test]
fn inherited_fragments_are_dim_and_own_ones_plain() {
    let boxed = profile_table(&config(TWO_KINDS)).boxed(None);
    let row = |name: &str| {
        let cell = format!("\x1b[1;36m{name} ");
        boxed
            .lines()
            .find(|l| l.contains(&cell))
            .unwrap_or_default()
            .to_string()
    };
    assert!(row("c").contains("│ \x1b[2mb\x1b[0m "), "{:?}", row("c"));
    assert!(row("c").ends_with("│ s, t │"), "{:?}", row("c"));
    let own_t = TWO_KINDS.replace("srt = [\"t\", \"s\"]", "srt = [\"t\"]");
    let boxed = profile_table(&config(&own_t)).boxed(None);
    let c_row = boxed
        .lines()
        .find(|l| l.contains("\x1b[1;36mc "))
        .unwrap_or_default();
    assert!(c_row.contains("\x1b[2ms\x1b[0m, t"), "{c_row:?}");
    assert!(boxed.contains("│ \x1b[31minvalid: "), "{boxed}");
}
