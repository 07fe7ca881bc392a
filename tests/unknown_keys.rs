//! Unknown keys are errors (issue 27, doc/compatibility.md row 31): every
//! key of config.toml, of an srt fragment (against srt 0.0.83's schema) and
//! of `[sandbox_overrides.*]` (against Claude Code 2.1.332's sandbox
//! settings) is known, or every command fails naming the file, the line and
//! column, the key and the nearest known key, and writes nothing. twsrt
//! 3.3.3 ignored them all.

use crate::support::*;

/// `generate -w` exits 1 with exactly `stderr` and leaves HOME as it was;
/// `show` and `diff` refuse the same way (every command loads the policy).
#[track_caller]
fn refused(test: Test, stderr: &str) {
    let mut out = test
        .args(&["generate", "-w"])
        .status(1)
        .stderr(stderr)
        .unchanged()
        .run();
    for args in [&["show"][..], &["diff"]] {
        out = out
            .then()
            .args(args)
            .status(1)
            .stderr(stderr)
            .unchanged()
            .run();
    }
}

fn srt(text: &str) -> Test {
    Test::with_policy().file(SRT_FRAGMENT, text)
}

const SRT_SAYS: &str = "(srt 0.0.83 drops unknown keys silently)";

#[test]
fn a_misspelt_srt_key_is_refused_with_its_position_and_the_key_meant() {
    refused(
        srt("{\n  \"filesystem\": {\n    \"denyread\": [\"~/.ssh\", \"~/.aws\"]\n  }\n}\n"),
        &format!(
            "Error: {{HOME}}/.config/twsrt/srt/base.jsonc:3:5: unknown srt key \
             \"filesystem.denyread\" {SRT_SAYS}; did you mean \"denyRead\"?\n"
        ),
    );
    refused(
        srt(r#"{"filesytem": {"denyRead": ["~/.ssh"]}}"#),
        &format!(
            "Error: {{HOME}}/.config/twsrt/srt/base.jsonc:1:2: unknown srt key \"filesytem\" \
             {SRT_SAYS}; did you mean \"filesystem\"?\n"
        ),
    );
    refused(
        srt(r#"{"network": {"deniedDomain": ["pastebin.com"]}}"#),
        &format!(
            "Error: {{HOME}}/.config/twsrt/srt/base.jsonc:1:14: unknown srt key \
             \"network.deniedDomain\" {SRT_SAYS}; did you mean \"deniedDomains\"?\n"
        ),
    );
    // A key of another level is named by its full path.
    refused(
        srt(r#"{"deniedDomains": ["pastebin.com"]}"#),
        &format!(
            "Error: {{HOME}}/.config/twsrt/srt/base.jsonc:1:2: unknown srt key \"deniedDomains\" \
             {SRT_SAYS}; did you mean \"network.deniedDomains\"?\n"
        ),
    );
}

#[test]
fn every_key_of_srt_0_0_83_compiles_at_every_level() {
    let every = r#"{
  "enabled": true,
  "network": {"allowedDomains": ["github.com"], "deniedDomains": ["evil.com"],
    "deniedDomainReasons": {"evil.com": "no"}, "strictAllowlist": true,
    "deniedResolvedAddresses": ["10.0.0.0/8"], "allowUnixSockets": [], "allowAllUnixSockets": false,
    "allowLocalBinding": false, "allowMachLookup": [], "httpProxyPort": 1, "socksProxyPort": 2,
    "mitmProxy": {"socketPath": "/s", "domains": ["a.com"]}, "allowPlaintextHeaderSet": false,
    "stripResponseHeaders": ["set-cookie"], "refuseOpaqueTunnels": true, "requireHostMatch": true,
    "ambiguousRequestTarget": "deny",
    "tlsTerminate": {"caCertPath": "/c", "caKeyPath": "/k", "excludeDomains": [],
      "extraCaCertPaths": [], "maxTunnels": 1, "handshakeTimeoutMs": 1},
    "parentProxy": {"http": "http://p", "https": "http://p", "noProxy": "x"}},
  "filesystem": {"disabled": false, "denyRead": ["~/.ssh"],
    "allowRead": [], "allowWrite": ["."], "denyWrite": [], "allowGitConfig": false},
  "credentials": {"files": [{"path": "~/.netrc", "mode": "mask", "extract": "(x)",
      "onExtractNoMatch": "deny", "decode": "jwt", "maskClaims": ["a"], "maskDuplicates": true,
      "injectHosts": ["github.com"]}],
    "envVars": [{"name": "T", "mode": "deny", "extract": "(x)", "onExtractNoMatch": "warn",
      "decode": "jwt", "maskClaims": ["a"], "injectHosts": []}],
    "allowPlaintextInject": false,
    "awsPairs": [{"accessKeyIdVar": "A", "secretAccessKeyVar": "B", "sessionTokenVar": "C"}],
    "sigv4": {"streaming": "deny", "presigned": "deny", "sigv4a": "deny"}},
  "ignoreViolations": {"*": ["/usr"]}, "enableWeakerNestedSandbox": false,
  "allowNestedUserNamespaces": false, "enableWeakerNetworkIsolation": false,
  "allowAppleEvents": false, "ripgrep": {"command": "rg", "args": [], "argv0": "rg"},
  "mandatoryDenySearchDepth": 3, "allowPty": false,
  "seccomp": {"applyPath": "/a", "argv0": "a"}, "bwrapPath": "/b", "socatPath": "/s",
  "javaAgentJarPath": "/j",
  "windows": {"backend": "mxc", "sandboxUser": "u", "sublayerGuid": "g", "wfpSublayerGuid": "g",
    "proxyPortRange": [1, 2], "srtWin": {"path": "/w"}},
  "git": {"safeDirectories": ["/r"]}
}"#;
    srt(every).args(&["show", "srt"]).any_stdout().run();
}

#[test]
fn a_key_named_in_allow_unknown_keys_passes_through_and_no_other_does() {
    let test = srt(r#"{"network": {"allowedDomains": [], "newSetting": true}, "later": 1}"#).file(
        CONFIG,
        BASE_CONFIG.replace(
            "[sources.srt]\n",
            "[sources.srt]\nallow_unknown_keys = [\"network.newSetting\"]\n",
        ),
    );
    refused(
        test,
        &format!(
            "Error: {{HOME}}/.config/twsrt/srt/base.jsonc:1:57: unknown srt key \"later\" \
             {SRT_SAYS}; the known keys are enabled, network, filesystem, credentials, \
             ignoreViolations, enableWeakerNestedSandbox, allowNestedUserNamespaces, \
             enableWeakerNetworkIsolation, allowAppleEvents, ripgrep, mandatoryDenySearchDepth, \
             allowPty, seccomp, bwrapPath, socatPath, javaAgentJarPath, windows, git\n"
        ),
    );
    let out = srt(r#"{"network": {"allowedDomains": [], "newSetting": true}}"#)
        .file(
            CONFIG,
            BASE_CONFIG.replace(
                "[sources.srt]\n",
                "[sources.srt]\nallow_unknown_keys = [\"network.newSetting\"]\n",
            ),
        )
        .args(&["show", "srt"])
        .any_stdout()
        .run();
    assert!(
        out.stdout.contains("\"newSetting\": true"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_misspelt_config_key_is_refused_with_its_position_and_the_key_meant() {
    let lines = BASE_CONFIG.lines().count();
    refused(
        Test::with_policy()
            .config_append("[target]\nclaude_settings = \"~/.claude/settings.full.json\"\n"),
        &format!(
            "Error: {{HOME}}/.config/twsrt/config.toml:{}:2: unknown key \"target\" in \
             config.toml's top level; did you mean \"targets\"?\n",
            lines + 1
        ),
    );
    refused(
        Test::with_policy()
            .config_append("[sandbox_override.yolo]\nallowUnsandboxedCommands = false\n"),
        &format!(
            "Error: {{HOME}}/.config/twsrt/config.toml:{}:2: unknown key \"sandbox_override\" in \
             config.toml's top level; did you mean \"sandbox_overrides\"?\n",
            lines + 1
        ),
    );
    refused(
        Test::with_policy().config_append("[sandbox_overrides.full]\nenabeld = false\n"),
        &format!(
            "Error: {{HOME}}/.config/twsrt/config.toml:{}:1: unknown key \"enabeld\" in \
             [sandbox_overrides.full]: Claude Code 2.1.332 has no such sandbox setting and would \
             ignore it; did you mean \"enabled\"?\n",
            lines + 2
        ),
    );
    refused(
        Test::with_policy().file(
            CONFIG,
            BASE_CONFIG.replace("default_profile = \"default\"", "default_profil = \"x\""),
        ),
        "Error: {HOME}/.config/twsrt/config.toml:2:1: unknown key \"default_profil\" in \
         config.toml's top level; did you mean \"default_profile\"?\n",
    );
}
