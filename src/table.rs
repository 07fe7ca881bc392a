//! The profile table in its two forms: box-drawn with styles for a
//! terminal (the shape of twsrt 3.3.3's table: heavy header, light body,
//! one space of padding, the footer padded to the table's width), and plain
//! aligned text for scripts; and the width of the terminal it is drawn in
//! ([`terminal_columns`]).

mod fit;

use fit::{fit, wrap};

/// The styles the table uses, as SGR parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    Bold,
    BoldCyan,
    BoldGreen,
    Magenta,
    Dim,
    DimItalic,
    Red,
}

impl Style {
    fn sgr(self) -> &'static str {
        match self {
            Style::Plain => "",
            Style::Bold => "1",
            Style::BoldCyan => "1;36",
            Style::BoldGreen => "1;32",
            Style::Magenta => "35",
            Style::Dim => "2",
            Style::DimItalic => "2;3",
            Style::Red => "31",
        }
    }
}

pub struct Column {
    header: String,
    style: Style,
    /// Whether a narrow terminal may wrap the column's cells.
    wrap: bool,
}

impl Column {
    pub fn new(header: &str, style: Style) -> Self {
        Column {
            header: header.to_string(),
            style,
            wrap: true,
        }
    }

    /// A column that keeps its width on a narrow terminal.
    pub fn no_wrap(mut self) -> Self {
        self.wrap = false;
        self
    }
}

/// A cell's text in pieces. A piece without a style of its own takes the
/// cell's, and a cell without one the column's; the blanks that fill the
/// cell to the column's width take the cell's or the column's (so a styled
/// cell is styled to its edge, and a list of styled items is not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pieces: Vec<(String, Option<Style>)>,
    style: Option<Style>,
}

impl Cell {
    pub fn text(text: &str) -> Self {
        Cell {
            pieces: vec![(text.to_string(), None)],
            style: None,
        }
    }

    pub fn styled(text: &str, style: Style) -> Self {
        Cell {
            pieces: vec![(text.to_string(), None)],
            style: Some(style),
        }
    }

    /// Items joined by `, `, each in its own style.
    pub fn list<'a>(items: impl IntoIterator<Item = (&'a str, Style)>) -> Self {
        let mut pieces = Vec::new();
        for (i, (text, style)) in items.into_iter().enumerate() {
            if i > 0 {
                pieces.push((", ".to_string(), None));
            }
            pieces.push((text.to_string(), Some(style)));
        }
        Cell {
            pieces,
            style: None,
        }
    }

    fn plain_text(&self) -> String {
        self.pieces.iter().map(|(t, _)| t.as_str()).collect()
    }

    fn width(&self) -> usize {
        self.pieces.iter().map(|(t, _)| t.chars().count()).sum()
    }
}

pub struct Table {
    columns: Vec<Column>,
    rows: Vec<Vec<Cell>>,
    footer: String,
}

/// Text in a style: the escape sequences around it, none for plain text.
fn paint(out: &mut String, style: Style, text: &str) {
    if text.is_empty() {
        return;
    }
    match style.sgr() {
        "" => out.push_str(text),
        sgr => {
            out.push_str("\x1b[");
            out.push_str(sgr);
            out.push('m');
            out.push_str(text);
            out.push_str("\x1b[0m");
        }
    }
}

impl Table {
    pub fn new(columns: Vec<Column>, rows: Vec<Vec<Cell>>, footer: &str) -> Self {
        Table {
            columns,
            rows,
            footer: footer.to_string(),
        }
    }

    fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self
            .columns
            .iter()
            .map(|c| c.header.chars().count())
            .collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.width());
            }
        }
        widths
    }

    /// Plain aligned text: no borders, no styles, columns two spaces apart,
    /// no trailing blanks.
    pub fn plain(&self) -> String {
        let widths = self.widths();
        let mut out = String::new();
        let header: Vec<String> = self.columns.iter().map(|c| c.header.clone()).collect();
        let lines = std::iter::once(header).chain(
            self.rows
                .iter()
                .map(|r| r.iter().map(Cell::plain_text).collect()),
        );
        for cells in lines {
            let mut line = String::new();
            for (i, (text, width)) in cells.iter().zip(&widths).enumerate() {
                if i > 0 {
                    line.push_str("  ");
                }
                line.push_str(&format!("{text:<width$}"));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&self.footer);
        out.push('\n');
        out
    }

    /// The box-drawn, styled form for a terminal `columns` wide (no limit
    /// when unknown): too wide a table has its wrappable columns narrowed
    /// ([`fit`]) and their cells wrapped.
    pub fn boxed(&self, columns: Option<usize>) -> String {
        // Widths with the one blank of padding on each side.
        let mut widths: Vec<usize> = self.widths().iter().map(|w| w + 2).collect();
        if let Some(max) = columns {
            let wrapable: Vec<bool> = self.columns.iter().map(|c| c.wrap).collect();
            widths = fit(&widths, &wrapable, max.saturating_sub(widths.len() + 1));
        }
        let mut out = String::new();
        rule(&mut out, &widths, ['┏', '━', '┳', '┓']);
        let header: Vec<Cell> = self.columns.iter().map(|c| Cell::text(&c.header)).collect();
        self.boxed_row(&mut out, &header, &widths, '┃', true);
        rule(&mut out, &widths, ['┡', '━', '╇', '┩']);
        for row in &self.rows {
            self.boxed_row(&mut out, row, &widths, '│', false);
        }
        rule(&mut out, &widths, ['└', '─', '┴', '┘']);
        // The footer is as wide as the table, wrapped when the table is narrower.
        let total: usize = widths.iter().map(|w| w + 1).sum::<usize>() + 1;
        let footer: Vec<char> = self.footer.chars().collect();
        for (range, cut) in wrap(&footer, total) {
            let mut line: String = footer[range].iter().collect();
            if cut {
                line.push('…');
            }
            paint(&mut out, Style::DimItalic, &format!("{line:<total$}"));
            out.push('\n');
        }
        out
    }

    /// One row, as many lines high as its tallest wrapped cell. A column
    /// squeezed to its padding or less shows blanks only.
    fn boxed_row(
        &self,
        out: &mut String,
        cells: &[Cell],
        widths: &[usize],
        bar: char,
        header: bool,
    ) {
        let styles: Vec<Style> = self
            .columns
            .iter()
            .map(|c| if header { Style::Bold } else { c.style })
            .collect();
        let wrapped: Vec<Vec<Vec<(char, Style)>>> = cells
            .iter()
            .zip(&styles)
            .zip(widths)
            .zip(&self.columns)
            .map(
                |(((cell, style), width), column)| match width.checked_sub(2) {
                    Some(inner) if inner > 0 => cell.lines(*style, inner, column.wrap),
                    _ => Vec::new(),
                },
            )
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(0).max(1);
        for i in 0..height {
            out.push(bar);
            for (((cell, lines), style), width) in
                cells.iter().zip(&wrapped).zip(&styles).zip(widths)
            {
                match lines.get(i) {
                    Some(line) => {
                        paint(out, *style, " ");
                        paint_line(out, line, cell.style.unwrap_or(*style), width - 2);
                        paint(out, *style, " ");
                    }
                    // Below a shorter cell: one blank span, padding included.
                    None => paint(out, *style, &" ".repeat(*width)),
                }
                out.push(bar);
            }
            out.push('\n');
        }
    }
}

impl Cell {
    /// The cell's characters, each with its style, in lines of `width`
    /// (one line, cut to fit, when the column does not wrap).
    fn lines(&self, column: Style, width: usize, wraps: bool) -> Vec<Vec<(char, Style)>> {
        let own = self.style.unwrap_or(column);
        let styled: Vec<(char, Style)> = self
            .pieces
            .iter()
            .flat_map(|(t, s)| t.chars().map(move |c| (c, s.unwrap_or(own))))
            .collect();
        let chars: Vec<char> = styled.iter().map(|(c, _)| *c).collect();
        let lines = if wraps {
            wrap(&chars, width)
        } else if chars.len() > width {
            vec![(0..width - 1, true)]
        } else {
            vec![(0..chars.len(), false)]
        };
        lines
            .into_iter()
            .map(|(range, cut)| {
                let end = range.end;
                let mut line = styled[range].to_vec();
                if cut {
                    // The ellipsis takes the style of the character it replaces.
                    line.push(('…', styled.get(end).map_or(own, |(_, s)| *s)));
                }
                line
            })
            .collect()
    }
}

/// One line of a cell: adjacent characters of one style are one span, the
/// blanks that fill it to `width` (in `fill_style`) included.
fn paint_line(out: &mut String, line: &[(char, Style)], fill_style: Style, width: usize) {
    let mut spans: Vec<(Style, String)> = Vec::new();
    let fill = std::iter::repeat_n((' ', fill_style), width.saturating_sub(line.len()));
    for (c, s) in line.iter().copied().chain(fill) {
        match spans.last_mut() {
            Some((last, acc)) if *last == s => acc.push(c),
            _ => spans.push((s, c.to_string())),
        }
    }
    for (s, text) in &spans {
        paint(out, *s, text);
    }
}

/// A horizontal border: left corner, line, joint, right corner.
fn rule(out: &mut String, widths: &[usize], [left, line, joint, right]: [char; 4]) {
    out.push(left);
    for (i, w) in widths.iter().enumerate() {
        if i > 0 {
            out.push(joint);
        }
        out.extend(std::iter::repeat_n(line, *w));
    }
    out.push(right);
    out.push('\n');
}

/// The width of the terminal on stdout: `COLUMNS` when set (as twsrt
/// 3.3.3 reads it), else what `stty size` reports for the terminal (stdout
/// handed to it as its input; no terminal-size dependency for one table).
/// Unknown (`None`, the table keeps its natural width) when neither says.
pub fn terminal_columns() -> Option<usize> {
    use std::os::fd::AsFd;
    let from_env = std::env::var("COLUMNS").ok();
    if let Some(columns) = from_env.and_then(|c| c.trim().parse().ok()) {
        return Some(columns);
    }
    let tty = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
    let out = std::process::Command::new("stty")
        .arg("size")
        .stdin(tty)
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let columns: usize = text.split_whitespace().nth(1)?.parse().ok()?;
    (out.status.success() && columns > 0).then_some(columns)
}
