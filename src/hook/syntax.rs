//! Programs whose words follow a syntax of their own rather than options
//! and operands: find's expression, dd's `if=`/`of=`, socat's addresses.

use super::operands::{Access, Arg, Operand, named_words};

/// One socat address: a file is opened both ways unless `-u`/`-U` say
/// otherwise, so it counts as written; a command address is undetermined.
pub fn socat(address: &Arg, push: &mut impl FnMut(Access, Operand)) {
    let Arg::Lit(text) = address else {
        return push(Access::Write, address.into());
    };
    let (kind, rest) = text.split_once(':').unwrap_or(("", text));
    let path = rest.split(',').next().unwrap_or(rest);
    match kind.to_ascii_uppercase().as_str() {
        "FILE" | "OPEN" | "GOPEN" | "CREATE" | "CREAT" | "PIPE" | "UNIX-CONNECT"
        | "UNIX-LISTEN" | "UNIX-CLIENT" => push(Access::Write, Operand::Path(path.to_string())),
        "EXEC" | "SYSTEM" => push(
            Access::Read,
            Operand::Unknown(format!("socat {kind}: runs a command")),
        ),
        "" if text.contains('/') => push(Access::Write, Operand::Path(path.to_string())),
        _ => named_words(std::slice::from_ref(address), push),
    }
}

/// find: the start points are the words before the first expression word;
/// `-fprint FILE` and its kin write; `-delete` changes what it walks.
pub fn find(args: &[Arg], push: &mut impl FnMut(Access, &Arg)) {
    let roots = find_roots(args);
    let expr = &args[roots.end..];
    let deletes = expr
        .iter()
        .any(|a| matches!(a, Arg::Lit(t) if t == "-delete"));
    let dot = [Arg::Lit(".".into())];
    let roots = if roots.is_empty() {
        &dot[..]
    } else {
        &args[roots]
    };
    for r in roots {
        push(Access::RecursiveRead, r);
        if deletes {
            push(Access::RecursiveWrite, r);
        }
    }
    for pair in expr.windows(2) {
        let writes = ["-fprint", "-fprint0", "-fprintf", "-fls"];
        let names = ["-newer", "-anewer", "-cnewer", "-samefile"];
        match &pair[0] {
            Arg::Lit(t) if writes.contains(&t.as_str()) => push(Access::Write, &pair[1]),
            Arg::Lit(t) if t == "-files0-from" => push(Access::Read, &pair[1]),
            Arg::Lit(t) if names.contains(&t.as_str()) => push(Access::Named, &pair[1]),
            _ => {}
        }
    }
}

/// The indexes of find's start points: after its own leading options
/// (`-H`, `-L`, `-P`, `-D debug`, `-O3`), before the first expression word.
pub fn find_roots(args: &[Arg]) -> std::ops::Range<usize> {
    let is_expr = |a: &Arg| matches!(a, Arg::Lit(t) if t.starts_with('-') || t == "(" || t == "!" || t == ",");
    let mut i = 0;
    while let Some(Arg::Lit(t)) = args.get(i) {
        match t.as_str() {
            "-H" | "-L" | "-P" => i += 1,
            "-D" => i += 2,
            _ if t.starts_with("-O") => i += 1,
            _ => break,
        }
    }
    let start = i.min(args.len());
    let mut end = start;
    while end < args.len() && !is_expr(&args[end]) {
        end += 1;
    }
    start..end
}

/// dd: `if=` is read, `of=` written.
pub fn dd(args: &[Arg], push: &mut impl FnMut(Access, &Arg)) {
    for arg in args {
        let (text, unknown) = match arg {
            Arg::Lit(t) => (t, false),
            Arg::Unknown(t) => (t, true),
        };
        for (key, access) in [("if=", Access::Read), ("of=", Access::Write)] {
            if let Some(file) = text.strip_prefix(key) {
                let file = if unknown {
                    Arg::Unknown(text.clone())
                } else {
                    Arg::Lit(file.to_string())
                };
                push(access, &file);
            }
        }
    }
}
