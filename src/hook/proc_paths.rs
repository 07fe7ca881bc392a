//! What a path through `/proc` names. Every process here shares one root,
//! so `/proc/<pid>/root/x`, `/proc/self/task/<tid>/root/x` and their
//! globbed spellings (`/proc/*/root/x`, `/proc/[s]elf/root/x`) are `/x`.
//! `/proc/<pid>/cwd/x`, `fd/N`, `exe` and `map_files/...` name files the
//! text does not determine (where another process is, what it has open),
//! except the opening process's own descriptors (`/proc/self/fd/N`,
//! `/dev/fd/N`), which it inherited from the shell whose redirections are
//! checked. A pattern segment could be any of these names.

use crate::srt::glob::{self, Classes};

/// What one absolute path text also names, or why the hook cannot tell.
#[derive(Debug, PartialEq, Eq)]
pub enum Named {
    /// Not through `/proc` (or only through the opener's own entries).
    Itself,
    /// The paths it names besides its own spelling (patterns kept).
    Also(Vec<String>),
    /// A file of another process: `why`.
    Unknown(String),
}

/// How many spellings one text may branch into (each pattern segment that
/// could be `root` doubles them) before it counts as undetermined.
const MAX_SPELLINGS: usize = 16;

/// The links below `/proc/<pid>/` that lead to files the text cannot give.
const OPAQUE: &[&str] = &["cwd", "fd", "exe", "map_files"];

/// `text` (absolute, `..` not yet folded) through `/proc`.
pub fn named(text: &str) -> Named {
    if !text.starts_with('/') || !could_be_proc(text) {
        return Named::Itself;
    }
    let segments: Vec<&str> = text.split('/').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    match walk(&segments, Vec::new(), false, &mut out) {
        Err(why) => Named::Unknown(why),
        Ok(()) => {
            let own = format!("/{}", fold(&segments).join("/"));
            out.retain(|p| *p != own);
            out.dedup();
            if out.is_empty() {
                Named::Itself
            } else {
                Named::Also(out)
            }
        }
    }
}

/// Cheap test first: only a text whose first segment could be `proc`.
fn could_be_proc(text: &str) -> bool {
    let first = text.trim_start_matches('/').split('/').next().unwrap_or("");
    may_be(first, "proc")
}

/// Fold `segments` from `stack`; every time the stack could be a process
/// root, branch to `/`. `rooted`: this spelling went through a root.
fn walk(
    segments: &[&str],
    mut stack: Vec<String>,
    rooted: bool,
    out: &mut Vec<String>,
) -> Result<(), String> {
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." => continue,
            ".." => {
                stack.pop();
                continue;
            }
            s => stack.push(s.to_string()),
        }
        match at_proc_link(&stack) {
            Link::None => {}
            Link::Opaque(why) => return Err(why),
            Link::Root { only } => {
                if out.len() >= MAX_SPELLINGS {
                    return Err("a /proc pattern with too many readings".into());
                }
                walk(&segments[i + 1..], Vec::new(), true, out)?;
                if only {
                    return Ok(());
                }
            }
        }
    }
    if rooted {
        out.push(format!("/{}", stack.join("/")));
    }
    Ok(())
}

enum Link {
    None,
    /// The stack is `/proc/<pid>/root` (or `task/<tid>/root`); `only`: it
    /// can be nothing else.
    Root {
        only: bool,
    },
    Opaque(String),
}

/// Whether the folded `stack` ends on a per-process link.
fn at_proc_link(stack: &[String]) -> Link {
    let (pid, link) = match stack {
        [p, pid, link] if may_be(p, "proc") => (pid, link),
        [p, pid, t, tid, link] if may_be(p, "proc") && may_be(t, "task") && may_be_pid(tid) => {
            (pid, link)
        }
        _ => return Link::None,
    };
    if !may_be_pid(pid) {
        return Link::None;
    }
    let own = pid == "self" || pid == "thread-self";
    if let Some(opaque) = OPAQUE
        .iter()
        .find(|o| may_be(link, o) && !(own && **o != "cwd"))
    {
        return Link::Opaque(format!(
            "{} names the {} of a process, which the text does not give",
            format_args!("/{}", stack.join("/")),
            match *opaque {
                "cwd" => "working directory",
                "fd" => "open files",
                _ => "mapped files",
            }
        ));
    }
    if may_be(link, "root") {
        let literal = stack.iter().all(|s| !is_pattern(s));
        return Link::Root { only: literal };
    }
    Link::None
}

/// A pid segment: digits, `self`, `thread-self`, or a pattern (which could
/// match a pid).
fn may_be_pid(seg: &str) -> bool {
    is_pattern(seg)
        || seg == "self"
        || seg == "thread-self"
        || (!seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()))
}

/// `seg` is `name`, or a pattern that matches it.
fn may_be(seg: &str, name: &str) -> bool {
    seg == name || (is_pattern(seg) && glob::segment_matches(seg, name, Classes::Bash))
}

fn is_pattern(seg: &str) -> bool {
    seg.contains(['*', '?', '['])
}

/// `segments` with `.` dropped and `..` folded (at `/`, `..` stays there).
fn fold<'a>(segments: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for s in segments {
        match *s {
            "." => {}
            ".." => drop(out.pop()),
            s => out.push(s),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn also(paths: &[&str]) -> Named {
        Named::Also(paths.iter().map(|p| p.to_string()).collect())
    }

    #[test]
    fn proc_spellings() {
        let unknown = |t: &str| matches!(named(t), Named::Unknown(_));
        for (text, want) in [
            ("/proc/self/root/h/.ssh/id", also(&["/h/.ssh/id"])),
            ("/proc/1/root/h/.ssh/id", also(&["/h/.ssh/id"])),
            ("/proc/thread-self/root/h", also(&["/h"])),
            ("/proc/self/task/12/root/h/x", also(&["/h/x"])),
            ("/proc/self/task/*/root/h/x", also(&["/h/x"])),
            ("/proc/*/root/h/.ssh/id", also(&["/h/.ssh/id"])),
            ("/proc/[s]elf/root/h/.ssh/*", also(&["/h/.ssh/*"])),
            ("/pr?c/self/root/h", also(&["/h"])),
            ("/proc/self/r*/h", also(&["/h"])),
            ("/proc/self/root/../../h", also(&["/h"])),
            ("/proc/self/root/proc/1/root/h", also(&["/h"])),
            ("/proc/self/fd/3", Named::Itself),
            ("/proc/self/status", Named::Itself),
            ("/proc/cpuinfo", Named::Itself),
            ("/proc/sys/kernel/root", Named::Itself),
            ("/home/u/proc/self/root/x", Named::Itself),
        ] {
            assert_eq!(named(text), want, "{text}");
        }
        for text in [
            "/proc/1/cwd/id_rsa",
            "/proc/*/cwd/x",
            "/proc/1/fd/3",
            "/proc/*/fd/*",
            "/proc/1/task/1/fd/3",
            "/proc/self/cwd/x",
            "/proc/self/*/x",
            "/proc/*/*/h/.ssh/id",
            "/proc/1/exe",
        ] {
            assert!(unknown(text), "{text}: {:?}", named(text));
        }
    }
}
