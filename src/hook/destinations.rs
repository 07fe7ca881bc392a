//! Where the writing programs put what they write, the way each program
//! resolves it: a destination that is a directory receives
//! `dir/<name of each source>` (cp, mv, install, ln, scp, rsync); an
//! extraction writes below its directory (tar, unzip); a download is named
//! after its URL (curl `-O`, wget) inside its output directory. A write
//! whose names the text cannot give is a write of the whole directory, so
//! it is asked about exactly when that directory holds a denied path.

use super::commands::Shape;
use super::operands::{Access, Arg, Operand, Parsed};

/// What a source contributes to the destination's names.
enum SourceName {
    /// `dest/<name>` when dest is a directory.
    Named(String),
    /// Its contents land in the destination itself (`rsync src/ d`,
    /// `cp -r src/. d`).
    Contents,
    Unknown(String),
}

/// The name a copy of `source` gets inside a destination directory: its
/// last segment, or with `parents` its whole relative path.
fn source_name(program: &str, source: &Arg, parents: bool) -> SourceName {
    let text = match source {
        Arg::Lit(t) => t.as_str(),
        Arg::Unknown(w) => return SourceName::Unknown(w.clone()),
    };
    // `host:path` (scp, rsync): the name is the remote path's.
    let path = match text.split_once(':') {
        Some((host, path)) if is_remote(text) && !host.contains('/') => path,
        _ => text,
    };
    if program == "rsync" && path.ends_with('/') && !parents {
        return SourceName::Contents;
    }
    if parents {
        // `rsync -R a/./b` keeps the part after `/./`; an absolute or `..`
        // path keeps segments the text cannot fold: the whole directory.
        let kept = path.rsplit_once("/./").map_or(path, |(_, k)| k);
        let kept = kept.trim_start_matches("./").trim_end_matches('/');
        if kept.is_empty() || kept.starts_with(['/', '~']) || kept.split('/').any(|s| s == "..") {
            return SourceName::Contents;
        }
        return SourceName::Named(kept.to_string());
    }
    match path.trim_end_matches('/').rsplit('/').next() {
        None | Some("" | "." | ".." | "~") => SourceName::Contents,
        Some(name) => SourceName::Named(name.to_string()),
    }
}

