//! Globs are expanded against the file system as bash does (issue 43 item
//! 2): each match is the path it is, its links followed and its inode
//! compared, so a symlink or a hard link in the project that a glob picks
//! up is caught; a glob through a link the same line makes cannot be seen
//! and is asked about. Each attack is confirmed with real bash first.

use std::os::unix::fs::symlink;

use serde_json::json;

use crate::hook_proc::{SECRET, all_pass, attack_home, decisions, leak_is_stopped, real_bash};

#[test]
fn a_glob_that_picks_up_a_link_to_the_key_is_denied() {
    let home = attack_home();
    let h = home.path();
    let proj = h.join("proj");
    symlink(h.join(".ssh"), proj.join("d")).unwrap();
    symlink(h.join(".ssh/id_rsa"), proj.join("k")).unwrap();
    std::fs::create_dir(proj.join("hl")).unwrap();
    std::fs::hard_link(h.join(".ssh/id_rsa"), proj.join("hl/key")).unwrap();
    for command in [
        "cat */id_rsa",
        "cat k*",
        "head -n5 *",
        "cat d/*",
        "cat ?/id_*",
        "cat hl/*",
        "cat h?/k*",
        "cat < k*",
    ] {
        leak_is_stopped(h, command, "deny");
    }
    // A loop variable is not followed to the words it takes: asked about.
    leak_is_stopped(h, "for f in *; do cat \"$f\"; done", "ask");
}

#[test]
fn a_glob_through_a_link_the_same_line_makes_is_asked_about() {
    let home = attack_home();
    let h = home.path();
    let rc = h.join(".bashrc");
    real_bash(h, "ln -s ~ h; echo x >> ?/.bashrc");
    assert_eq!(
        std::fs::read_to_string(&rc).unwrap(),
        "rc\nx\n",
        "real bash"
    );
    std::fs::remove_file(h.join("proj/h")).unwrap();
    for command in [
        "ln -s ~ h; echo x >> ?/.bashrc",
        "ln -s ~ s && cat ?/.ssh/id_rsa",
        "ln -s ~ /tmp/t43h-$$ ; cat /tmp/t43h-*/.ssh/id_rsa",
    ] {
        let got = decisions(h, "Bash", &json!({ "command": command }));
        assert_eq!(got, ("ask".into(), "deny".into()), "{command}");
    }
    assert!(
        real_bash(h, "ln -s ~ s && cat ?/.ssh/id_rsa").contains(SECRET),
        "real bash"
    );
}

#[test]
fn a_glob_write_into_a_link_to_the_config_is_denied() {
    let home = attack_home();
    let h = home.path();
    symlink(h, h.join("proj/hh")).unwrap();
    let config = h.join(crate::support::CONFIG);
    let before = std::fs::read_to_string(&config).unwrap();
    real_bash(h, "echo evil > evil; cp evil */.config/twsrt/config.toml");
    assert_eq!(
        std::fs::read_to_string(&config).unwrap(),
        "evil\n",
        "real bash"
    );
    std::fs::write(&config, before).unwrap();
    let command = "cp evil */.config/twsrt/config.toml";
    let got = decisions(h, "Bash", &json!({ "command": command }));
    assert_eq!(got, ("deny".into(), "deny".into()), "{command}");
}

#[test]
fn ordinary_globs_pass() {
    let home = attack_home();
    let h = home.path();
    std::fs::write(h.join("proj/main.c"), "int main;\n").unwrap();
    all_pass(
        h,
        &[
            "cat *.txt",
            "ls *",
            "head -n5 *",
            "wc -l sub/*",
            "cat sub/*.txt",
            "chmod 644 *.txt",
            "cp *.txt /tmp/",
            "ls ~/proj/*",
            "cat ~/*/notes.txt",
            "grep -l main *.c",
        ],
    );
}
