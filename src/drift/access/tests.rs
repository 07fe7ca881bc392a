use std::path::Path;

use serde_json::json;

use super::*;
use crate::srt::path::absolute;

fn places() -> Places<'static> {
    Places {
        home: Path::new("/h"),
        cwd: Path::new("/h/project"),
    }
}

fn read(srt: &Value, path: &str) -> (Verdict, Option<String>) {
    let d = srt_read(srt, Path::new(path), &places());
    (d.verdict, d.rule)
}

fn write(srt: &Value, path: &str) -> (Verdict, Option<String>) {
    let d = srt_write(srt, Path::new(path), &places());
    (d.verdict, d.rule)
}

#[test]
fn reads_are_deny_then_allow() {
    let srt = json!({"filesystem": {"denyRead": ["~/.config"], "allowRead": ["~/.config/app"]}});
    assert_eq!(
        read(&srt, "/h/.config/gh/hosts.yml"),
        (Verdict::Deny, Some("~/.config".into()))
    );
    assert_eq!(
        read(&srt, "/h/.config/app/x"),
        (Verdict::Allow, Some("~/.config/app".into()))
    );
    assert_eq!(read(&srt, "/h/.configx"), (Verdict::Allow, None));
    // An allowRead wider than the deny does not lift it.
    let wide = json!({"filesystem": {"denyRead": ["~/.ssh"], "allowRead": ["~"]}});
    assert_eq!(
        read(&wide, "/h/.ssh/id"),
        (Verdict::Deny, Some("~/.ssh".into()))
    );
}

#[test]
fn writes_are_allow_only_with_the_denies_inside() {
    let srt = json!({"filesystem": {"allowWrite": [".", "/tmp"], "denyWrite": ["./secrets"]}});
    assert_eq!(
        write(&srt, "/h/project/src/a.rs"),
        (Verdict::Allow, Some(".".into()))
    );
    assert_eq!(
        write(&srt, "/h/project/secrets/k"),
        (Verdict::Deny, Some("./secrets".into()))
    );
    assert_eq!(write(&srt, "/h/other"), (Verdict::Deny, None));
    assert_eq!(write(&srt, "/tmpfile"), (Verdict::Deny, None));
}

#[test]
fn a_write_glob_is_enforced_only_where_srt_keeps_it() {
    let srt = json!({"filesystem": {"allowWrite": ["."], "denyWrite": ["**/*.pem"]}});
    let d = srt_write(&srt, Path::new("/h/project/k.pem"), &places());
    if WRITE_GLOBS_DROPPED {
        assert_eq!(d.verdict, Verdict::Allow);
        assert!(d.note.unwrap().contains("srt does not enforce this here"));
    } else {
        assert_eq!(d.verdict, Verdict::Deny);
    }
}

#[test]
fn domains_deny_first_then_allow_only() {
    let srt = json!({"network": {"allowedDomains": ["*.github.com", "github.com"],
        "deniedDomains": ["gist.github.com"]}});
    let verdict = |d: &str| srt_network(&srt, d).verdict;
    assert_eq!(verdict("api.github.com"), Verdict::Allow);
    assert_eq!(verdict("GitHub.com"), Verdict::Allow);
    assert_eq!(verdict("gist.github.com"), Verdict::Deny);
    assert_eq!(verdict("notgithub.com"), Verdict::Deny);
    assert!(domain_matches("*.github.com", "a.b.github.com"));
    assert!(domain_matches("*.github.com", "*.github.com"));
    assert!(!domain_matches("*.github.com", "github.com"));
    assert!(!domain_matches("*.github.com", "xgithub.com"));
}

#[test]
fn commands_deny_then_ask_then_allow_by_whole_words() {
    let bash = json!({"allow": ["git"], "ask": ["git push"], "deny": ["git push --force"]});
    let verdict = |c: &str| bash_command(&bash, c).verdict;
    assert_eq!(verdict("git push --force origin"), Verdict::Deny);
    assert_eq!(verdict("git push origin"), Verdict::Ask);
    assert_eq!(verdict("git status"), Verdict::Allow);
    assert_eq!(verdict("gitk"), Verdict::NotCovered);
    assert!(command_matches("rm -rf /", "rm  -rf  /"));
    assert!(!command_matches("rm", "rmdir x"));
}

#[test]
fn paths_resolve_home_and_the_working_directory_lexically() {
    assert_eq!(absolute("~/a/../b", &places()), Path::new("/h/b"));
    assert_eq!(absolute("./x/./y", &places()), Path::new("/h/project/x/y"));
    assert_eq!(absolute("~", &places()), Path::new("/h"));
}

fn network(srt: &Value, domain: &str) -> (Verdict, Option<String>, Option<String>) {
    let d = srt_network(srt, domain);
    (d.verdict, d.rule, d.note)
}

#[test]
fn a_port_entry_decides_its_port_and_a_portless_query_is_https() {
    // Was: allow by evil.com (the port entry matched nothing).
    let srt =
        json!({"network": {"allowedDomains": ["evil.com"], "deniedDomains": ["evil.com:443"]}});
    assert_eq!(
        network(&srt, "evil.com"),
        (
            Verdict::Deny,
            Some("evil.com:443".into()),
            Some("for https (port 443); any other port allow (evil.com)".into())
        )
    );
    assert_eq!(srt_network(&srt, "evil.com:443").verdict, Verdict::Deny);
    let on_80 = srt_network(&srt, "evil.com:80");
    assert_eq!(
        (on_80.verdict, on_80.rule.as_deref()),
        (Verdict::Allow, Some("evil.com"))
    );
    // Allowed on one port only: denied for https, the note names the port.
    let srt = json!({"network": {"allowedDomains": ["github.com:8443"], "deniedDomains": []}});
    assert_eq!(
        network(&srt, "github.com"),
        (
            Verdict::Deny,
            None,
            Some(
                "not in allowedDomains: connections are denied; \
                 for https (port 443); port 8443 allow (github.com:8443)"
                    .into()
            )
        )
    );
    // Every port the same: the plain answer.
    let srt = json!({"network": {"allowedDomains": ["x.io:443"], "deniedDomains": ["x.io"]}});
    assert_eq!(
        network(&srt, "x.io"),
        (Verdict::Deny, Some("x.io".into()), None)
    );
}

