//! A cheap look at a command text before it is parsed: how deeply it
//! nests, so a text the parser would recurse too deeply on is not parsed.

use super::{SHELLS, is_wrapper};

/// The deepest nesting in `text` of brackets (`(`, `{`, `[`) and of the
/// compound keywords (`if`..`fi`, `case`..`esac`, `do`..`done`), each
/// counted on its own, quotes ignored (which can only overstate it).
pub(super) fn nesting(text: &str) -> usize {
    let mut brackets = Depth::default();
    for c in text.chars() {
        match c {
            '(' | '{' | '[' => brackets.open(),
            ')' | '}' | ']' => brackets.close(),
            _ => {}
        }
    }
    let mut keywords = Depth::default();
    // A run of words that each take the rest of the command (`! ! cmd`,
    // `time time cmd`, `sudo env nice cmd`) nests as deep as it is long.
    let mut prefixes = Depth::default();
    let separators = |c: char| c.is_whitespace() || ";&|()".contains(c);
    for word in text.split(separators).filter(|w| !w.is_empty()) {
        match word {
            "if" | "case" | "do" => keywords.open(),
            "fi" | "esac" | "done" => keywords.close(),
            _ => {}
        }
        let prefix = matches!(word, "!" | "time" | "-p" | "coproc" | "[[" | "((")
            || is_wrapper(word)
            || SHELLS.contains(&word);
        if prefix {
            prefixes.open();
        } else {
            prefixes.depth = 0;
        }
    }
    brackets.deepest.max(keywords.deepest).max(prefixes.deepest)
}

#[derive(Default)]
struct Depth {
    depth: usize,
    deepest: usize,
}

impl Depth {
    fn open(&mut self) {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
    }

    fn close(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
}
