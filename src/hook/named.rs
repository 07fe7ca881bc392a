//! The named-path rule: a word given to a program that may open it is
//! checked as a path, in every spelling a program could take a path from.

/// The paths `word` could name: the word itself; the value of `--opt=V`,
/// `key=V` and a glued short option (`-oFILE`); an `@file` or `<file`; the
/// path of a `file://` URL; and each part of `a:b` and `a,b` (socat's
/// `FILE:path,opts`, a bind mount's `src:dst`). Each is given once.
pub fn candidates(word: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |text: &str| {
        if !text.is_empty() && !out.iter().any(|o| o == text) {
            out.push(text.to_string());
        }
    };
    let mut stems: Vec<&str> = Vec::with_capacity(3);
    if let Some(option) = word.strip_prefix('-') {
        match option.split_once('=') {
            Some((_, value)) => stems.push(value),
            // `-oFILE`: the letter's value glued on.
            None if !option.starts_with('-') && option.len() > 1 => stems.push(&option[1..]),
            None => {}
        }
    } else {
        stems.push(word);
        if let Some((_, value)) = word.split_once('=') {
            stems.push(value);
        }
    }
    for stem in stems {
        let stem = strip_url(stem.trim_start_matches(['@', '<']));
        add(stem);
        if stem.contains([':', ',']) {
            for part in stem.split([':', ',']) {
                add(strip_url(part));
            }
        }
    }
    out
}

/// `file:///p` and `file://localhost/p` are `/p`.
fn strip_url(text: &str) -> &str {
    match text.get(..7) {
        Some(scheme) if scheme.eq_ignore_ascii_case("file://") => {
            let rest = &text[7..];
            rest.strip_prefix("localhost").unwrap_or(rest)
        }
        _ => text,
    }
}

#[cfg(test)]
mod tests {
    use super::candidates;

    #[test]
    fn every_spelling_a_program_takes_a_path_from() {
        let cases: &[(&str, &[&str])] = &[
            ("~/.ssh/id_rsa", &["~/.ssh/id_rsa"]),
            ("--in=~/.netrc", &["~/.netrc"]),
            ("-o~/.bashrc", &["~/.bashrc"]),
            ("if=/x", &["if=/x", "/x"]),
            ("@/x", &["/x"]),
            ("file:///x/y", &["/x/y"]),
            ("FILE:/x,creat", &["FILE:/x,creat", "FILE", "/x", "creat"]),
            ("-v", &[]),
        ];
        for (word, want) in cases {
            assert_eq!(&candidates(word), want, "{word}");
        }
    }
}