#[test]
fn ip_entries_and_the_deny_all_star_decide_as_srt_does() {
    // Was: deny by *.0.0.1 (a wildcard never covers an IP literal in srt).
    let srt = json!({"network": {"allowedDomains": ["127.0.0.1"], "deniedDomains": ["*.0.0.1"]}});
    assert_eq!(
        network(&srt, "127.0.0.1"),
        (Verdict::Allow, Some("127.0.0.1".into()), None)
    );
    // IPv4 shorthand is the address it spells.
    assert_eq!(
        srt_network(&srt, "127.1").rule.as_deref(),
        Some("127.0.0.1")
    );
    assert_eq!(srt_network(&srt, "probe.0.0.1").verdict, Verdict::Deny);
    // Was: allow by github.com (`*` matched nothing).
    let srt = json!({"network": {"allowedDomains": ["github.com"], "deniedDomains": ["*"]}});
    assert_eq!(
        network(&srt, "github.com"),
        (Verdict::Deny, Some("*".into()), None)
    );
    assert_eq!(srt_network(&srt, "*.github.com").rule.as_deref(), Some("*"));
    assert!(domain_matches("*", "x.io"));
    assert!(domain_matches("evil.com:443", "evil.com"));
    assert!(domain_matches("evil.com:443", "evil.com:443"));
    assert!(!domain_matches("evil.com:443", "evil.com:80"));
    assert!(!domain_matches("*:22", "evil.com"));
    assert!(domain_matches("*:22", "evil.com:22"));
    assert!(!domain_matches("*.0.0.1", "127.0.0.1"));
    assert!(domain_matches("[::1]", "[0:0:0:0:0:0:0:1]"));
}

#[test]
fn a_directory_suffix_is_the_directory_srt_enforces_in_a_write_list() {
    // Was: allowed on Linux, "srt does not enforce this here" (srt removes
    // the `/**` and enforces ~/.aws).
    let srt = json!({"filesystem": {"allowWrite": ["~"], "denyWrite": ["~/.aws/**"],
        "denyRead": ["~/.aws/**"]}});
    assert_eq!(
        write(&srt, "/h/.aws/credentials"),
        (Verdict::Deny, Some("~/.aws/**".into()))
    );
    assert_eq!(
        read(&srt, "/h/.aws"),
        (Verdict::Deny, Some("~/.aws/**".into()))
    );
    assert!(
        srt_read(&srt, Path::new("/h/.aws"), &places())
            .note
            .is_none()
    );
}

#[test]
fn an_agent_s_domain_row_notes_srt_s_matching_only_where_a_port_or_a_wildcard_takes_part() {
    let noted = |patterns: &[&str], domain: &str| {
        let decision = Decision::without_rule(Verdict::NotCovered, Some("n"));
        srt_matched(decision, patterns.iter().copied(), domain).note
    };
    let with_note = Some(format!("n; {SRT_MATCHING}"));
    assert_eq!(noted(&["evil.com"], "evil.com"), Some("n".into()));
    assert_eq!(
        noted(&["evil.com", "*.other.org"], "evil.com"),
        Some("n".into())
    );
    assert_eq!(noted(&["evil.com"], "evil.com:8443"), with_note);
    assert_eq!(noted(&["evil.com:443"], "evil.com"), with_note);
    assert_eq!(noted(&["*.example.org"], "api.example.org"), with_note);
    assert_eq!(noted(&["*"], "x.io"), with_note);
    assert_eq!(noted(&[], "*.example.org"), with_note);
    let bare = srt_matched(Decision::without_rule(Verdict::Deny, None), ["*"], "x.io");
    assert_eq!(bare.note.as_deref(), Some(SRT_MATCHING));
}

#[test]
fn a_declared_credential_file_is_a_read_deny_and_a_masked_one_says_so() {
    let srt = json!({"filesystem": {"denyRead": []}, "credentials": {"files": [
        {"path": "/h/.netrc", "mode": "mask"}, {"path": "/h/.pgpass", "mode": "deny"}]}});
    let masked = srt_read(&srt, Path::new("/h/.netrc"), &places());
    assert_eq!(masked.verdict, Verdict::Deny);
    assert_eq!(masked.list.as_deref(), Some("credentials.files (mask)"));
    assert_eq!(
        masked.note.as_deref(),
        Some("the sandbox reads a stand-in, not the file")
    );
    let denied = srt_read(&srt, Path::new("/h/.pgpass"), &places());
    assert_eq!(denied.list.as_deref(), Some("credentials.files (deny)"));
    assert_eq!(
        srt_read(&srt, Path::new("/h/x"), &places()).verdict,
        Verdict::Allow
    );
}

#[test]
fn the_strict_allowlist_refuses_without_asking() {
    let srt = json!({"network": {"allowedDomains": ["github.com"], "strictAllowlist": true}});
    assert_eq!(
        srt_network(&srt, "example.com").note.as_deref(),
        Some("not in allowedDomains: connections are denied without asking (strictAllowlist)")
    );
    let lax = json!({"network": {"allowedDomains": ["github.com"]}});
    assert_eq!(
        srt_network(&lax, "example.com").note.as_deref(),
        Some("not in allowedDomains: connections are denied")
    );
}
