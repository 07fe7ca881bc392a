//! Parity replay: run the port on every scenario recorded from the reference twsrt 3.3.3
//! (`tests/parity/scenarios/<name>/`) and compare exit code, stdout, stderr facts and the
//! HOME tree afterwards. A scenario's `port_cmd`, when present, replaces its `cmd` for the
//! port (the `-n` forms 3.3.3 rejects and the port keeps accepting). The format, the facts rule and the deliberate divergences honoured
//! here are described in `tests/parity/README.md`.
//!
//! `PARITY_FILTER=substring` runs a subset; `PARITY_VERBOSE=1` prints the full report of
//! pending scenarios too (implied by `PARITY_FILTER`). Scenarios named in
//! `tests/parity/pending.txt` may fail; one that passes must be removed from the list.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use similar::TextDiff;
use toml_edit::{DocumentMut, Item, Value};

const PLACEHOLDER: &str = "{HOME}";
/// The environment the reference was recorded with (see record.py FIXED_ENV).
const FIXED_ENV: [(&str, &str); 4] = [
    ("NO_COLOR", "1"),
    ("TERM", "dumb"),
    ("COLUMNS", "200"),
    ("LC_ALL", "C.UTF-8"),
];
/// Mode the port gives every file it creates (a deliberate divergence, see README.md).
const NEW_FILE_MODE: u32 = 0o600;

fn parity_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("parity")
}

