//! The command reference: the man pages `make man` writes (examples/man.rs,
//! clap_mangen over `twsrt::cli::reference`) and the version lines.

use std::collections::BTreeSet;

use crate::support::*;

/// The subcommands `twsrt --help` lists, read from its `Commands:` block.
fn subcommands_in_help() -> BTreeSet<String> {
    let help = Test::new().args(&["--help"]).any_stdout().run().stdout;
    let block = help
        .split("Commands:\n")
        .nth(1)
        .expect("--help has a Commands: block");
    block
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_owned)
        .collect()
}

/// `make man` writes `twsrt.1` and one page per subcommand; the root page
/// names each of them, and each page carries its command's name.
#[test]
fn the_man_pages_build_and_name_every_subcommand() {
    let commands = subcommands_in_help();
    assert!(commands.len() >= 13, "{commands:?}");
    assert!(commands.contains("generate") && commands.contains("hook"));

    let dir = tempfile::tempdir().expect("temp dir");
    clap_mangen::generate_to(twsrt::cli::reference(), dir.path()).expect("man pages render");

    let root = std::fs::read_to_string(dir.path().join("twsrt.1")).expect("twsrt.1");
    assert!(root.starts_with(".ie \\n(.g .ds Aq"), "{root}");
    assert!(root.contains(".TH twsrt 1"), "{root}");
    for name in &commands {
        assert!(
            root.contains(&format!("twsrt\\-{name}(1)")),
            "twsrt.1 does not name {name}"
        );
        let page = std::fs::read_to_string(dir.path().join(format!("twsrt-{name}.1")))
            .unwrap_or_else(|e| panic!("twsrt-{name}.1: {e}"));
        assert!(page.contains(&format!(".TH twsrt-{name} 1")), "{page}");
    }
    let version = format!(
        ".SH VERSION\nv{}\nfollows twsrt 3.3.3\n",
        env!("CARGO_PKG_VERSION")
    );
    assert!(root.contains(&version), "twsrt.1 lacks {version}: {root}");
}

/// `-V` prints twsrt's own version, `--version` also the 3.3.3 release whose
/// behaviour it follows (doc/compatibility.md row 37).
#[test]
fn the_version_is_our_own_and_names_the_release_it_follows() {
    let short = format!("twsrt {}\n", env!("CARGO_PKG_VERSION"));
    assert!(!short.contains("version:"));
    Test::new().args(&["-V"]).stdout(&short).run();
    Test::new()
        .args(&["--version"])
        .stdout(&format!("{short}follows twsrt 3.3.3\n"))
        .run();
}
