//! Tables that fit their panel by dropping columns, never by wrapping: the
//! least important column goes first, until the rest fit the width.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// One column: its title, its cells (one a row), and how much it matters
/// (the lowest goes first when the table is too wide).
pub(super) struct Column {
    pub title: String,
    pub cells: Vec<String>,
    pub priority: u8,
    /// Numbers are right-aligned.
    pub right: bool,
}

impl Column {
    fn width(&self) -> usize {
        self.cells
            .iter()
            .map(|c| c.chars().count())
            .chain([self.title.chars().count()])
            .max()
            .unwrap_or(0)
    }
}

/// The columns kept for `width` cells, in their order: the most important
/// ones, one space apart.
fn kept(columns: &[Column], width: u16) -> Vec<usize> {
    let mut keep: Vec<usize> = (0..columns.len()).collect();
    let total = |keep: &[usize]| -> usize {
        keep.iter().map(|&i| columns[i].width()).sum::<usize>() + keep.len().saturating_sub(1)
    };
    while total(&keep) > width as usize && keep.len() > 1 {
        let Some(at) = (0..keep.len()).min_by_key(|&k| (columns[keep[k]].priority, usize::MAX - k))
        else {
            break;
        };
        keep.remove(at);
    }
    keep
}

/// The table's lines: a title line in `head`, then the rows (row `r` in
/// `row_style(r)`), each no wider than `width` unless a single column is.
pub(super) fn lines(
    columns: &[Column],
    width: u16,
    head: Style,
    row_style: impl Fn(usize) -> Style,
) -> Vec<Line<'static>> {
    let keep = kept(columns, width);
    let rows = columns.first().map_or(0, |c| c.cells.len());
    let cell = |i: usize, text: &str| {
        let w = columns[i].width();
        if columns[i].right {
            format!("{text:>w$}")
        } else {
            format!("{text:<w$}")
        }
    };
    let join = |texts: Vec<String>| texts.join(" ").trim_end().to_string();
    let mut out = vec![Line::from(Span::styled(
        join(keep.iter().map(|&i| cell(i, &columns[i].title)).collect()),
        head,
    ))];
    for r in 0..rows {
        let text = join(
            keep.iter()
                .map(|&i| cell(i, &columns[i].cells[r]))
                .collect(),
        );
        out.push(Line::from(Span::styled(text, row_style(r))));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns() -> Vec<Column> {
        let col = |title: &str, cells: &[&str], priority, right| Column {
            title: title.to_string(),
            cells: cells.iter().map(|s| s.to_string()).collect(),
            priority,
            right,
        };
        vec![
            col("engine", &["MCTS", "NEGA"], 9, false),
            col("Elo", &["+64", "-64"], 8, true),
            col("games", &["120", "120"], 5, true),
            col("as O", &["61%", "45%"], 1, true),
        ]
    }

    #[test]
    fn a_narrow_panel_drops_the_least_important_columns_and_nothing_wraps() {
        let text = |w: u16| -> Vec<String> {
            lines(&columns(), w, Style::default(), |_| Style::default())
                .iter()
                .map(|l| l.to_string())
                .collect()
        };
        let wide = text(80);
        assert_eq!(wide[0], "engine Elo games as O");
        assert_eq!(wide[1], "MCTS   +64   120  61%");
        let narrow = text(16);
        assert_eq!(narrow[0], "engine Elo games");
        let narrower = text(10);
        assert_eq!(narrower[0], "engine Elo");
        for w in [10u16, 16, 21, 80] {
            assert!(
                text(w).iter().all(|l| l.chars().count() <= w as usize),
                "{w}"
            );
        }
    }
}
