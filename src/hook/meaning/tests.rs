use super::*;

fn fits(rule_text: &str, command: &str) -> Fit {
    let rule = rule(rule_text).expect("a plain rule");
    let all = bash::simple_commands(command);
    let mut best = Fit::No;
    for words in &all {
        match fit(&rule, words) {
            Fit::Sure => return Fit::Sure,
            Fit::Unless(w) => best = Fit::Unless(w),
            Fit::No => {}
        }
    }
    best
}

#[test]
fn rm_rf_falls_under_its_rule_in_every_spelling() {
    for command in [
        "rm -rf x",
        "rm -fr x",
        "rm -r -f x",
        "rm -f -r x",
        "rm --recursive --force x",
        "rm --recursive -f x",
        "rm --rec --forc x",
        "rm -Rf x",
        "rm -R -f x",
        "rm -v -fr x",
        "rm x -fr",
        "rm -fr -- x",
        "/bin/rm -fr x",
        "\\rm -fr x",
        "\"r\"\"m\" -fr x",
        "sudo rm -fr x",
        "sudo -u root env FOO=1 rm -fr x",
        "bash -c 'rm -fr x'",
        "sh -c \"bash -c 'rm -r -f x'\"",
        "echo $(rm -fr x)",
        "true && rm -fr x",
        "cat y | xargs rm -fr",
        "find . -name y -exec rm -fr {} \\;",
        "f() { rm -fr x; }; f",
    ] {
        assert_eq!(fits("rm -rf", command), Fit::Sure, "{command}");
    }
}

#[test]
fn other_commands_and_options_do_not_fall_under_rm_rf() {
    for command in [
        "rm -r x",
        "rm -f x",
        "rm --force x",
        "rm -- -rf",
        "rm -d -f x",
        "rmdir -rf x",
        "echo rm -rf x",
        "git rm -rf x",
        "rm --recursive-ish -f x",
    ] {
        assert_eq!(fits("rm -rf", command), Fit::No, "{command}");
    }
}

#[test]
fn undetermined_words_that_may_complete_a_rule_are_in_doubt() {
    for (command, word) in [
        ("rm -f $F x", "$F"),
        ("F=-r; rm -f $F x", "$F"),
        ("rm -f * x", "*"),
        ("rm \"$F\" x", "\"$F\""),
    ] {
        assert_eq!(
            fits("rm -rf", command),
            Fit::Unless(word.into()),
            "{command}"
        );
    }
    // A word that starts with a letter or a slash is no option.
    assert_eq!(fits("rm -rf", "rm -f ./$F x"), Fit::No);
    assert_eq!(fits("rm -rf", "rm -f x/*"), Fit::No);
    // After `--` an undetermined word is an operand only.
    assert_eq!(fits("rm -rf", "rm -f -- $F"), Fit::No);
    // A missing operand may be the undetermined one.
    assert_eq!(fits("rm -rf /", "rm -rf $D"), Fit::Unless("$D".into()));
}

#[test]
fn operands_appear_in_order_paths_as_the_same_path() {
    assert_eq!(fits("rm -rf /", "rm -fr x /"), Fit::Sure);
    assert_eq!(fits("rm -rf /", "rm -fr //"), Fit::Sure);
    assert_eq!(fits("rm -rf /", "rm -fr /./"), Fit::Sure);
    assert_eq!(fits("rm -rf /", "rm -fr /tmp"), Fit::No);
    assert_eq!(fits("cp a b", "cp -v a b"), Fit::Sure);
    assert_eq!(fits("cp a b", "cp b a"), Fit::No);
}

#[test]
fn git_push_force_by_meaning() {
    for command in [
        "git push --force origin main",
        "git push origin main -f",
        "git push -f",
        "git push --forc\\e origin",
        "git -C repo push origin main --force",
        "git -c user.name=x push -vf origin",
        "git push origin +main",
        "cd repo && git push -uf origin main",
    ] {
        assert_eq!(fits("git push --force", command), Fit::Sure, "{command}");
    }
    for command in [
        "git push origin main",
        "git push --force-with-lease origin main",
        "git push --force-if-includes origin",
        // `--forc` is ambiguous to git (measured: "ambiguous option").
        "git push --forc origin",
        "git stash push -f",
        "git log push -f",
        "git push -o force origin",
        "git push --repo --force origin",
    ] {
        assert_eq!(fits("git push --force", command), Fit::No, "{command}");
    }
}

#[test]
fn option_values_match_in_both_spellings() {
    assert_eq!(fits("git push --repo=up", "git push --repo up"), Fit::Sure);
    assert_eq!(fits("git push --repo up", "git push --repo=up"), Fit::Sure);
    assert_eq!(fits("git push --repo up", "git push --repo=down"), Fit::No);
}

#[test]
fn rules_with_operators_or_wildcards_are_left_to_the_prefix_rules() {
    assert!(rule("curl | sh").is_none());
    assert!(rule("git * --force").is_none());
    assert!(rule("'unclosed").is_none());
    assert!(rule("npm install:*").is_some());
    assert_eq!(fits("npm install:*", "npm i"), Fit::No);
    assert_eq!(fits("npm install:*", "npm install left-pad"), Fit::Sure);
    assert_eq!(fits("git commit *", "git commit -m x"), Fit::Sure);
}

