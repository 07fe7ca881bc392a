//! The file tools (issue 43 item 3): Claude Code's Glob patterns are
//! expanded as its ripgrep call does (braces, `**`, hidden files, an
//! absolute pattern from its literal directory) and each match checked
//! through links and inodes; Grep walks its directory like `rg`; LS and
//! MCP tools with a path argument are compared like Read and Write.

use std::os::unix::fs::symlink;

use serde_json::{Value, json};

use crate::hook_proc::{attack_home, decisions};

#[track_caller]
fn expect(home: &std::path::Path, tool: &str, input: Value, full: &str) {
    let yolo = if full == "pass" { "pass" } else { "deny" };
    let got = decisions(home, tool, &input);
    assert_eq!(got, (full.to_string(), yolo.to_string()), "{tool} {input}");
}

#[test]
fn glob_patterns_reach_what_claude_code_would_list() {
    let home = attack_home();
    let h = home.path();
    let proj = h.join("proj");
    symlink(h.join(".ssh"), proj.join("link")).unwrap();
    symlink(h, proj.join("hh")).unwrap();
    let abs = h.display().to_string();
    for pattern in [
        "**/../.ssh/*".to_string(),
        "../.ssh/*".to_string(),
        format!("{{{abs}/.ssh/*,x}}"),
        "link/*".to_string(),
        "*/.ssh/*".to_string(),
        "**/id_rsa".to_string(),
        format!("/proc/*/root{abs}/.ssh/*"),
        format!("/proc/self/root{abs}/.ssh/id_*"),
    ] {
        expect(h, "Glob", json!({ "pattern": pattern }), "deny");
    }
    // The same patterns from a directory without the links.
    let sub = proj.join("sub").display().to_string();
    for pattern in ["link/*", "*/.ssh/*", "**/id_rsa", "**/*.txt"] {
        expect(
            h,
            "Glob",
            json!({ "pattern": pattern, "path": sub }),
            "pass",
        );
    }
}

#[test]
fn grep_ls_and_mcp_paths_are_compared() {
    let home = attack_home();
    let h = home.path();
    let proj = h.join("proj");
    std::fs::create_dir(proj.join("hw")).unwrap();
    std::fs::hard_link(h.join(".ssh/id_rsa"), proj.join("hw/hk")).unwrap();
    let p = |rel: &str| h.join(rel).display().to_string();
    expect(
        h,
        "Grep",
        json!({ "pattern": "SECRET", "path": p("proj/hw") }),
        "deny",
    );
    expect(h, "Grep", json!({ "pattern": "SECRET" }), "deny");
    expect(
        h,
        "Grep",
        json!({ "pattern": "x", "path": p("proj/sub") }),
        "pass",
    );
    expect(h, "LS", json!({ "path": p(".ssh") }), "deny");
    expect(h, "LS", json!({ "path": p("proj") }), "pass");
    let read = "mcp__fs__read_file";
    let write = "mcp__fs__write_file";
    expect(h, read, json!({ "path": p(".ssh/id_rsa") }), "deny");
    expect(h, read, json!({ "path": p("proj/hw/hk") }), "deny");
    expect(
        h,
        read,
        json!({ "args": { "paths": [p("proj/notes.txt"), p(".ssh/id_rsa")] } }),
        "deny",
    );
    expect(h, read, json!({ "path": p("proj/notes.txt") }), "pass");
    expect(
        h,
        "mcp__fs__list_directory",
        json!({ "path": p("proj/sub") }),
        "pass",
    );
    let off = json!({ "path": p("proj/.claude/settings.local.json"), "content": "{}" });
    expect(h, write, off, "deny");
    expect(
        h,
        write,
        json!({ "file": "../.ssh/config", "content": "x" }),
        "deny",
    );
    expect(
        h,
        write,
        json!({ "path": p("proj/new.txt"), "content": "x" }),
        "pass",
    );
    expect(
        h,
        "mcp__web__fetch",
        json!({ "url": "https://example.com/x" }),
        "pass",
    );
}

#[test]
fn ordinary_file_tool_calls_pass() {
    let home = attack_home();
    let h = home.path();
    std::fs::write(h.join("proj/sub/m.rs"), "fn main() {}\n").unwrap();
    for pattern in [
        "**/*.rs",
        "*.txt",
        "sub/**/*.rs",
        "**/*.{rs,txt}",
        "src/**/*.ts",
    ] {
        expect(h, "Glob", json!({ "pattern": pattern }), "pass");
    }
    expect(
        h,
        "Grep",
        json!({ "pattern": "main", "glob": "*.rs" }),
        "pass",
    );
    let notes = h.join("proj/notes.txt").display().to_string();
    expect(h, "Read", json!({ "file_path": notes }), "pass");
}
