//! One shell word after quote removal, as far as the text determines it.
//! Quoted and escaped text is literal; an unquoted glob or brace
//! expansion, a parameter, an arithmetic expansion, `~user` and a command
//! substitution are not (the word becomes [`Arg::Unknown`]). The command
//! substitutions are handed back so their commands are checked too,
//! wherever they sit: in a parameter expansion's operands (`${U:-$(cmd)}`,
//! patterns, replacements, offsets, subscripts) and in arithmetic.

use brush_parser::ParserOptions;
use brush_parser::word::{self, WordPiece, WordPieceWithSource};

use super::operands::Arg;

/// The word's value, and the command texts substituted into it.
pub struct Expanded {
    pub arg: Arg,
    pub substitutions: Vec<String>,
}

/// `written` (a word as the parser split it) expanded as far as text goes.
pub fn expand(written: &str, options: &ParserOptions) -> Expanded {
    let mut out = Builder {
        options: options.clone(),
        source: written.to_string(),
        ..Builder::default()
    };
    match word::parse(written, options) {
        Ok(pieces) => out.pieces(&pieces, false),
        Err(_) => out.known = false,
    }
    // A quoted `~` is a file of that name, not the home directory.
    if out.quoted_tilde {
        out.text.insert_str(0, "./");
    }
    Expanded {
        arg: if out.known {
            Arg::Lit(out.text)
        } else {
            Arg::Unknown(written.to_string())
        },
        substitutions: out.substitutions,
    }
}

struct Builder {
    options: ParserOptions,
    /// The word as written: piece positions index into it.
    source: String,
    text: String,
    known: bool,
    quoted_tilde: bool,
    substitutions: Vec<String>,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            options: ParserOptions::default(),
            source: String::new(),
            text: String::new(),
            known: true,
            quoted_tilde: false,
            substitutions: Vec::new(),
        }
    }
}

impl Builder {
    fn pieces(&mut self, pieces: &[WordPieceWithSource], quoted: bool) {
        for piece in pieces {
            if let WordPiece::ParameterExpansion(_) = piece.piece {
                self.parameter(piece.start_index, piece.end_index);
            }
            self.piece(&piece.piece, quoted);
        }
    }

    /// `${...}`: every operand (default, alternative and error words,
    /// patterns, replacements, offsets, subscripts) is a word the shell
    /// expands, so the text inside the braces is read as one.
    fn parameter(&mut self, start: usize, end: usize) {
        let inside = self
            .source
            .get(start..end)
            .and_then(|t| t.strip_prefix("${"))
            .and_then(|t| t.strip_suffix('}'))
            .map(str::to_string);
        if let Some(inside) = inside {
            self.inner(&inside);
        }
    }

    fn literal(&mut self, text: &str, quoted: bool) {
        if self.text.is_empty() && quoted && text.starts_with('~') {
            self.quoted_tilde = true;
        }
        self.text.push_str(text);
    }

    fn piece(&mut self, piece: &WordPiece, quoted: bool) {
        match piece {
            WordPiece::Text(t) => {
                if !quoted && is_pattern(t) {
                    self.known = false;
                }
                self.text.push_str(t);
            }
            WordPiece::SingleQuotedText(t) => self.literal(t, true),
            WordPiece::AnsiCQuotedText(t) => {
                // Its escapes (`\x2e`) would need decoding first.
                if t.contains('\\') {
                    self.known = false;
                }
                self.literal(t, true);
            }
            WordPiece::EscapeSequence(e) => {
                let c = e.strip_prefix('\\').unwrap_or(e);
                self.literal(c, true);
            }
            WordPiece::DoubleQuotedSequence(inner)
            | WordPiece::GettextDoubleQuotedSequence(inner) => {
                self.pieces(inner, true);
            }
            WordPiece::TildePrefix(user) if user.is_empty() => self.text.push('~'),
            WordPiece::CommandSubstitution(c) | WordPiece::BackquotedCommandSubstitution(c) => {
                self.substitutions.push(c.clone());
                self.known = false;
            }
            WordPiece::ParameterExpansion(_) => self.known = false,
            WordPiece::ArithmeticExpression(expr) => {
                self.known = false;
                self.inner(&expr.value);
            }
            WordPiece::TildePrefix(_) => self.known = false,
        }
    }

    /// Text the shell expands inside this word (an operand, an arithmetic
    /// expression): only its command substitutions matter here. Text that
    /// does not parse as a word is kept as a command to check.
    fn inner(&mut self, text: &str) {
        match word::parse(text, &self.options) {
            Ok(_) => {
                let inner = expand(text, &self.options);
                self.substitutions.extend(inner.substitutions);
            }
            Err(_) if text.contains(['$', '`']) => self.substitutions.push(text.to_string()),
            Err(_) => {}
        }
    }
}

/// Unquoted text the shell would expand into other words: a glob or a
/// brace expansion.
fn is_pattern(text: &str) -> bool {
    text.contains(['*', '?', '['])
        || (text.contains('{') && text.contains('}') && (text.contains(',') || text.contains("..")))
}
