//! A board as styled text lines, with column letters and row numbers, and
//! where each cell lands on screen (for mouse clicks).

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

use super::layout::{BoardStyle, Marks, row_label_width};
use super::palette::ColorMode;
use kxo_engine::{AnyPosition, Cell, Player, Position};

fn cell_spans(
    pos: &Position,
    cell: Cell,
    c: ColorMode,
    marks: &Marks,
    number: Option<usize>,
    width: usize,
) -> Vec<Span<'static>> {
    let faint = |style: Style| {
        style
            .remove_modifier(Modifier::BOLD)
            .add_modifier(Modifier::DIM)
    };
    let (text, style) = match (pos.at(cell), marks.candidate) {
        (Some(Player::O), _) => ("O", c.o_style()),
        (Some(Player::X), _) => ("X", c.x_style()),
        // The candidate: the mover's letter in lower case, dimmed.
        (None, Some((at, Player::O))) if at == cell => ("o", faint(c.o_style())),
        (None, Some((at, Player::X))) if at == cell => ("x", faint(c.x_style())),
        (None, _) if width == 1 => ("·", c.dim()),
        (None, _) => (" ", Style::default()),
    };
    let style = if marks.opening.contains(cell.index()) {
        faint(style)
    } else {
        style
    };
    let on_line = marks.winning_line.contains(cell.index());
    // Reverse video marks the winning line, underline the last move: each
    // shows with or without colour, and they never look alike.
    let mark_style = if on_line {
        style.add_modifier(Modifier::REVERSED | Modifier::BOLD)
    } else if marks.last_move == Some(cell) {
        style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
    } else {
        style
    };
    // The whole cell is reversed on the winning line.
    let pad_style = if on_line {
        Style::default().add_modifier(Modifier::REVERSED)
    } else {
        Style::default()
    };
    if width == 1 {
        // One character a cell: the cursor is reverse video, the last move
        // bold and underlined, so they never look alike.
        let s = if marks.cursor == Some(cell) {
            style.add_modifier(Modifier::REVERSED)
        } else if on_line {
            style.add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else if marks.last_move == Some(cell) {
            style.add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            style
        };
        return vec![Span::styled(text, s)];
    }
    let side = (width - 1) / 2;
    let outer = " ".repeat(side - 1);
    // A numbered stone: its move number in its side's style across the
    // three middle columns (the cursor on it in reverse video).
    if let (Some(number), Some(_)) = (number, pos.at(cell)) {
        let style = match marks.cursor == Some(cell) {
            true => mark_style.add_modifier(Modifier::REVERSED),
            false => mark_style,
        };
        return vec![
            Span::styled(outer.clone(), pad_style),
            Span::styled(format!("{number:^3}"), style),
            Span::styled(outer, pad_style),
        ];
    }
    // The cursor is a pair of brackets around the mark: visible in any mode.
    let (open, close) = if marks.cursor == Some(cell) {
        ("[", "]")
    } else {
        (" ", " ")
    };
    vec![
        Span::styled(outer.clone(), pad_style),
        Span::styled(open, pad_style.add_modifier(Modifier::BOLD)),
        Span::styled(text, mark_style),
        Span::styled(close, pad_style.add_modifier(Modifier::BOLD)),
        Span::styled(outer, pad_style),
    ]
}

fn rule(
    n: u8,
    cell_w: usize,
    label_w: usize,
    (left, mid, right): (&str, &str, &str),
) -> Line<'static> {
    let mut s = " ".repeat(label_w);
    s.push_str(left);
    for i in 0..n {
        s.push_str(&"─".repeat(cell_w));
        s.push_str(if i + 1 < n { mid } else { right });
    }
    Line::from(s)
}

/// A board of either family, as lines: an m,n,k board's cells between
/// lines, or Go's stones on them ([`super::goban`]).
pub(super) fn lines(
    pos: &AnyPosition,
    style: BoardStyle,
    c: ColorMode,
    marks: Marks<'_>,
) -> Vec<Line<'static>> {
    match pos {
        AnyPosition::Mnk(p) => mnk_lines(p, style, c, marks),
        AnyPosition::Go(g) => super::goban::lines(g, style, c, marks),
    }
}

