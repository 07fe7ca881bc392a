//! The profile table in its two forms: box-drawn with styles for a
//! terminal (the shape of twsrt 3.3.3's table: heavy header, light body,
//! one space of padding, the footer padded to the table's width), and plain
//! aligned text for scripts.

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
}

impl Column {
    pub fn new(header: &str, style: Style) -> Self {
        Column {
            header: header.to_string(),
            style,
        }
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

    /// The box-drawn, styled form for a terminal.
    pub fn boxed(&self) -> String {
        let widths = self.widths();
        let mut out = String::new();
        rule(&mut out, &widths, ['┏', '━', '┳', '┓']);
        let header: Vec<Cell> = self.columns.iter().map(|c| Cell::text(&c.header)).collect();
        self.boxed_row(&mut out, &header, &widths, '┃', true);
        rule(&mut out, &widths, ['┡', '━', '╇', '┩']);
        for row in &self.rows {
            self.boxed_row(&mut out, row, &widths, '│', false);
        }
        rule(&mut out, &widths, ['└', '─', '┴', '┘']);
        let total: usize = widths.iter().map(|w| w + 3).sum::<usize>() + 1;
        let footer = format!("{:<total$}", self.footer);
        paint(&mut out, Style::DimItalic, &footer);
        out.push('\n');
        out
    }

    fn boxed_row(
        &self,
        out: &mut String,
        cells: &[Cell],
        widths: &[usize],
        bar: char,
        header: bool,
    ) {
        out.push(bar);
        for ((cell, column), width) in cells.iter().zip(&self.columns).zip(widths) {
            let style = if header { Style::Bold } else { column.style };
            paint(out, style, " ");
            // Adjacent pieces of one style are one span, the fill included.
            let mut spans: Vec<(Style, String)> = Vec::new();
            let own = cell.style.unwrap_or(style);
            let fill = " ".repeat(width.saturating_sub(cell.width()));
            let pieces = cell
                .pieces
                .iter()
                .map(|(t, s)| (s.unwrap_or(own), t.as_str()));
            for (s, text) in pieces.chain([(own, fill.as_str())]) {
                match spans.last_mut() {
                    Some((last, acc)) if *last == s => acc.push_str(text),
                    _ => spans.push((s, text.to_string())),
                }
            }
            for (s, text) in &spans {
                paint(out, *s, text);
            }
            paint(out, style, " ");
            out.push(bar);
        }
        out.push('\n');
    }
}

/// A horizontal border: left corner, line, joint, right corner.
fn rule(out: &mut String, widths: &[usize], [left, line, joint, right]: [char; 4]) {
    out.push(left);
    for (i, w) in widths.iter().enumerate() {
        if i > 0 {
            out.push(joint);
        }
        out.extend(std::iter::repeat_n(line, w + 2));
    }
    out.push(right);
    out.push('\n');
}
