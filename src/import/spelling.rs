//! An imported deny entry in a spelling srt and the agents read as another
//! file or host (`Read($HOME/.aws/**)`, `WebFetch(domain:https://x.com)`)
//! is imported in the spelling the user meant, with a note: the policy then
//! denies what the agent's rule meant to (stricter than the agent's file,
//! where the rule matched nothing). An allow entry is imported as written:
//! its fix could widen it (`github.com/org` -> `github.com`), so the compile
//! refuses it at its position and the user chooses.

use crate::agent::import::{Entry, List, Put};
use crate::srt::{domain_spelling, spelling};

/// Each deny, denyRead, denyWrite and deniedDomains entry of `entries` in
/// its canonical spelling, noted where that changed it.
pub fn canonical_denies(entries: &mut [Entry]) {
    for entry in entries {
        let Put::Entry(list, text) = &entry.value else {
            continue;
        };
        let problem = match list {
            List::DenyRead | List::DenyWrite => spelling::path_problem(text),
            List::DeniedDomains => domain_spelling::canonical(text, true).err(),
            _ => None,
        };
        let Some(problem) = problem else {
            continue;
        };
        let note = format!(
            "{} in the agent's file: {}; imported as {}, which srt and every agent read alike",
            crate::source::quoted(text),
            problem.what,
            crate::source::quoted(&problem.fix)
        );
        entry.note = Some(match entry.note.take() {
            Some(before) => format!("{before}\n{note}"),
            None => note,
        });
        entry.value = Put::Entry(*list, problem.fix);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::import::Origin;

    fn entry(list: List, text: &str) -> Entry {
        let origin = Origin {
            file: "settings.json".into(),
            at: "/permissions/deny/0".into(),
        };
        Entry::listed(list, text, origin)
    }

    fn value(entry: &Entry) -> &str {
        match &entry.value {
            Put::Entry(_, text) => text,
            Put::Setting(..) => "",
        }
    }

    #[test]
    fn a_deny_is_imported_as_meant_and_an_allow_as_written() {
        let mut entries = vec![
            entry(List::DenyRead, "$HOME/.aws"),
            entry(List::DeniedDomains, "https://evil.example.com/x"),
            entry(List::DenyWrite, "~/.bashrc"),
            entry(List::AllowedDomains, "github.com/org"),
            entry(List::AllowWrite, "$HOME/dev"),
        ];
        canonical_denies(&mut entries);
        let got: Vec<&str> = entries.iter().map(value).collect();
        assert_eq!(
            got,
            [
                "~/.aws",
                "evil.example.com",
                "~/.bashrc",
                "github.com/org",
                "$HOME/dev"
            ]
        );
        let note = entries[0].note.as_deref().unwrap_or_default();
        assert!(
            note.starts_with("'$HOME/.aws' in the agent's file: $HOME is a variable"),
            "{note}"
        );
        assert!(note.ends_with("imported as '~/.aws', which srt and every agent read alike"));
        assert_eq!(entries[2].note, None);
    }
}