fn mnk_lines(
    pos: &Position,
    style: BoardStyle,
    c: ColorMode,
    marks: Marks<'_>,
) -> Vec<Line<'static>> {
    let n = pos.rules().size();
    // Each cell's move number, from 1 (the last move there, if numbered).
    let mut numbers = vec![None; n as usize * n as usize];
    for (i, cell) in marks.numbers.unwrap_or_default().iter().enumerate() {
        if let Some(slot) = numbers.get_mut(cell.index()) {
            *slot = Some(i + 1);
        }
    }
    let label = c.dim();
    let letters = (0..n).map(|i| (b'A' + i) as char);
    let mut out = Vec::new();
    match style {
        BoardStyle::Full | BoardStyle::Large => {
            let cell_w = if style == BoardStyle::Full { 3 } else { 7 };
            let cell_h = if style == BoardStyle::Full { 1 } else { 3 };
            let label_w = row_label_width(style, n as u16) as usize;
            let pad = " ".repeat(cell_w / 2);
            let head: String = letters.map(|l| format!("{pad}{l}{pad} ")).collect();
            out.push(Line::from(Span::styled(
                format!("{}{head}", " ".repeat(label_w + 1)),
                label,
            )));
            out.push(rule(n, cell_w, label_w, ("┌", "┬", "┐")));
            for r in 0..n {
                for line in 0..cell_h {
                    let middle = line == cell_h / 2;
                    let row_label = if middle {
                        format!("{:<label_w$}", row_number(pos, r))
                    } else {
                        " ".repeat(label_w)
                    };
                    let mut spans = vec![Span::styled(row_label, label), Span::raw("│")];
                    for col in 0..n {
                        let cell = Cell::from_row_col(r, col, n);
                        if middle {
                            spans.extend(cell_spans(
                                pos,
                                cell,
                                c,
                                &marks,
                                numbers[cell.index()],
                                cell_w,
                            ));
                        } else {
                            let on_line = marks.winning_line.contains(cell.index());
                            let style = if on_line {
                                Style::default().add_modifier(Modifier::REVERSED)
                            } else {
                                Style::default()
                            };
                            spans.push(Span::styled(" ".repeat(cell_w), style));
                        }
                        spans.push(Span::raw("│"));
                    }
                    out.push(Line::from(spans));
                }
                let corners = if r + 1 < n {
                    ("├", "┼", "┤")
                } else {
                    ("└", "┴", "┘")
                };
                out.push(rule(n, cell_w, label_w, corners));
            }
        }
        BoardStyle::Compact => {
            let label_w = row_label_width(style, n as u16) as usize;
            let head: String = letters.map(|l| format!(" {l}")).collect();
            out.push(Line::from(Span::styled(
                format!("{}{head}", " ".repeat(label_w)),
                label,
            )));
            for r in 0..n {
                let mut spans = vec![Span::styled(
                    format!("{:>label_w$}", row_number(pos, r)),
                    label,
                )];
                for col in 0..n {
                    spans.push(Span::raw(" "));
                    spans.extend(cell_spans(
                        pos,
                        Cell::from_row_col(r, col, n),
                        c,
                        &marks,
                        None,
                        1,
                    ));
                }
                out.push(Line::from(spans));
            }
        }
    }
    out
}

/// The number of the board's row `r` (from the top) as its cells are
/// named: from the bottom on the Gomoku boards.
fn row_number(pos: &Position, r: u8) -> u8 {
    let rules = pos.rules();
    match rules.rows_from_bottom() {
        true => rules.size() - r,
        false => r + 1,
    }
}

/// The screen rectangle of each cell's content when the board is drawn
/// with its top-left corner at (`x`, `y`), cell by cell in index order.
pub(super) fn cell_rects(style: BoardStyle, n: u8, x: u16, y: u16) -> Vec<Rect> {
    let n16 = n as u16;
    let left = x + row_label_width(style, n16);
    (0..n16 * n16)
        .map(|i| {
            let (r, c) = (i / n16, i % n16);
            match style {
                BoardStyle::Full => Rect::new(left + 1 + 4 * c, y + 2 + 2 * r, 3, 1),
                BoardStyle::Large => Rect::new(left + 1 + 8 * c, y + 2 + 4 * r, 7, 3),
                BoardStyle::Compact => Rect::new(left + 2 * c, y + 1 + r, 2, 1),
            }
        })
        .collect()
}