#[test]
fn parity() {
    let dir = parity_dir();
    let filter = std::env::var("PARITY_FILTER")
        .ok()
        .filter(|f| !f.is_empty());
    let verbose = filter.is_some() || std::env::var_os("PARITY_VERBOSE").is_some();
    let pending = read_pending(&dir.join("pending.txt"));
    let names = scenario_names(&dir.join("scenarios"));
    assert!(
        !names.is_empty(),
        "no scenarios under {}",
        dir.join("scenarios").display()
    );

    let mut problems = Vec::new();
    if filter.is_none() {
        for name in pending.difference(&names.iter().cloned().collect()) {
            problems.push(format!("pending.txt names an unknown scenario: {name}"));
        }
    }

    let (mut passed, mut pending_failed) = (0, 0);
    let mut failures = Vec::new();
    let mut now_passing = Vec::new();
    for name in names
        .iter()
        .filter(|n| filter.as_deref().is_none_or(|f| n.contains(f)))
    {
        let outcome = run_scenario(&dir.join("scenarios").join(name));
        match (outcome, pending.contains(name)) {
            (Ok(()), false) => passed += 1,
            (Ok(()), true) => now_passing.push(name.clone()),
            (Err(report), false) => failures.push((name.clone(), report)),
            (Err(report), true) => {
                pending_failed += 1;
                if verbose {
                    println!("==== PENDING {name} (failure tolerated)\n{report}");
                } else {
                    let first = report.lines().next().unwrap_or_default();
                    println!("pending {name}: {first}");
                }
            }
        }
    }

    for (name, report) in &failures {
        println!("==== FAIL {name}\n{report}");
    }
    for name in &now_passing {
        problems.push(format!(
            "{name} passes now: remove {name} from tests/parity/pending.txt"
        ));
    }
    if !failures.is_empty() {
        let list: Vec<&str> = failures.iter().map(|(n, _)| n.as_str()).collect();
        problems.push(format!("failing scenarios: {}", list.join(", ")));
    }
    println!(
        "parity: {passed} passed, {} failed, {pending_failed} pending (tolerated), {} newly passing",
        failures.len(),
        now_passing.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A new pseudo-terminal as (leader, follower), for a port that must see a
/// terminal on stdin. The caller keeps the leader open while the port runs:
/// closing it hangs up the follower.
fn terminal() -> Result<(fs::File, fs::File), String> {
    use std::os::fd::FromRawFd;
    // SAFETY: plain libc calls; the descriptor posix_openpt returns is owned
    // by the File made from it, and ptsname_r NUL-terminates within the buffer.
    let (leader, path) = unsafe {
        let fd = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        if fd < 0 {
            return Err(format!("pty: {}", std::io::Error::last_os_error()));
        }
        let leader = fs::File::from_raw_fd(fd);
        let mut name = [0 as libc::c_char; 128];
        if libc::grantpt(fd) != 0
            || libc::unlockpt(fd) != 0
            || libc::ptsname_r(fd, name.as_mut_ptr(), name.len()) != 0
        {
            return Err(format!("pty: {}", std::io::Error::last_os_error()));
        }
        let path = std::ffi::CStr::from_ptr(name.as_ptr())
            .to_string_lossy()
            .into_owned();
        (leader, path)
    };
    let follower = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&path)
        .map_err(|e| format!("{path}: {e}"))?;
    Ok((leader, follower))
}

fn read_pending(path: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

fn scenario_names(root: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(root)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.path().join("cmd").is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

// ---------------------------------------------------------------------------
// one scenario
// ---------------------------------------------------------------------------

fn run_scenario(dir: &Path) -> Result<(), String> {
    let tmp = tempfile::Builder::new()
        .prefix("twsrt-parity-")
        .tempdir()
        .map_err(|e| format!("tempdir: {e}"))?;
    let home = tmp.path().to_path_buf();
    let homes = home_variants(&home);
    let home_str = home.to_string_lossy().into_owned();

    let divergence = Divergence::load(&dir.join("expected").join("divergence"))?;
    materialise(dir, &home)?;
    let args: Vec<String> = read_text(&command_file(dir))?
        .lines()
        .map(|a| a.replace(PLACEHOLDER, &home_str))
        .collect();
    // The agents' guard files, which 3.3.3 does not write-deny (parity_guards).
    let guards = crate::parity_guards::guard_spellings(&home, &args);
    add_guards_to_home(&home, &guards)?;
    lift_in_home(&home, &divergence)?;
    let before = snapshot(&home, &homes)?;

    let env: Vec<(String, String)> = match fs::read_to_string(dir.join("env")) {
        Ok(text) => text
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.replace(PLACEHOLDER, &home_str)))
            .collect(),
        Err(_) => Vec::new(),
    };

    // Kept open until the port has run (see `terminal`).
    let (_leader, stdin) = match divergence.stdin_terminal {
        true => {
            let (leader, follower) = terminal()?;
            (Some(leader), Stdio::from(follower))
        }
        false => (None, Stdio::null()),
    };
    let output = Command::new("sh")
        .arg("-c")
        .arg(r#"umask 022; exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_twsrt"))
        .args(&args)
        .env_clear()
        .env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()),
        )
        .env("HOME", &home)
        .envs(FIXED_ENV)
        .envs(env)
        .current_dir(&home)
        .stdin(stdin)
        .output()
        .map_err(|e| format!("cannot run the port: {e}"))?;

    let exp = dir.join("expected");
    let mut problems = Vec::new();

    // exit code
    let expected_exit: i32 = read_text(&exp.join("exit"))?
        .trim()
        .parse()
        .map_err(|e| format!("expected/exit: {e}"))?;
    let expected_exit = divergence.exit.unwrap_or(expected_exit);
    if output.status.code() != Some(expected_exit) {
        problems.push(format!(
            "exit code: expected {expected_exit}, got {:?}",
            output.status.code()
        ));
    }

    // stdout, exactly
    let stdout = normalise(&output.stdout, &homes);
    let expected_stdout = divergence.lifted(&crate::parity_guards::with_guards(
        &as_the_port_writes(&read_text(&exp.join("stdout"))?),
        &guards,
    ));
    // A deliberate divergence of the whole stdout: what the port prints
    // instead (README.md "Deliberate divergences").
    let expected_stdout = match fs::read_to_string(exp.join("port_stdout")) {
        Ok(text) => text,
        Err(_) => expected_stdout,
    };
    let (want, got) = divergence.compared_stdout(&expected_stdout, &stdout);
    if want != got {
        problems.push(format!("stdout differs:\n{}", diff(&want, &got)));
    }

    // stderr: every fact, at word boundaries
    let stderr = normalise(&output.stderr, &homes);
    // `port_facts`, when present, holds the facts of a deliberate divergence.
    let facts = match fs::read_to_string(exp.join("port_facts")) {
        Ok(text) => text,
        Err(_) => read_text(&exp.join("facts"))?,
    };
    let missing: Vec<String> = facts
        .lines()
        .filter(|f| !f.is_empty() && !contains_bounded(&stderr, f))
        .map(str::to_string)
        .collect();
    if !missing.is_empty() {
        let reference = read_text(&exp.join("stderr")).unwrap_or_default();
        problems.push(format!(
            "stderr lacks facts {missing:?}\n--- port stderr ---\n{stderr}--- reference stderr ---\n{reference}"
        ));
    }

    // the HOME tree afterwards: paths, types, modes, symlink targets
    let after = snapshot(&home, &homes)?;
    let expected_tree = expected_manifest(&read_text(&exp.join("after.manifest"))?, &before)?;
    let actual_tree = render_manifest(&after);
    if expected_tree != actual_tree {
        problems.push(format!(
            "HOME tree differs:\n{}",
            diff(&expected_tree, &actual_tree)
        ));
    }

    // file contents
    for (rel, entry) in &after {
        if entry.kind != Kind::File {
            continue;
        }
        let Ok(want) = fs::read(exp.join("after").join(rel)) else {
            if expected_tree == actual_tree {
                // the manifest lists the file but its content is not stored: a
                // fixture defect (git ignores a recorded `.gitignore` and what
                // it matches unless it is force-added)
                problems.push(format!(
                    "expected/after/{rel} is missing from the scenario (git add -f it?)"
                ));
            }
            continue; // else an unexpected path: already reported by the tree comparison
        };
        let got = normalise(&fs::read(home.join(rel)).unwrap_or_default(), &homes);
        let mut want = as_the_port_writes(&String::from_utf8_lossy(&want));
        if generated_by_an_agent_or_compile(rel) {
            want = crate::parity_guards::with_guards(&want, &guards);
        }
        let want = divergence.lifted(&want);
        let want = match divergence.expected_file(rel, want) {
            Ok(want) => want,
            Err(why) => {
                problems.push(why);
                continue;
            }
        };
        let existed = before.get(rel).is_some_and(|b| b.kind == Kind::File);
        let verdict = if divergence.parsed_equal.contains(rel) {
            compare_parsed(rel, &want, &got)
        } else if existed && rel.ends_with(".toml") && want != got {
            compare_toml_kept(&want, &got)
        } else if want != got {
            Err(diff(&want, &got))
        } else {
            Ok(())
        };
        if let Err(why) = verdict {
            problems.push(format!("{rel} differs:\n{why}"));
        }
    }

    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

/// The arguments file the port runs with: `port_cmd` when the scenario has one (the
/// port's spelling of a command the reference no longer accepts, README.md "Deliberate
/// divergences"), else `cmd`, the command the reference was recorded with.
fn command_file(dir: &Path) -> PathBuf {
    let port = dir.join("port_cmd");
    if port.is_file() {
        port
    } else {
        dir.join("cmd")
    }
}

// ---------------------------------------------------------------------------
// HOME trees
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    File,
    Dir,
    Symlink,
}

#[derive(Debug)]
struct Entry {
    kind: Kind,
    mode: u32,
    target: String,
}

/// The files twsrt generates that can hold guard entries: JSON (the srt
/// settings, Claude settings) and TOML (the Codex config), never a fragment.
fn generated_by_an_agent_or_compile(rel: &str) -> bool {
    rel.ends_with(".json") || rel.ends_with(".toml")
}

