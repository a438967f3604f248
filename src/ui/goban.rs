//! A Go board as styled text lines: stones on the intersections of a grid
//! drawn with its own lines (`┌┬┐├┼┤└┴┘`), columns A to T without I, row 1
//! at the bottom. Black is `●`, White `○` (told apart without colour);
//! the last move is underlined and bold, the stones it captured leave a
//! `×`, and once the game is over each side's area shows as `▪` (Black)
//! and `▫` (White), the stones marked dead as `•` and `◦`. The drawing takes the footprint of an m,n,k board of
//! the same side in the same style, each intersection at the centre of
//! that board's cell, so the layout and the mouse's cells serve both.

use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::layout::{BoardStyle, Marks, row_label_width};
use super::palette::ColorMode;
use kxo_engine::go::GoPosition;
use kxo_engine::{Cell, Player};

/// GTP's column letters: no I.
const COLUMNS: &[u8; 19] = b"ABCDEFGHJKLMNOPQRST";

/// The grid's own character at row `r`, column `col` of an `n` board.
fn grid(r: u8, col: u8, n: u8) -> &'static str {
    let top = r == 0;
    let bottom = r + 1 == n;
    match (top, bottom, col == 0, col + 1 == n) {
        (true, _, true, _) => "┌",
        (true, _, _, true) => "┐",
        (true, _, _, _) => "┬",
        (_, true, true, _) => "└",
        (_, true, _, true) => "┘",
        (_, true, _, _) => "┴",
        (_, _, true, _) => "├",
        (_, _, _, true) => "┤",
        _ => "┼",
    }
}

/// Black's and White's stone styles.
pub(super) fn stone_style(c: ColorMode, player: Player) -> Style {
    match player {
        Player::O => c.o_style(),
        Player::X => c.x_style(),
    }
}

/// The stone character of a side.
pub(super) fn stone(player: Player) -> &'static str {
    match player {
        Player::O => "●",
        Player::X => "○",
    }
}

/// A stone marked dead: smaller, still filled or hollow.
pub(super) fn dead_stone(player: Player) -> &'static str {
    match player {
        Player::O => "•",
        Player::X => "◦",
    }
}

/// What shows at one intersection.
fn point(
    pos: &GoPosition,
    cell: Cell,
    r: u8,
    col: u8,
    c: ColorMode,
    marks: &Marks<'_>,
    owners: &[Option<Player>],
) -> Span<'static> {
    let n = pos.rules().size();
    let over = pos.outcome().is_over();
    let (text, mut style) = match pos.at(cell) {
        Some(p) if marks.dead.contains(cell.index()) => {
            (dead_stone(p), stone_style(c, p).add_modifier(Modifier::DIM))
        }
        Some(p) => (stone(p), stone_style(c, p)),
        None => match (marks.candidate, owners.get(cell.index()).copied().flatten()) {
            (Some((at, p)), _) if at == cell => {
                (stone(p), stone_style(c, p).add_modifier(Modifier::DIM))
            }
            (_, Some(Player::O)) if over => ("▪", stone_style(c, Player::O)),
            (_, Some(Player::X)) if over => ("▫", stone_style(c, Player::X)),
            _ if pos.last_captures().contains(&cell) => ("×", c.warn()),
            _ => (grid(r, col, n), c.dim()),
        },
    };
    if marks.opening.contains(cell.index()) {
        style = style.add_modifier(Modifier::DIM);
    }
    if marks.last_move == Some(cell) {
        style = style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
    }
    if marks.cursor == Some(cell) {
        style = style.add_modifier(Modifier::REVERSED);
    }
    Span::styled(text, style)
}

