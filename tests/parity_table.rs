//! The `stdout-table-cells` divergence of the parity replay: stdout read as
//! a table, so a box-drawn table (twsrt 3.3.3's Rich table, also in a pipe)
//! and the port's plain aligned text compare cell by cell.
//!
//! Box form: lines made only of box-drawing characters are borders; a line
//! starting with `┃` or `│` is a row, split at those bars. Plain form: the
//! first line that is neither (before any box row) is the header; a column starts at offset 0
//! and wherever a non-blank follows two blanks in it. Later lines are rows
//! when every column start they reach is preceded by two blanks (or the
//! line ends before it); any other line is free text. Cells and free text
//! are trimmed. A row wrapped over several lines (a narrow terminal) is not
//! recognised: the recorder runs with COLUMNS=200.

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Row(Vec<String>),
    Text(String),
}

fn is_border(line: &str) -> bool {
    !line.trim().is_empty()
        && line
            .chars()
            .all(|c| ('\u{2500}'..='\u{257f}').contains(&c) || c == ' ')
}

pub fn parse(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut starts: Option<Vec<usize>> = None;
    let mut boxed = false;
    for line in text.lines() {
        if is_border(line) {
            continue;
        }
        if line.starts_with(['┃', '│']) {
            let cells = line.split(['┃', '│']).map(|c| c.trim().to_string());
            let mut cells: Vec<String> = cells.collect();
            cells.remove(0);
            cells.pop();
            out.push(Line::Row(cells));
            boxed = true;
            continue;
        }
        let chars: Vec<char> = line.chars().collect();
        match &starts {
            None if !boxed && !line.trim().is_empty() => {
                let found = column_starts(&chars);
                out.push(Line::Row(split_at(&chars, &found)));
                starts = Some(found);
            }
            Some(s) if is_plain_row(&chars, s) => out.push(Line::Row(split_at(&chars, s))),
            _ => out.push(Line::Text(line.trim().to_string())),
        }
    }
    out
}

fn column_starts(chars: &[char]) -> Vec<usize> {
    let mut starts = vec![0];
    for i in 2..chars.len() {
        if chars[i] != ' ' && chars[i - 1] == ' ' && chars[i - 2] == ' ' {
            starts.push(i);
        }
    }
    starts
}

fn is_plain_row(chars: &[char], starts: &[usize]) -> bool {
    starts
        .iter()
        .skip(1)
        .all(|&s| s >= chars.len() || (chars[s - 1] == ' ' && chars[s - 2] == ' '))
}

fn split_at(chars: &[char], starts: &[usize]) -> Vec<String> {
    (0..starts.len())
        .map(|i| {
            let from = starts[i].min(chars.len());
            let to = starts
                .get(i + 1)
                .map_or(chars.len(), |&e| e.min(chars.len()));
            chars[from..to]
                .iter()
                .collect::<String>()
                .trim()
                .to_string()
        })
        .collect()
}

/// The table lines rendered back as text, one per line, cells joined by
/// ` | `, for a readable diff.
pub fn render(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| match l {
            Line::Row(cells) => format!("| {} |\n", cells.join(" | ")),
            Line::Text(t) => format!("{t}\n"),
        })
        .collect()
}

/// A reference cell starting with one of `prose` prefixes holds a sentence
/// the port words itself: the port's cell must start with the same prefix
/// and contain, as the facts rule matches them, the names the reference's
/// cell quotes (`'mixin'` -> `mixin` at word boundaries).
pub fn align_prose(want: &mut [Line], got: &[Line], prose: &[String]) {
    for (w, g) in want.iter_mut().zip(got) {
        let (Line::Row(wc), Line::Row(gc)) = (w, g) else {
            continue;
        };
        for (wcell, gcell) in wc.iter_mut().zip(gc) {
            let Some(prefix) = prose.iter().find(|p| wcell.starts_with(p.as_str())) else {
                continue;
            };
            let mut quoted = wcell.split('\'').skip(1).step_by(2);
            let kept = gcell.starts_with(prefix.as_str())
                && quoted.all(|q| crate::parity::contains_bounded(gcell, q));
            if kept {
                wcell.clone_from(gcell);
            }
        }
    }
}

#[test]
fn box_and_plain_tables_parse_to_the_same_cells() {
    let boxed = "┏━━━━━┳━━━┓\n┃ A   ┃ B ┃\n┡━━━━━╇━━━┩\n│ x * │   │\n│ y   │ z │\n└─────┴───┘\n* note      \n";
    let plain = "A    B\nx *\ny    z\n* note\n";
    assert_eq!(parse(boxed), parse(plain));
    assert_eq!(
        render(&parse(plain)),
        "| A | B |\n| x * |  |\n| y | z |\n* note\n"
    );
}

#[test]
fn a_different_cell_is_a_difference() {
    assert_ne!(parse("A    B\nx    y\n"), parse("A    B\nx    z\n"));
    assert_ne!(parse("A    B\nx    y\n"), parse("A    B\nx  y\n"));
}

#[test]
fn a_prose_cell_keeps_its_prefix_and_quoted_names() {
    let prose = vec!["invalid: ".to_string()];
    let got = parse("A  B\nx  invalid: no srt for 'x' here\n");
    let mut want = parse("A  B\nx  invalid: Profile 'x' lacks 'srt'\n");
    align_prose(&mut want, &got, &prose);
    assert_eq!(want, got);
    let mut other = parse("A  B\nx  invalid: Profile 'y' lacks 'srt'\n");
    align_prose(&mut other, &got, &prose);
    assert_ne!(other, got);
}