/// [`crate::parity_guards::with_guards`] on every such file of `home` (which
/// 3.3.3 wrote), before the command runs.
fn add_guards_to_home(home: &Path, guards: &[String]) -> Result<(), String> {
    if guards.is_empty() {
        return Ok(());
    }
    for rel in walk(home)? {
        let path = home.join(&rel);
        let is_file = fs::symlink_metadata(&path).is_ok_and(|m| m.is_file());
        if !is_file || !generated_by_an_agent_or_compile(&rel) {
            continue;
        }
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let guarded = crate::parity_guards::with_guards(&text, guards);
        if guarded != text {
            fs::write(&path, guarded).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The Codex config.toml under `home` as the port would have written it in
/// the scenario's state ([`Divergence::lifted`]).
fn lift_in_home(home: &Path, divergence: &Divergence) -> Result<(), String> {
    let path = home.join(".codex").join("config.toml");
    let Ok(text) = fs::read_to_string(&path) else {
        return Ok(());
    };
    let lifted = divergence.lifted(&text);
    if lifted != text {
        fs::write(&path, lifted).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// Copy home/ (files 0644 with {HOME} substituted, dirs 0755), then apply `setup`.
fn materialise(dir: &Path, home: &Path) -> Result<(), String> {
    let src = dir.join("home");
    let home_str = home.to_string_lossy().into_owned();
    for rel in walk(&src)? {
        let (from, to) = (src.join(&rel), home.join(&rel));
        let meta = fs::symlink_metadata(&from).map_err(|e| format!("{}: {e}", from.display()))?;
        if meta.is_dir() {
            fs::create_dir_all(&to).map_err(|e| format!("{}: {e}", to.display()))?;
            set_mode(&to, 0o755)?;
        } else {
            let data = replace_bytes(
                &as_the_port_writes_bytes(
                    fs::read(&from).map_err(|e| format!("{}: {e}", from.display()))?,
                ),
                PLACEHOLDER.as_bytes(),
                home_str.as_bytes(),
            );
            fs::write(&to, data).map_err(|e| format!("{}: {e}", to.display()))?;
            set_mode(&to, 0o644)?;
        }
    }
    let Ok(setup) = fs::read_to_string(dir.join("setup")) else {
        return Ok(());
    };
    for line in setup.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        match parts.as_slice() {
            ["symlink", path, target] => {
                let link = home.join(path);
                if let Some(parent) = link.parent() {
                    fs::create_dir_all(parent).map_err(|e| e.to_string())?;
                }
                symlink(target.replace(PLACEHOLDER, &home_str), &link)
                    .map_err(|e| format!("{}: {e}", link.display()))?;
            }
            ["dir", mode, path] => {
                fs::create_dir_all(home.join(path)).map_err(|e| e.to_string())?;
                set_mode(&home.join(path), parse_mode(mode)?)?;
            }
            ["chmod", mode, path] => set_mode(&home.join(path), parse_mode(mode)?)?,
            _ => return Err(format!("bad setup line {line:?}")),
        }
    }
    Ok(())
}

/// Every path under root (relative, '/'-separated, sorted), not following symlinks.
fn walk(root: &Path) -> Result<Vec<String>, String> {
    fn rec(root: &Path, dir: &Path, out: &mut Vec<String>) -> Result<(), String> {
        let rd = fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for entry in rd {
            let path = entry.map_err(|e| e.to_string())?.path();
            let rel = path.strip_prefix(root).map_err(|e| e.to_string())?;
            out.push(rel.to_string_lossy().into_owned());
            let meta = fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
            if meta.is_dir() {
                rec(root, &path, out)?;
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    if root.is_dir() {
        rec(root, root, &mut out)?;
    }
    out.sort();
    Ok(out)
}

fn snapshot(home: &Path, homes: &[String]) -> Result<BTreeMap<String, Entry>, String> {
    let mut map = BTreeMap::new();
    for rel in walk(home)? {
        let path = home.join(&rel);
        if is_written_record(&path) {
            continue;
        }
        let meta = fs::symlink_metadata(&path).map_err(|e| e.to_string())?;
        let mode = meta.permissions().mode() & 0o7777;
        let entry = if meta.file_type().is_symlink() {
            let target = fs::read_link(&path).map_err(|e| e.to_string())?;
            let target = normalise(target.to_string_lossy().as_bytes(), homes);
            Entry {
                kind: Kind::Symlink,
                mode: 0,
                target,
            }
        } else if meta.is_dir() {
            Entry {
                kind: Kind::Dir,
                mode,
                target: String::new(),
            }
        } else {
            Entry {
                kind: Kind::File,
                mode,
                target: String::new(),
            }
        };
        map.insert(rel, entry);
    }
    Ok(map)
}

/// The port's record of the outputs it wrote (`written.json` beside the
/// config file; README.md "Deliberate divergences"): 3.3.3 keeps none, and
/// no scenario has a file of that name.
fn is_written_record(path: &Path) -> bool {
    path.file_name().is_some_and(|n| n == "written.json")
}

fn render_manifest(tree: &BTreeMap<String, Entry>) -> String {
    let mut out = String::new();
    for (rel, e) in tree {
        let line = match e.kind {
            Kind::Symlink => format!("symlink\t-\t{rel}\t{}", e.target),
            Kind::Dir => format!("dir\t{:04o}\t{rel}", e.mode),
            Kind::File => format!("file\t{:04o}\t{rel}", e.mode),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The reference's manifest with the port's mode policy applied to regular files: a file
/// that existed before keeps its mode, a file the command created has mode 0600.
fn expected_manifest(text: &str, before: &BTreeMap<String, Entry>) -> Result<String, String> {
    let mut out = String::new();
    for line in text.lines() {
        let parts: Vec<&str> = line.split('\t').collect();
        let line = match parts.as_slice() {
            ["file", _mode, rel] => {
                let mode = match before.get(*rel) {
                    Some(b) if b.kind == Kind::File => b.mode,
                    _ => NEW_FILE_MODE,
                };
                format!("file\t{mode:04o}\t{rel}")
            }
            ["dir", _, _] | ["symlink", "-", _, _] => line.to_string(),
            _ => return Err(format!("bad after.manifest line {line:?}")),
        };
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

fn home_variants(home: &Path) -> Vec<String> {
    let mut v = vec![home.to_string_lossy().into_owned()];
    if let Ok(real) = home.canonicalize() {
        let real = real.to_string_lossy().into_owned();
        if !v.contains(&real) {
            v.push(real);
        }
    }
    v.sort_by_key(|s| std::cmp::Reverse(s.len()));
    v
}

/// Bytes as text with every spelling of the temp HOME replaced by {HOME}.
fn normalise(data: &[u8], homes: &[String]) -> String {
    let mut data = data.to_vec();
    for h in homes {
        data = replace_bytes(&data, h.as_bytes(), PLACEHOLDER.as_bytes());
    }
    String::from_utf8_lossy(&data).into_owned()
}

fn replace_bytes(data: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut i = 0;
    while i < data.len() {
        if data[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(data[i]);
            i += 1;
        }
    }
    out
}

fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
        .map_err(|e| format!("chmod {}: {e}", path.display()))
}

fn parse_mode(text: &str) -> Result<u32, String> {
    u32::from_str_radix(text, 8).map_err(|e| format!("bad mode {text:?}: {e}"))
}

fn read_text(path: &Path) -> Result<String, String> {
    fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| format!("{}: {e}", path.display()))
}

// ---------------------------------------------------------------------------
// comparisons
// ---------------------------------------------------------------------------

fn diff(expected: &str, actual: &str) -> String {
    TextDiff::from_lines(expected, actual)
        .unified_diff()
        .context_radius(3)
        .header("expected (reference)", "actual (port)")
        .to_string()
}

/// `needle` occurs in `hay` and is not glued to a word character on a side where the
/// needle itself starts or ends with one (so the fact `1` does not match `10`). A fact
/// that is a single word (letters, digits, `_`, `-`) matches case-insensitively, so the
/// agent `copilot` may be spelled `Copilot` in a sentence.
pub(crate) fn contains_bounded(hay: &str, needle: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    if needle.chars().all(|c| is_word(c) || c == '-') {
        let (hay, needle) = (hay.to_lowercase(), needle.to_lowercase());
        return contains_bounded_exact(&hay, &needle);
    }
    contains_bounded_exact(hay, needle)
}

fn contains_bounded_exact(hay: &str, needle: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let first_word = needle.chars().next().is_some_and(is_word);
    let last_word = needle.chars().next_back().is_some_and(is_word);
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        let glued_before = first_word && before.is_some_and(is_word);
        let glued_after = last_word && after.is_some_and(is_word);
        !(glued_before || glued_after)
    })
}

/// Copilot flags text as the port writes it from what 3.3.3 recorded: after each
/// `--deny-url 'X' \` line whose pattern names no scheme, the port adds
/// `--deny-url 'http://X' \` (Copilot reads a bare pattern as HTTPS only; README.md
/// "Deliberate divergences"). Applied to the reference's side only (expected stdout,
/// expected files, and the `home/` files given as input, which 3.3.3 wrote), so a port
/// without the twin fails. Only Copilot flags have lines of this shape. A twin the
/// text already holds is not added again (the port emits each flag once).
fn with_http_twins(text: &str) -> String {
    const PREFIX: &str = "--deny-url '";
    const SUFFIX: &str = "' \\";
    let present: BTreeSet<&str> = text.lines().collect();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        out.push_str(line);
        let bare = line.strip_suffix('\n').unwrap_or(line);
        let Some(pattern) = bare
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.strip_suffix(SUFFIX))
        else {
            continue;
        };
        let twin = format!("{PREFIX}http://{pattern}{SUFFIX}");
        // An independent reading of "names a scheme", not the port's function.
        if pattern.contains("://") || present.contains(twin.as_str()) {
            continue;
        }
        if !line.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&twin);
        if line.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// Doctor's messages as the port words them from what 3.3.3 recorded: 3.3.3 cites
/// its ADR 0002, which twsrt does not ship; the port cites the section of a document
/// it ships that says the same (README.md "Deliberate divergences"). Part of
/// [`as_the_port_writes`].
fn with_doc_citations(text: &str) -> String {
    text.replace(
        "auto-approve edits (ADR 0002)",
        "auto-approve edits (SECURITY_CONCEPT.md \"Claude Code: where a path points\")",
    )
}

/// The header line 3.3.3 writes at the top of the Codex `.rules` file, and the
/// port's (doc/compatibility.md row 36: it names the fragments, not a
/// generated file).
const RULES_HEADER_33: &str = "# Generated by twsrt; edit bash-rules.json instead.\n";
const RULES_HEADER_PORT: &str = "# Generated by twsrt from the bash fragments (bash/*.jsonc): \
                                 change them with `twsrt edit bash`, not this file.\n";

/// What 3.3.3 recorded, spelt the way the port writes it: the Copilot
/// `http://` twins ([`with_http_twins`]), doctor's citations
/// ([`with_doc_citations`]) and the `.rules` header line.
fn as_the_port_writes(text: &str) -> String {
    let text = with_prefix_patterns(&with_doc_citations(&with_http_twins(text)))
        .replace(RULES_HEADER_33, RULES_HEADER_PORT);
    with_network_proxy_feature(text)
}

/// A Codex profile with domain lists as the port writes it from what 3.3.3
/// recorded: `[features] network_proxy = true` before `[permissions.twsrt]`
/// (doc/compatibility.md row 62: Codex enforces the lists only with
/// the feature). Only a text holding the domains table and no `[features]`
/// or `network_proxy` of its own is touched (no recording has one).
fn with_network_proxy_feature(text: String) -> String {
    const DOMAINS: &str = "[permissions.twsrt.network.domains]";
    const PROFILE: &str = "[permissions.twsrt]\n";
    let has_domains = text.lines().any(|line| line.trim() == DOMAINS);
    if !has_domains || text.contains("network_proxy") || text.contains("[features") {
        return text;
    }
    let at = if text.starts_with(PROFILE) {
        Some(0)
    } else {
        text.find(&format!("\n{PROFILE}")).map(|i| i + 1)
    };
    match at {
        Some(at) => format!(
            "{}[features]\nnetwork_proxy = true\n\n{}",
            &text[..at],
            &text[at..]
        ),
        None => text,
    }
}

/// Copilot flags text as the port writes it from what 3.3.3 recorded: a
/// `--deny-tool 'shell(X)'` flag (a flags-file line, or a `+`/`-` line of
/// diff) becomes `--deny-tool 'shell(X:*)'`, the pattern Copilot matches as
/// a prefix of words (doc/compatibility.md, the `shell(X:*)` row). Only
/// lines ending in the flag's closing `)'` (and the continuation ` \`) are
/// touched; the recordings hold no bash rule joining commands, which the
/// port leaves out of the flags.
fn with_prefix_patterns(text: &str) -> String {
    const FLAG: &str = "--deny-tool 'shell(";
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let (core, cont) = match body.strip_suffix(" \\") {
            Some(core) => (core, " \\"),
            None => (body, ""),
        };
        match core.strip_suffix(")'") {
            Some(head) if core.contains(FLAG) && !head.ends_with(":*") => {
                out.push_str(head);
                out.push_str(":*)'");
                out.push_str(cont);
                out.push_str(newline);
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// [`as_the_port_writes`] for a file's bytes; bytes that are not UTF-8 are left alone.
fn as_the_port_writes_bytes(data: Vec<u8>) -> Vec<u8> {
    match String::from_utf8(data) {
        Ok(text) => as_the_port_writes(&text).into_bytes(),
        Err(e) => e.into_bytes(),
    }
}

/// Directives of expected/divergence (see README.md).
#[derive(Default)]
struct Divergence {
    stdout_ignore: Vec<String>,
    parsed_equal: BTreeSet<String>,
    /// `stdout-table-cells`: stdout compared as table cells (`parity_table`).
    table_cells: bool,
    /// `stdout-table-cell-prose <prefix>`: cells worded by the port.
    cell_prose: Vec<String>,
    /// `file-json-prepend <path> <pointer> <key> <json>`: keys the port
    /// writes into a JSON file that 3.3.3 did not.
    json_prepend: Vec<JsonPrepend>,
    /// `stdout-insert-before<TAB><anchor><TAB><line>`: a line the port
    /// prints before the first expected line starting with `<anchor>`.
    stdout_insert: Vec<(String, String)>,
    /// `stdout-replace<TAB><old><TAB><new>`: text the port words otherwise.
    stdout_replace: Vec<(String, String)>,
    /// `file-replace<TAB><path><TAB><old><TAB><new>`: text of the expected
    /// file the port writes otherwise (a deliberate divergence of a value).
    file_replace: Vec<(String, String, String)>,
    /// `port-stdin-terminal`: the port runs with a terminal on stdin (the
    /// reference was recorded without one; the port starts a terminal
    /// editor only from a terminal, doc/compatibility.md).
    stdin_terminal: bool,
    /// `exit <code>`: the port's exit code where it deliberately differs.
    exit: Option<i32>,
    /// `codex-lifted<TAB><dir>`: a directory the scenario's HOME lacks and
    /// its command does not create, so the port's Codex profile holds one
    /// entry for it where 3.3.3 listed the entries below it
    /// (doc/compatibility.md row 55).
    codex_lifted: Vec<String>,
}

/// One `file-json-prepend` directive: in the expected `path`, the object at
/// `pointer` gets `key` with `value` as its first member.
struct JsonPrepend {
    path: String,
    pointer: String,
    key: String,
    value: serde_json::Value,
}

impl Divergence {
    fn load(path: &Path) -> Result<Self, String> {
        let mut d = Divergence::default();
        let Ok(text) = fs::read_to_string(path) else {
            return Ok(d);
        };
        for line in text.lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("stdout-ignore-lines-containing ") {
                d.stdout_ignore.push(rest.to_string());
            } else if let Some(rest) = line.strip_prefix("file-parsed-equal ") {
                d.parsed_equal.insert(rest.to_string());
            } else if let Some(rest) = line.strip_prefix("stdout-insert-before\t") {
                let Some((anchor, text)) = rest.split_once('\t') else {
                    return Err(format!("{}: incomplete directive {line:?}", path.display()));
                };
                d.stdout_insert.push((anchor.to_string(), text.to_string()));
            } else if let Some(rest) = line.strip_prefix("stdout-replace\t") {
                let Some((old, new)) = rest.split_once('\t') else {
                    return Err(format!("{}: incomplete directive {line:?}", path.display()));
                };
                d.stdout_replace.push((old.to_string(), new.to_string()));
            } else if let Some(rest) = line.strip_prefix("file-replace\t") {
                let mut parts = rest.splitn(3, '\t');
                let (Some(file), Some(old), Some(new)) = (parts.next(), parts.next(), parts.next())
                else {
                    return Err(format!("{}: incomplete directive {line:?}", path.display()));
                };
                // `\n` in the new text is a line break (a key the port adds).
                d.file_replace
                    .push((file.to_string(), old.to_string(), new.replace("\\n", "\n")));
            } else if let Some(rest) = line.strip_prefix("file-json-prepend ") {
                let mut parts = rest.splitn(4, ' ');
                let (Some(file), Some(pointer), Some(key), Some(value)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(format!("{}: incomplete directive {line:?}", path.display()));
                };
                let value = serde_json::from_str(value)
                    .map_err(|e| format!("{}: {line:?}: {e}", path.display()))?;
                d.json_prepend.push(JsonPrepend {
                    path: file.to_string(),
                    pointer: pointer.to_string(),
                    key: key.to_string(),
                    value,
                });
            } else if let Some(rest) = line.strip_prefix("codex-lifted\t") {
                d.codex_lifted.push(rest.to_string());
            } else if line == "port-stdin-terminal" {
                d.stdin_terminal = true;
            } else if let Some(rest) = line.strip_prefix("exit ") {
                let code = rest.trim().parse();
                d.exit = Some(code.map_err(|e| format!("{}: {line:?}: {e}", path.display()))?);
            } else if line == "stdout-table-cells" {
                d.table_cells = true;
            } else if let Some(rest) = line.strip_prefix("stdout-table-cell-prose ") {
                d.cell_prose.push(rest.to_string());
            } else {
                return Err(format!("{}: unknown directive {line:?}", path.display()));
            }
        }
        Ok(d)
    }

    /// `text` (a recorded stdout, file or HOME input) with each
    /// `codex-lifted` directory's Codex profile lines (`"DIR/..." = "read"`
    /// or `"deny"`) as the one line the port writes for them: in the place
    /// of the first, with the strictest of their accesses.
    fn lifted(&self, text: &str) -> String {
        let mut out = text.to_string();
        for dir in &self.codex_lifted {
            let prefix = format!("\"{dir}/");
            let access = |line: &str| -> Option<&'static str> {
                let rest = line.strip_prefix(prefix.as_str())?;
                let (_, value) = rest.split_once("\" = ")?;
                ["\"read\"", "\"deny\""].into_iter().find(|v| *v == value)
            };
            let lines: Vec<&str> = out.split_inclusive('\n').collect();
            let values: Vec<&str> = lines
                .iter()
                .filter_map(|l| access(l.trim_end_matches('\n')))
                .collect();
            let Some(strictest) = values.iter().max_by_key(|v| **v == "\"deny\"") else {
                continue;
            };
            let one = format!("\"{dir}\" = {strictest}\n");
            let mut written = false;
            let mut next = String::with_capacity(out.len());
            for line in &lines {
                if access(line.trim_end_matches('\n')).is_none() {
                    next.push_str(line);
                } else if !written {
                    next.push_str(&one);
                    written = true;
                }
            }
            out = next;
        }
        out
    }

    /// Expected and actual stdout as they are compared: filtered, and
    /// with `stdout-table-cells` rendered back from their cells.
    fn compared_stdout(&self, want: &str, got: &str) -> (String, String) {
        let want = self.expected_stdout(want);
        let (want, got) = (self.filter_stdout(&want), self.filter_stdout(got));
        if !self.table_cells {
            return (want, got);
        }
        let got = crate::parity_table::parse(&got);
        let mut want = crate::parity_table::parse(&want);
        crate::parity_table::align_prose(&mut want, &got, &self.cell_prose);
        (
            crate::parity_table::render(&want),
            crate::parity_table::render(&got),
        )
    }

    /// The reference's stdout with the lines the port adds
    /// (`stdout-insert-before`, in directive order) and its own wording
    /// (`stdout-replace`). An anchor no line starts with inserts nothing,
    /// so the comparison fails.
    fn expected_stdout(&self, want: &str) -> String {
        let mut out = String::with_capacity(want.len());
        let mut pending: Vec<&(String, String)> = self.stdout_insert.iter().collect();
        for line in want.split_inclusive('\n') {
            pending.retain(|(anchor, text)| {
                let here = line.starts_with(anchor.as_str());
                if here {
                    out.push_str(text);
                    out.push('\n');
                }
                !here
            });
            out.push_str(line);
        }
        for (old, new) in &self.stdout_replace {
            out = out.replace(old.as_str(), new);
        }
        out
    }

    /// The expected text of `rel` with this scenario's `file-json-prepend`
    /// keys in place, re-printed as the port prints JSON (two-space indent,
    /// the text's own final newline kept). Unchanged without a directive.
    fn expected_file(&self, rel: &str, mut want: String) -> Result<String, String> {
        for (file, old, new) in &self.file_replace {
            if file == rel {
                if !want.contains(old.as_str()) {
                    return Err(format!("{rel}: file-replace finds no {old:?}"));
                }
                want = want.replace(old.as_str(), new);
            }
        }
        let edits: Vec<&JsonPrepend> = self.json_prepend.iter().filter(|e| e.path == rel).collect();
        if edits.is_empty() {
            return Ok(want);
        }
        let mut doc: serde_json::Value =
            serde_json::from_str(&want).map_err(|e| format!("{rel}: invalid JSON: {e}"))?;
        for edit in edits {
            let Some(serde_json::Value::Object(object)) = doc.pointer_mut(&edit.pointer) else {
                return Err(format!("{rel}: no object at {}", edit.pointer));
            };
            let rest = std::mem::take(object);
            object.insert(edit.key.clone(), edit.value.clone());
            object.extend(rest.into_iter().filter(|(k, _)| *k != edit.key));
        }
        let mut text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
        if want.ends_with('\n') {
            text.push('\n');
        }
        Ok(text)
    }

    fn filter_stdout(&self, text: &str) -> String {
        if self.stdout_ignore.is_empty() {
            return text.to_string();
        }
        text.split_inclusive('\n')
            .filter(|l| !self.stdout_ignore.iter().any(|s| l.contains(s.as_str())))
            .collect()
    }
}

/// Values equal, formatting and comments ignored (TOML, or JSON/JSONC with `//` lines).
fn compare_parsed(rel: &str, want: &str, got: &str) -> Result<(), String> {
    let (want, got) = if rel.ends_with(".toml") {
        (toml_flat(want)?, toml_flat(got)?)
    } else {
        (json_canonical(want)?, json_canonical(got)?)
    };
    if want == got {
        Ok(())
    } else {
        Err(diff(&want, &got))
    }
}

/// A TOML file the user already had: parsed-equal, and every comment line of the
/// expected file is still there.
fn compare_toml_kept(want: &str, got: &str) -> Result<(), String> {
    let (flat_want, flat_got) = (toml_flat(want)?, toml_flat(got)?);
    let mut why = String::new();
    if flat_want != flat_got {
        why.push_str(&format!("values differ:\n{}", diff(&flat_want, &flat_got)));
    }
    let got_lines: BTreeSet<&str> = got.lines().map(str::trim).collect();
    for line in want.lines().map(str::trim).filter(|l| l.starts_with('#')) {
        if !got_lines.contains(line) {
            why.push_str(&format!("comment line lost: {line}\n"));
        }
    }
    if why.is_empty() { Ok(()) } else { Err(why) }
}

/// One sorted `dotted.key = value` line per leaf (`key = {}` for an empty table): a
/// readable rendering in which key order and formatting do not matter.
fn toml_flat(text: &str) -> Result<String, String> {
    let doc: DocumentMut = text.parse().map_err(|e| format!("invalid TOML: {e}"))?;
    let mut lines = Vec::new();
    for (key, item) in doc.as_table().iter() {
        flat_item(&join_key("", key), item, &mut lines);
    }
    lines.sort();
    Ok(lines.iter().map(|l| format!("{l}\n")).collect())
}

fn flat_item(path: &str, item: &Item, out: &mut Vec<String>) {
    match item {
        Item::None => {}
        Item::Value(v) => flat_value(path, v, out),
        Item::Table(t) => {
            if t.is_empty() {
                out.push(format!("{path} = {{}}"));
            }
            for (key, item) in t.iter() {
                flat_item(&join_key(path, key), item, out);
            }
        }
        Item::ArrayOfTables(a) => {
            for (n, t) in a.iter().enumerate() {
                let path = format!("{path}[{n}]");
                if t.is_empty() {
                    out.push(format!("{path} = {{}}"));
                }
                for (key, item) in t.iter() {
                    flat_item(&join_key(&path, key), item, out);
                }
            }
        }
    }
}

fn flat_value(path: &str, value: &Value, out: &mut Vec<String>) {
    match value {
        Value::InlineTable(t) => {
            if t.is_empty() {
                out.push(format!("{path} = {{}}"));
            }
            for (key, v) in t.iter() {
                flat_value(&join_key(path, key), v, out);
            }
        }
        v => out.push(format!("{path} = {}", scalar(v))),
    }
}

fn join_key(path: &str, key: &str) -> String {
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let key = if bare {
        key.to_string()
    } else {
        format!("{key:?}")
    };
    if path.is_empty() {
        key
    } else {
        format!("{path}.{key}")
    }
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{:?}", s.value()),
        Value::Integer(i) => i.value().to_string(),
        Value::Float(f) => format!("{:?}", f.value()),
        Value::Boolean(b) => b.value().to_string(),
        Value::Datetime(d) => d.value().to_string(),
        Value::Array(a) => format!("[{}]", a.iter().map(scalar).collect::<Vec<_>>().join(", ")),
        Value::InlineTable(t) => format!(
            "{{{}}}",
            t.iter()
                .map(|(k, v)| format!("{} = {}", join_key("", k), scalar(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn json_canonical(text: &str) -> Result<String, String> {
    let stripped: String = text
        .split_inclusive('\n')
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect();
    let value: serde_json::Value =
        serde_json::from_str(&stripped).map_err(|e| format!("invalid JSON: {e}"))?;
    serde_json::to_string_pretty(&sorted(value)).map_err(|e| e.to_string())
}

fn sorted(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(map) => {
            let ordered: BTreeMap<String, serde_json::Value> =
                map.into_iter().map(|(k, v)| (k, sorted(v))).collect();
            serde_json::Value::Object(ordered.into_iter().collect())
        }
        serde_json::Value::Array(a) => {
            serde_json::Value::Array(a.into_iter().map(sorted).collect())
        }
        other => other,
    }
}

// ---------------------------------------------------------------------------
// the comparison rules themselves
// ---------------------------------------------------------------------------

#[test]
fn facts_match_at_word_boundaries() {
    assert!(contains_bounded("skipped 1 rule(s)", "1"));
    assert!(!contains_bounded("skipped 10 rules", "1"));
    assert!(contains_bounded("Copilot has no ask tier", "copilot"));
    assert!(contains_bounded(
        "at {HOME}/a.jsonc:3:27: bad",
        "{HOME}/a.jsonc:3:27"
    ));
    assert!(!contains_bounded("profile 'defaults'", "default"));
    assert!(contains_bounded("conflict at /network/x:", "/network/x"));
}

#[test]
fn kept_toml_compares_values_and_comment_lines() {
    let want = "# mine\na = 1\n\n[t]\n# inner\nb = \"x\"\n[e]\n";
    let reordered = "a = 1\n# mine\n[e]\n[t]\nb = 'x' # moved\n# inner\n";
    assert_eq!(compare_toml_kept(want, reordered), Ok(()));
    let lost = "a = 1\n[t]\nb = \"x\"\n[e]\n";
    assert!(
        compare_toml_kept(want, lost)
            .unwrap_err()
            .contains("comment line lost: # mine")
    );
    let changed = "# mine\na = 2\n[t]\n# inner\nb = \"x\"\n";
    let why = compare_toml_kept(want, changed).unwrap_err();
    assert!(why.contains("-a = 1") && why.contains("-e = {}"), "{why}");
}

#[test]
fn parsed_equal_ignores_comments_and_order() {
    assert_eq!(
        compare_parsed(
            "x.jsonc",
            "{\n  // c\n  \"a\": 1, \"b\": [2]\n}\n",
            "{\"b\": [2], \"a\": 1}"
        ),
        Ok(())
    );
    // An integer and a float are different values, not a formatting choice.
    assert_eq!(
        compare_parsed("x.toml", "a = 1\n", "a = 1.0\n"),
        Err("--- expected (reference)\n+++ actual (port)\n@@ -1 +1 @@\n-a = 1\n+a = 1.0\n".into())
    );
}

#[test]
fn a_deny_tool_line_gets_the_prefix_pattern() {
    let recorded = "--yolo \\\n--deny-tool 'shell(rm)' \\\n--deny-tool 'shell(it'\\''s)' \\\n\
                    --deny-tool 'shell(a:*)' \\\n  + --deny-tool 'shell(sudo)'\n";
    assert_eq!(
        with_prefix_patterns(recorded),
        "--yolo \\\n--deny-tool 'shell(rm:*)' \\\n--deny-tool 'shell(it'\\''s:*)' \\\n\
         --deny-tool 'shell(a:*)' \\\n  + --deny-tool 'shell(sudo:*)'\n"
    );
    for other in [
        "--allow-tool 'shell' \\\n",
        "--deny-url 'a.io' \\\n",
        "x shell(rm)\n",
    ] {
        assert_eq!(with_prefix_patterns(other), other);
    }
}

#[test]
fn a_scheme_less_deny_url_line_gets_its_http_twin() {
    let recorded = "--yolo \\\n--deny-url 'a.example' \\\n--deny-url 'https://b.example' \\\n\
                    --deny-tool 'shell(rm)' \\\n--deny-url 'z.example' \\";
    assert_eq!(
        with_http_twins(recorded),
        "--yolo \\\n--deny-url 'a.example' \\\n--deny-url 'http://a.example' \\\n\
         --deny-url 'https://b.example' \\\n--deny-tool 'shell(rm)' \\\n\
         --deny-url 'z.example' \\\n--deny-url 'http://z.example' \\"
    );
    // A twin already listed is kept once; other lines are not touched.
    let listed = "--deny-url 'a.io' \\\n--deny-url 'http://a.io' \\\n";
    assert_eq!(with_http_twins(listed), listed);
    for other in [
        "x --deny-url 'a.io' \\\n",
        "--deny-url 'a.io'\n",
        "{\"deniedUrls\": []}",
    ] {
        assert_eq!(with_http_twins(other), other);
    }
}

#[test]
fn doctor_s_adr_citation_becomes_the_shipped_section() {
    let recorded = "  warning  broad-allow-write  filesystem.allowWrite: 1 entry covering home, / or \
                    a config root; in Claude Code they also auto-approve edits (ADR 0002)\n";
    assert_eq!(
        with_doc_citations(recorded),
        "  warning  broad-allow-write  filesystem.allowWrite: 1 entry covering home, / or a \
         config root; in Claude Code they also auto-approve edits (SECURITY_CONCEPT.md \
         \"Claude Code: where a path points\")\n"
    );
    assert_eq!(with_doc_citations("ADR 0002\n"), "ADR 0002\n");
}

#[test]
fn the_port_runs_port_cmd_when_a_scenario_has_one() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("cmd"), "generate\nclaude\n").unwrap();
    assert_eq!(command_file(dir.path()), dir.path().join("cmd"));
    fs::write(dir.path().join("port_cmd"), "generate\n-n\nclaude\n").unwrap();
    assert_eq!(command_file(dir.path()), dir.path().join("port_cmd"));
}

#[test]
fn new_files_expect_0600_and_existing_files_keep_their_mode() {
    let mut before = BTreeMap::new();
    before.insert(
        "kept".to_string(),
        Entry {
            kind: Kind::File,
            mode: 0o640,
            target: String::new(),
        },
    );
    let manifest = "file\t0600\tkept\nfile\t0644\tnew\nsymlink\t-\tl\tkept\ndir\t0755\td\n";
    assert_eq!(
        expected_manifest(manifest, &before).unwrap(),
        "file\t0640\tkept\nfile\t0600\tnew\nsymlink\t-\tl\tkept\ndir\t0755\td\n"
    );
}

#[test]
fn port_additions_are_declared_on_the_reference_side_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("divergence");
    fs::write(
        &path,
        "# note\nfile-json-prepend s.json /sandbox/filesystem allowRead [\"~/b\", \"~/a\"]\n\
         stdout-insert-before\tdoctor: \tclaude\nstdout-insert-before\tdoctor: \t\n\
         stdout-replace\t1 warnings\t2 warnings\n",
    )
    .unwrap();
    let d = Divergence::load(&path).unwrap();
    let want =
        "{\n  \"sandbox\": {\n    \"filesystem\": {\n      \"denyRead\": []\n    }\n  }\n}\n";
    assert_eq!(
        d.expected_file("s.json", want.to_string()).unwrap(),
        "{\n  \"sandbox\": {\n    \"filesystem\": {\n      \"allowRead\": [\n        \"~/b\",\n        \
         \"~/a\"\n      ],\n      \"denyRead\": []\n    }\n  }\n}\n"
    );
    assert_eq!(
        d.expected_file("other.json", want.to_string()).unwrap(),
        want
    );
    let (expected, port) = d.compared_stdout("x\ndoctor: 1 warnings\n", "y\n");
    assert_eq!(expected, "x\nclaude\n\ndoctor: 2 warnings\n");
    assert_eq!(port, "y\n");
    fs::write(&path, "stdout-replace\tno tab\n").unwrap();
    assert!(Divergence::load(&path).is_err());
}

/// A `\n` in `file-replace`'s new text is a line break: how a scenario
/// expects a key the port adds on a line of its own.
#[test]
fn file_replace_breaks_lines_at_backslash_n() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("divergence");
    fs::write(
        &path,
        "file-replace\tc.toml\ta = false\ta = false\\nb = true\n",
    )
    .unwrap();
    let d = Divergence::load(&path).unwrap();
    assert_eq!(
        d.expected_file("c.toml", "[t]\na = false\n".to_string())
            .unwrap(),
        "[t]\na = false\nb = true\n"
    );
}

#[test]
fn codex_lifted_reads_the_entries_below_a_directory_as_one() {
    let d = Divergence {
        codex_lifted: vec!["~/.claude".to_string()],
        ..Divergence::default()
    };
    let recorded = "\"~/.aws\" = \"deny\"\n\"~/.claude/a.json\" = \"read\"\n\
                    \"~/.claude/b.json\" = \"deny\"\n\"~/.claudex\" = \"read\"\n";
    assert_eq!(
        d.lifted(recorded),
        "\"~/.aws\" = \"deny\"\n\"~/.claude\" = \"deny\"\n\"~/.claudex\" = \"read\"\n"
    );
    let other = "\"~/.claude/a.json\" = \"write\"\n";
    assert_eq!(d.lifted(other), other);
    assert_eq!(Divergence::default().lifted(recorded), recorded);
}