/// The text a test reads inside `rect` of a drawn buffer, row by row.
#[cfg(test)]
pub(super) fn rect_text(buf: &ratatui::buffer::Buffer, rect: Rect) -> String {
    (rect.y..rect.bottom())
        .flat_map(|y| (rect.x..rect.right()).map(move |x| (x, y)))
        .map(|(x, y)| buf[(x, y)].symbol())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kxo_engine::Rules;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::widgets::Paragraph;

    #[test]
    fn cell_rects_land_on_the_drawn_marks() {
        for size in [3u8, 4, 8, 9, 15] {
            let rules = Rules::new(size, 3).unwrap();
            // One O at a time, on every cell: only that cell's rect shows it.
            for style in [BoardStyle::Full, BoardStyle::Large, BoardStyle::Compact] {
                let (w, h) = super::super::layout::board_size(style, size as u16);
                let mut terminal = Terminal::new(TestBackend::new(w + 3, h + 2)).unwrap();
                for probe in 0..rules.cells() {
                    let mut pos = Position::new(rules);
                    pos.play(Cell::new(probe)).unwrap();
                    let lines = mnk_lines(&pos, style, ColorMode::None, Marks::default());
                    terminal
                        .draw(|f| f.render_widget(Paragraph::new(lines), Rect::new(1, 1, w, h)))
                        .unwrap();
                    let buf = terminal.backend().buffer().clone();
                    for (i, rect) in cell_rects(style, size, 1, 1).iter().enumerate() {
                        let text = rect_text(&buf, *rect);
                        let want_o = i == probe as usize;
                        assert_eq!(
                            text.contains('O'),
                            want_o,
                            "{style:?} {size}: cell {i} reads {text:?}"
                        );
                        assert!(
                            !text.contains('│') && !text.contains('─'),
                            "{style:?}: {text:?}"
                        );
                    }
                }
            }
        }
    }

    /// The drawn cell of `cell` and its middle character's style.
    fn drawn(lines: &[Line<'static>], rules: Rules, cell: Cell) -> (String, Style) {
        let (w, h) = super::super::layout::board_size(BoardStyle::Full, rules.size() as u16);
        let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
        let para = Paragraph::new(lines.to_vec());
        terminal
            .draw(|f| f.render_widget(para, Rect::new(0, 0, w, h)))
            .unwrap();
        let buf = terminal.backend().buffer().clone();
        let rect = cell_rects(BoardStyle::Full, rules.size(), 0, 0)[cell.index()];
        let middle = &buf[(rect.x + 1, rect.y)];
        (rect_text(&buf, rect), middle.style())
    }

    #[test]
    fn stones_show_their_move_numbers_and_the_last_move_is_not_the_winning_line() {
        let rules = Rules::new(15, 5).unwrap();
        let moves = Cell::parse_list("H8,H9,I8,I9,J8,J9,K8,K9,L8", 15).unwrap();
        let mut pos = Position::new(rules);
        for &m in &moves[..8] {
            pos.play(m).unwrap();
        }
        let marks = Marks {
            last_move: Some(moves[7]),
            numbers: Some(&moves[..8]),
            ..Marks::default()
        };
        let lines = mnk_lines(&pos, BoardStyle::Full, ColorMode::None, marks);
        assert_eq!(drawn(&lines, rules, moves[0]).0, " 1 ");
        let (text, style) = drawn(&lines, rules, moves[7]);
        assert_eq!(text, " 8 ");
        // The last move underlined, not reversed.
        assert!(
            style.add_modifier.contains(Modifier::UNDERLINED),
            "{style:?}"
        );
        assert!(
            !style.add_modifier.contains(Modifier::REVERSED),
            "{style:?}"
        );
        // Numbers off: the letters again.
        let plain = Marks {
            last_move: Some(moves[7]),
            ..Marks::default()
        };
        let lines = mnk_lines(&pos, BoardStyle::Full, ColorMode::None, plain);
        assert_eq!(drawn(&lines, rules, moves[0]).0, " O ");
        // The winning line reversed, the last move on it too.
        pos.play(moves[8]).unwrap();
        let won = Marks {
            last_move: Some(moves[8]),
            winning_line: pos.winning_line().unwrap_or_default(),
            numbers: Some(&moves),
            ..Marks::default()
        };
        let lines = mnk_lines(&pos, BoardStyle::Full, ColorMode::None, won);
        let (text, style) = drawn(&lines, rules, moves[2]);
        assert_eq!(text, " 3 ");
        assert!(style.add_modifier.contains(Modifier::REVERSED), "{style:?}");
        // A stone off the line is neither.
        let (_, style) = drawn(&lines, rules, moves[1]);
        assert!(
            !style.add_modifier.contains(Modifier::REVERSED),
            "{style:?}"
        );
    }
}