#[test]
fn missed_spellings_lists_what_a_prefix_does_not_match() {
    let rm = missed_spellings("rm -rf");
    for s in [
        "rm -fr",
        "rm -r -f",
        "rm --recursive --force",
        "rm -Rf",
        "rm --r --f",
    ] {
        assert!(rm.contains(&s.to_string()), "{s} in {rm:?}");
    }
    let push = missed_spellings("git push --force");
    for s in [
        "git push -f",
        "git push origin +HEAD",
        "git push origin HEAD -f",
    ] {
        assert!(push.contains(&s.to_string()), "{s} in {push:?}");
    }
    let slash = missed_spellings("rm -rf /");
    assert!(slash.contains(&"rm -fr /".to_string()), "{slash:?}");
    assert!(slash.contains(&"rm / -r -f".to_string()), "{slash:?}");
    assert_eq!(missed_spellings("dd"), Vec::<String>::new());
    assert_eq!(missed_spellings("curl | sh"), Vec::<String>::new());
}

#[test]
fn every_missed_spelling_is_caught_and_is_no_prefix_of_the_rule() {
    for rule_text in [
        "rm -rf",
        "rm -rf /",
        "git push --force",
        "git push -f",
        "rm -r",
        "chmod -R 777",
    ] {
        let prefix = rule_text;
        let rule = rule(rule_text).expect("plain");
        for spelling in missed_spellings(rule_text) {
            assert!(!spelling.starts_with(prefix), "{rule_text}: {spelling}");
            let words = bash::simple_commands(&spelling);
            assert_eq!(fit(&rule, &words[0]), Fit::Sure, "{rule_text}: {spelling}");
        }
    }
}

fn verdict(command: &str) -> Verdict {
    let policy = Policy::from_lists(
        std::path::Path::new("/home/u"),
        std::path::Path::new("/home/u/p"),
        &[],
        &[],
    )
    .with_bash_rules(&["rm -rf", "git push --force"], &[]);
    let event = Event {
        tool_name: "Bash".into(),
        tool_input: serde_json::json!({ "command": command }),
        cwd: "/home/u/p".into(),
    };
    crate::hook::decide(&event, &policy, crate::hook::Mode::Full)
}

/// What a prompt-injected agent would try: each is denied or asked about.
#[test]
fn an_agents_evasions_are_denied_or_asked_about() {
    for command in [
        "command rm -fr x",
        "exec -a foo rm -fr x",
        "env rm -fr x",
        "nice -n 5 rm -fr x",
        "timeout 5 rm -fr x",
        "nohup rm -fr x",
        "echo x | xargs -0 rm -fr",
        "eval \"rm -r\" -f x",
        "bash <<EOF\nrm -fr x\nEOF\n",
        "busybox rm -fr x",
        "time rm -fr x",
        "(rm -fr x)",
        "for i in 1; do rm -fr x; done",
        "rm -fr x &",
        "watch rm -fr x",
        "git --no-pager push -f",
        "git -P push -f",
        "trap 'rm -fr x' EXIT",
        "su -c 'rm -fr x'",
        "X=1 rm -fr x 2>/dev/null",
        "find . -exec rm -fr {} +",
        "chroot / rm -fr x",
        "flock /tmp/l rm -fr x",
        "parallel rm -fr ::: x",
    ] {
        assert!(matches!(verdict(command), Verdict::Deny(_)), "{command}");
    }
    for command in [
        "rm -fr${IFS}x",
        "r=rm; $r -fr x",
        "source <(echo rm -fr x)",
        "sh -c \"$(echo rm -fr x)\"",
        "f() { rm \"$@\"; }; f -fr x",
        "git -c alias.p='push --force' p",
        "git --config-env=alias.p=P p",
    ] {
        assert!(matches!(verdict(command), Verdict::Ask(_)), "{command}");
    }
    // Any git rule, not only the ones with an option table.
    let policy = Policy::from_lists(
        std::path::Path::new("/home/u"),
        std::path::Path::new("/home/u/p"),
        &[],
        &[],
    )
    .with_bash_rules(&["git reset --hard"], &[]);
    for command in ["git -c alias.r='reset --hard' r", "git -calias.r=x r"] {
        let event = Event {
            tool_name: "Bash".into(),
            tool_input: serde_json::json!({ "command": command }),
            cwd: "/home/u/p".into(),
        };
        let answer = crate::hook::decide(&event, &policy, crate::hook::Mode::Full);
        assert!(matches!(answer, Verdict::Ask(_)), "{command}: {answer:?}");
    }
}

/// The exact examples doctor prints, in order.
#[test]
fn missed_spellings_are_listed_in_a_fixed_order() {
    assert_eq!(
        missed_spellings("rm -rf"),
        [
            "rm -fr",
            "rm -r -f",
            "rm -Rf",
            "rm --recursive --force",
            "rm --r --f"
        ]
    );
    assert_eq!(
        missed_spellings("git push --force"),
        [
            "git push -f",
            "git push origin +HEAD",
            "git push origin HEAD -f"
        ]
    );
    assert_eq!(
        missed_spellings("rm -rf /"),
        [
            "rm -fr /",
            "rm -r -f /",
            "rm -Rf /",
            "rm --recursive --force /",
            "rm --r --f /",
            "rm / -r -f"
        ]
    );
}