/// The Go board's lines, in `style`.
pub(super) fn lines(
    pos: &GoPosition,
    style: BoardStyle,
    c: ColorMode,
    marks: Marks<'_>,
) -> Vec<Line<'static>> {
    let n = pos.rules().size();
    let label_w = row_label_width(style, n as u16) as usize;
    // Each style's spacing: the arm between two intersections and the
    // lines between two rows, as the m,n,k board's cells are spaced.
    let (arm, gap, lead, top) = match style {
        BoardStyle::Full => (3, 1, 2, 2),
        BoardStyle::Large => (7, 3, 4, 3),
        BoardStyle::Compact => (1, 0, 1, 1),
    };
    let label = c.dim();
    let owners = match pos.outcome().is_over() {
        true if marks.dead.is_empty() => pos.board().owners(),
        true => {
            let dead: Vec<Cell> = marks.dead.iter().map(Cell::from_index).collect();
            pos.owners_without(&dead)
        }
        false => Vec::new(),
    };
    let mut out = Vec::new();
    // Column letters over their intersections.
    let mut head = " ".repeat(label_w + lead);
    for (col, &letter) in COLUMNS.iter().take(n as usize).enumerate() {
        head.push(letter as char);
        if col + 1 < n as usize {
            head.push_str(&" ".repeat(arm));
        }
    }
    out.push(Line::from(Span::styled(head, label)));
    for _ in 1..top {
        out.push(Line::from(""));
    }
    let line_style = c.dim();
    for r in 0..n {
        let number = n - r;
        let row_label = match style {
            BoardStyle::Compact => format!("{number:>label_w$}"),
            _ => format!("{number:<label_w$}"),
        };
        let mut spans = vec![Span::styled(row_label, label), Span::raw(" ".repeat(lead))];
        for col in 0..n {
            let cell = Cell::from_row_col(r, col, n);
            spans.push(point(pos, cell, r, col, c, &marks, &owners));
            if col + 1 < n {
                spans.push(Span::styled("─".repeat(arm), line_style));
            }
        }
        out.push(Line::from(spans));
        if r + 1 < n {
            for _ in 0..gap {
                let mut s = " ".repeat(label_w + lead);
                for col in 0..n {
                    s.push('│');
                    if col + 1 < n {
                        s.push_str(&" ".repeat(arm));
                    }
                }
                out.push(Line::from(Span::styled(s, line_style)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::board::cell_rects;
    use super::*;
    use kxo_engine::Rules;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::layout::Rect;
    use ratatui::widgets::Paragraph;

    #[test]
    fn stones_sit_on_the_intersections_the_mouse_cells_cover() {
        for size in [5u8, 9, 13, 19] {
            let rules = Rules::go(size, 15, 0).unwrap();
            for style in [BoardStyle::Full, BoardStyle::Large, BoardStyle::Compact] {
                let (w, h) = super::super::layout::board_size(style, size as u16);
                let mut terminal = Terminal::new(TestBackend::new(w + 2, h + 2)).unwrap();
                for probe in [0usize, size as usize + 1, size as usize * size as usize - 1] {
                    let mut pos = GoPosition::new(rules);
                    pos.play(Cell::from_index(probe)).unwrap();
                    let drawn = lines(&pos, style, ColorMode::None, Marks::default());
                    assert!(
                        drawn.len() as u16 <= h,
                        "{style:?} {size}: {} lines",
                        drawn.len()
                    );
                    assert!(
                        drawn.iter().all(|l| l.width() as u16 <= w),
                        "{style:?} {size}"
                    );
                    terminal
                        .draw(|f| f.render_widget(Paragraph::new(drawn), Rect::new(1, 1, w, h)))
                        .unwrap();
                    let buf = terminal.backend().buffer().clone();
                    for (i, rect) in cell_rects(style, size, 1, 1).iter().enumerate() {
                        let text = super::super::board::rect_text(&buf, *rect);
                        assert_eq!(
                            text.contains('●'),
                            i == probe,
                            "{style:?} {size}: {i} reads {text:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_grid_is_drawn_on_its_lines_and_labelled_as_gtp_writes_it() {
        let pos = GoPosition::new(Rules::go(9, 15, 0).unwrap());
        let text: Vec<String> = lines(&pos, BoardStyle::Full, ColorMode::None, Marks::default())
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.to_string()).collect())
            .collect();
        assert!(
            text[0].contains("A   B   C   D   E   F   G   H   J"),
            "{text:?}"
        );
        assert!(!text[0].contains('I'));
        assert!(
            text[2].starts_with("9") && text[2].contains("┌───┬"),
            "{text:?}"
        );
        assert!(
            text.last()
                .is_some_and(|l| l.starts_with("1") && l.contains("└───┴")),
            "{text:?}"
        );
    }
}