pub fn is_remote(text: &str) -> bool {
    text.contains("://")
        || text
            .split_once(':')
            .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// cp, mv, install, ln, scp, rsync: sources and a destination.
pub fn copy(
    program: &str,
    shape: Shape,
    p: &Parsed,
    walk: bool,
    push: &mut impl FnMut(Access, Operand),
) {
    let all = &p.positionals[..];
    let (sources, dest): (&[Arg], Option<&Arg>) = match (&p.target, all) {
        (Some(t), _) => (all, Some(t)),
        // `ln -s TARGET` makes the link in the working directory.
        (None, [only]) if shape == Shape::Link => (std::slice::from_ref(only), None),
        (None, [sources @ .., last]) if !sources.is_empty() => (sources, Some(last)),
        (None, _) => (all, None),
    };
    let dest_is_remote = matches!(dest, Some(Arg::Lit(t)) if is_remote(t));
    for s in sources
        .iter()
        .filter(|s| !matches!(s, Arg::Lit(t) if is_remote(t)))
    {
        push(Access::Read.walking(walk), s.into());
        // Moving a tree away writes every path in it.
        if shape == Shape::Move {
            push(Access::RecursiveWrite, s.into());
        }
        // A link (ln, `cp -l`/`-s`) is a new name for the source: reads and
        // writes through it reach the source, so making it is both.
        if shape == Shape::Link || p.links {
            push(Access::Write, s.into());
        }
    }
    if dest_is_remote {
        return;
    }
    let access = match shape {
        Shape::Move => Access::RecursiveWrite,
        Shape::Link => Access::Write,
        _ => Access::Write.walking(walk),
    };
    let dir = match dest {
        Some(Arg::Lit(d)) => d.clone(),
        Some(Arg::Unknown(w)) => return push(access, Operand::Unknown(w.clone())),
        None if shape == Shape::Link => ".".to_string(),
        None => return,
    };
    if p.no_target_dir && p.target.is_none() {
        // `ln -sfn x D`: D replaced, which for a link to a directory is
        // every path below it.
        let access = if shape == Shape::Link {
            Access::RecursiveWrite
        } else {
            access
        };
        return push(access, Operand::Path(dir));
    }
    // Two sources or `-t`: the destination can only be a directory.
    let must_be_dir = p.target.is_some() || sources.len() > 1 || dest.is_none();
    for s in sources {
        let operand = match source_name(program, s, p.parents) {
            SourceName::Named(name) if must_be_dir => {
                Operand::Path(format!("{}/{name}", dir.trim_end_matches('/')))
            }
            SourceName::Named(name) => Operand::Into {
                dir: dir.clone(),
                name,
            },
            SourceName::Contents => {
                push(Access::RecursiveWrite, Operand::Path(dir.clone()));
                continue;
            }
            SourceName::Unknown(w) => Operand::Unknown(w),
        };
        push(access, operand);
    }
}

/// Where an extraction or download writes: its directory option, or the
/// working directory.
fn directory(p: &Parsed) -> Arg {
    p.directory.clone().unwrap_or(Arg::Lit(".".into()))
}

/// `name` inside `dir` (unless `name` is absolute).
fn inside(dir: &Arg, name: &Arg) -> Arg {
    match (dir, name) {
        (_, Arg::Lit(n)) if n.starts_with(['/', '~']) => name.clone(),
        (Arg::Lit(d), Arg::Lit(n)) if d == "." => Arg::Lit(n.clone()),
        (Arg::Lit(d), Arg::Lit(n)) => Arg::Lit(format!("{}/{n}", d.trim_end_matches('/'))),
        (Arg::Unknown(d), _) => Arg::Unknown(d.clone()),
        (_, Arg::Unknown(n)) => Arg::Unknown(n.clone()),
    }
}

/// tar: create reads the operands (below `-C`) into the archive; extract
/// and list read the archive, and extract writes below `-C` (the members
/// named, or everything the archive holds).
pub fn tar(p: &Parsed, push: &mut impl FnMut(Access, Operand)) {
    let dir = directory(p);
    if p.create {
        if let Some(archive) = &p.target {
            push(Access::Write, archive.into());
        }
        for f in &p.positionals {
            push(Access::RecursiveRead, (&inside(&dir, f)).into());
        }
        return;
    }
    if let Some(archive) = &p.target {
        push(Access::Read, archive.into());
    }
    if p.extract && !p.stdout {
        extraction(p, &dir, push);
    }
}

/// The writes of an extraction into `dir`.
fn extraction(p: &Parsed, dir: &Arg, push: &mut impl FnMut(Access, Operand)) {
    if p.names_unknown {
        return push(
            Access::Write,
            Operand::Unknown("(the names the archive holds)".into()),
        );
    }
    let members = match p.positionals.first() {
        // unzip: the first operand is the archive.
        Some(_) if p.target.is_none() => &p.positionals[1..],
        _ => &p.positionals[..],
    };
    if members.is_empty() {
        return push(Access::RecursiveWrite, dir.into());
    }
    for m in members {
        push(Access::RecursiveWrite, (&inside(dir, m)).into());
    }
}

/// unzip: the first operand is the archive; the rest name members; `-d`
/// is where they go; `-l`, `-t`, `-p`, `-v`, `-Z` write nothing.
pub fn unzip(p: &Parsed, push: &mut impl FnMut(Access, Operand)) {
    let Some(archive) = p.positionals.first() else {
        return;
    };
    push(Access::Read, archive.into());
    if !p.stdout {
        extraction(p, &directory(p), push);
    }
}

/// The path of a `file://` URL, if `url` is one.
fn file_url(url: &Arg) -> Option<Arg> {
    let Arg::Lit(text) = url else {
        return url_scheme_unknown(url);
    };
    let lower = text.get(..7)?.to_ascii_lowercase();
    if lower != "file://" {
        return None;
    }
    let rest = &text[7..];
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    // Percent escapes and curl's `{a,b}` / `[1-3]` globs stand for other names.
    if path.contains(['%', '{', '[', '?', '#']) {
        return Some(Arg::Unknown(text.clone()));
    }
    Some(Arg::Lit(path.to_string()))
}

/// An undetermined URL could be a `file://` one.
fn url_scheme_unknown(url: &Arg) -> Option<Arg> {
    match url {
        Arg::Unknown(w) if !w.contains("://") || w.to_ascii_lowercase().contains("file:") => {
            Some(url.clone())
        }
        _ => None,
    }
}

/// The last segment of a URL's path, as curl and wget name a download.
fn url_name(url: &Arg) -> Option<Arg> {
    let Arg::Lit(text) = url else {
        return Some(url.clone());
    };
    let after_scheme = text.split_once("://").map_or(text.as_str(), |(_, r)| r);
    let path = after_scheme.split(['?', '#']).next().unwrap_or("");
    let (_, path) = path.split_once('/')?;
    let name = path.rsplit('/').next().unwrap_or("");
    (!name.is_empty()).then(|| Arg::Lit(name.to_string()))
}

/// curl: `file://` URLs are read; `-o` and `-O` write inside
/// `--output-dir`; `-J` takes the name from the server.
pub fn curl(p: &Parsed, push: &mut impl FnMut(Access, Operand)) {
    let dir = directory(p);
    for url in &p.positionals {
        match file_url(url) {
            Some(file) => push(Access::Read, (&file).into()),
            None => super::operands::named_words(std::slice::from_ref(url), push),
        }
        if p.remote_name {
            let name = match url_name(url) {
                _ if p.names_unknown => None,
                name => name,
            };
            match name {
                Some(n) => push(Access::Write, (&inside(&dir, &n)).into()),
                None => push(Access::RecursiveWrite, (&dir).into()),
            }
        }
    }
    for out in &p.outputs {
        push(Access::Write, (&inside(&dir, out)).into());
    }
    if p.directory.is_some() && !p.remote_name && p.outputs.is_empty() {
        push(Access::Named, (&dir).into());
    }
}

/// wget: `-O` is the file written; otherwise each URL's name inside `-P`
/// (a recursive fetch writes a tree there).
pub fn wget(p: &Parsed, push: &mut impl FnMut(Access, Operand)) {
    let dir = directory(p);
    for url in &p.positionals {
        super::operands::named_words(std::slice::from_ref(url), push);
    }
    if !p.outputs.is_empty() {
        for out in &p.outputs {
            push(Access::Write, out.into());
        }
        return;
    }
    let fetches_list = p.files.iter().any(|(a, _)| *a == Access::Read);
    if p.recursive || p.names_unknown || fetches_list {
        return push(Access::RecursiveWrite, (&dir).into());
    }
    for url in &p.positionals {
        let name = url_name(url).unwrap_or(Arg::Lit("index.html".into()));
        push(Access::Write, (&inside(&dir, &name)).into());
    }
}
