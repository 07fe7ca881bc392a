//! Walks check every entry they would reach (issue 43 item 2): a symlink
//! inside a walked directory, where the program follows it (`grep -R`,
//! `rg -L`, `tar -h`, `cp -rL`, `find -L`, `zip`; find's `-exec` program
//! opens a link it is given), and a hard link to the key by device and
//! inode, for every walking program. Each attack is confirmed with real
//! bash; the same walk where the program does not follow the link passes,
//! as do the ordinary walks of a project.

use std::os::unix::fs::symlink;

use crate::hook_proc::{SECRET, all_pass, attack_home, leak_is_stopped, real_bash};

/// The planted HOME with `proj/lw/l -> ~/.ssh`, `proj/lf/k ->
/// ~/.ssh/id_rsa` and `proj/hw/hk`, a hard link of the key.
fn linked_home() -> tempfile::TempDir {
    let home = attack_home();
    let h = home.path();
    let proj = h.join("proj");
    for d in ["lw", "lf", "hw"] {
        std::fs::create_dir(proj.join(d)).unwrap();
    }
    symlink(h.join(".ssh"), proj.join("lw/l")).unwrap();
    symlink(h.join(".ssh/id_rsa"), proj.join("lf/k")).unwrap();
    std::fs::hard_link(h.join(".ssh/id_rsa"), proj.join("hw/hk")).unwrap();
    home
}

#[test]
fn a_walk_that_follows_a_link_to_the_key_is_denied() {
    let home = linked_home();
    let h = home.path();
    for command in [
        "grep -R SECRET lw",
        "grep --dereference-recursive SECRET lw",
        "rg -L SECRET lw",
        "tar -chf - lw",
        "tar chf - lw",
        "cp -rL lw out && cat out/l/id_rsa",
        "find -L lw -name id_rsa -exec cat {} +",
        "find lf -type l -exec cat {} +",
        "zip -0 -qr - lw",
        "zip -0 -qr - lf",
        "grep -R SECRET .",
    ] {
        leak_is_stopped(h, command, "deny");
    }
}

#[test]
fn a_walk_that_reaches_a_hard_link_of_the_key_is_denied() {
    let home = linked_home();
    let h = home.path();
    for command in [
        "grep -r SECRET hw",
        "rg SECRET hw",
        "tar -cf - hw",
        "cp -r hw out && cat out/hk",
        "find hw -type f -exec cat {} +",
        "zip -0 -qr - hw",
        "grep -r SECRET .",
    ] {
        leak_is_stopped(h, command, "deny");
    }
}

#[test]
fn the_same_walk_that_does_not_follow_the_link_passes() {
    let home = linked_home();
    let h = home.path();
    let quiet = [
        "grep -r SECRET lw",
        "rg SECRET lw",
        "tar -cf - lw",
        "find lw -name id_rsa",
        "find hw -name '*.txt' -exec cat {} +",
        "find lf -type f -exec cat {} +",
        "ls -R lw",
        "du -a lw",
    ];
    for command in quiet {
        assert!(!real_bash(h, command).contains(SECRET), "{command} leaks");
    }
    all_pass(h, &quiet);
}

#[test]
fn ordinary_walks_of_a_project_pass() {
    let home = attack_home();
    let h = home.path();
    std::fs::write(h.join("proj/sub/b.rs"), "// TODO\n").unwrap();
    all_pass(
        h,
        &[
            "grep -r TODO .",
            "grep -rn TODO sub",
            "rg TODO",
            "rg -L TODO",
            "tar czf out.tgz sub",
            "find . -name '*.rs' -exec wc -l {} +",
            "cp -r sub sub2",
            "zip -qr x.zip sub",
            "grep -R TODO .",
        ],
    );
}
