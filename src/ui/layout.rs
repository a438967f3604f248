//! Where everything goes for a given terminal size: pure arithmetic, so it
//! is tested without drawing.

use ratatui::layout::Rect;

/// Lines under a full board for the thinking seat (clock bar, info line).
pub const THINKING_LINES: u16 = 2;

/// Below this the screen shows "terminal too small".
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;
/// The tab panel needs at least this much room below or beside the grid;
/// below, it would like a line per game (plus borders and the tab bar).
const TABS_MIN_HEIGHT: u16 = 6;
const TABS_MIN_WIDTH: u16 = 34;
const TAB_CHROME: u16 = 3;
/// Header heights: the logo's rows, or two text lines.
const COMPACT_HEADER: u16 = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// Big cells (7 x 3) with grid lines: the human mode's board.
    Large,
    /// Box-drawing grid lines between cells.
    Full,
    /// One character per cell, no grid lines.
    Compact,
}

/// Width of the row numbers on the left of a board: one digit up to 9x9.
pub fn row_label_width(style: BoardStyle, n: u16) -> u16 {
    match style {
        BoardStyle::Large => 2,
        _ if n >= 10 => 2,
        _ => 1,
    }
}

/// Size of the board drawing (with coordinate labels) for an N x N board.
pub fn board_size(style: BoardStyle, n: u16) -> (u16, u16) {
    let label = row_label_width(style, n);
    match style {
        // Row label, then "│ O " per cell and a closing "│"; column labels
        // on top, then a rule line between and around rows.
        BoardStyle::Full => (4 * n + 1 + label, 2 * n + 2),
        BoardStyle::Large => (8 * n + 1 + label, 4 * n + 2),
        BoardStyle::Compact => (2 * n + label, n + 1),
    }
}

/// Size of one game's box: the board plus borders, wide enough for its
/// titles ("Game-12", "MCTS vs NEGA", the result) and, for full boards, the
/// lines that show a seat thinking.
pub fn box_size(style: BoardStyle, n: u16) -> (u16, u16) {
    let (w, h) = board_size(style, n);
    match style {
        // Room for the thinking seat's clock bar and info line
        // ("MCTS 41k it · B2 62%").
        BoardStyle::Full => (w.max(20) + 2, h + 2 + THINKING_LINES),
        BoardStyle::Large => (w.max(16) + 2, h + 2),
        // Room for "#12 X's turn" and "MCTS/NEGA": words, not a lone letter.
        BoardStyle::Compact => (w.max(11) + 2, h + 2),
    }
}

/// A game's box on the live screen: large boards also get the thinking
/// seat's lines.
pub fn live_box_size(style: BoardStyle, n: u16) -> (u16, u16) {
    let (w, h) = box_size(style, n);
    match style {
        BoardStyle::Large => (w.max(20 + 2), h + THINKING_LINES),
        _ => (w, h),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub header: Rect,
    /// Whether the header has room for the logo.
    pub logo: bool,
    pub grid: Rect,
    pub tabs: Rect,
    pub style: BoardStyle,
    pub columns: u16,
    /// One rect per game shown, in order; fewer than the games when they
    /// do not all fit.
    pub boxes: Vec<Rect>,
}

/// Lays out `games` boards of side `n` in `area`; `None` when the area is
/// too small to use.
pub fn plan(area: Rect, games: usize, n: u16) -> Option<Plan> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let games16 = games.max(1) as u16;
    let logo_h = super::logo::height().max(COMPACT_HEADER);
    // The boards' size comes first: the logo gives way before they shrink.
    // Large boards only where a wide screen holds them all, in up to five
    // columns: a 200x60 terminal shows nine 4x4 games that way.
    for style in [BoardStyle::Large, BoardStyle::Full, BoardStyle::Compact] {
        let most_columns: &[u16] = if style == BoardStyle::Large {
            &[5, 4, 3, 2, 1]
        } else {
            &[3, 2, 1]
        };
        for header_h in [logo_h, COMPACT_HEADER] {
            let (bw, bh) = live_box_size(style, n);
            for &columns in most_columns {
                if columns > games16 {
                    continue;
                }
                let rows = games16.div_ceil(columns);
                let (gw, gh) = (columns * bw, rows * bh);
                let rest = area.height - header_h;
                if gh > rest || gw > area.width {
                    continue;
                }
                let header = Rect::new(area.x, area.y, area.width, header_h);
                let wanted = games16 + TAB_CHROME;
                // Below with a line per game, else beside, else below and short.
                let below = rest - gh >= wanted
                    || (rest - gh >= TABS_MIN_HEIGHT && area.width - gw < TABS_MIN_WIDTH);
                let (grid, tabs) = if below {
                    let grid = Rect::new(area.x, area.y + header_h, area.width, gh);
                    (
                        grid,
                        Rect::new(area.x, grid.bottom(), area.width, rest - gh),
                    )
                } else if area.width - gw >= TABS_MIN_WIDTH {
                    let grid = Rect::new(area.x, area.y + header_h, gw, rest);
                    (grid, Rect::new(grid.right(), grid.y, area.width - gw, rest))
                } else {
                    continue;
                };
                let logo = header_h == logo_h;
                return Some(finish(
                    header, logo, grid, tabs, style, columns, games, bw, bh,
                ));
            }
        }
    }
    // Not everything fits: compact boards, as many rows as leave room for
    // a small tab panel below.
    let style = BoardStyle::Compact;
    let (bw, bh) = box_size(style, n);
    let header = Rect::new(area.x, area.y, area.width, COMPACT_HEADER);
    let rest = area.height - COMPACT_HEADER;
    // As many columns as the width holds: a wide screen shows more games
    // a page (36 at 200x60).
    let columns = (area.width / bw).clamp(1, games16);
    let rows = (rest.saturating_sub(3) / bh).max(1);
    let gh = (rows * bh).min(rest);
    let grid = Rect::new(area.x, header.bottom(), area.width, gh);
    let tabs = Rect::new(area.x, grid.bottom(), area.width, rest - gh);
    let shown = games.min((rows * columns) as usize);
    Some(finish(
        header, false, grid, tabs, style, columns, shown, bw, bh,
    ))
}

#[allow(clippy::too_many_arguments)]
fn finish(
    header: Rect,
    logo: bool,
    grid: Rect,
    tabs: Rect,
    style: BoardStyle,
    columns: u16,
    shown: usize,
    bw: u16,
    bh: u16,
) -> Plan {
    // Centre the block of boxes in the grid area.
    let used_w = columns.min(shown.max(1) as u16) * bw;
    let x0 = grid.x + (grid.width.saturating_sub(used_w)) / 2;
    let boxes = (0..shown)
        .map(|i| {
            let (r, c) = (i as u16 / columns, i as u16 % columns);
            Rect::new(x0 + c * bw, grid.y + r * bh, bw, bh)
        })
        .filter(|b| b.bottom() <= grid.bottom() && b.right() <= grid.right())
        .collect();
    Plan {
        header,
        logo,
        grid,
        tabs,
        style,
        columns,
        boxes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_for(w: u16, h: u16, games: usize) -> Option<Plan> {
        plan(Rect::new(0, 0, w, h), games, 4)
    }

    fn inside(outer: Rect, inner: Rect) -> bool {
        inner.x >= outer.x
            && inner.y >= outer.y
            && inner.right() <= outer.right()
            && inner.bottom() <= outer.bottom()
    }

    #[test]
    fn large_terminal_gets_logo_full_boards_and_tabs_beside() {
        // Below the grid there would be room for only 5 of 9 record lines.
        let p = plan_for(120, 50, 9).unwrap();
        assert!(p.logo);
        assert_eq!(p.style, BoardStyle::Full);
        assert_eq!(p.columns, 3);
        assert_eq!(p.boxes.len(), 9);
        assert!(p.tabs.x >= p.grid.right());
        assert!(p.tabs.width >= 50);
    }

    #[test]
    fn tall_terminal_puts_tabs_below_with_a_line_per_game() {
        let p = plan_for(100, 60, 9).unwrap();
        assert!(p.logo);
        assert_eq!(p.style, BoardStyle::Full);
        assert_eq!(p.tabs.x, 0);
        assert!(p.tabs.y >= p.grid.bottom());
        assert!(p.tabs.height >= 12);
    }

    #[test]
    fn eighty_by_twenty_four_fits_all_nine_games_with_tabs_beside() {
        let p = plan_for(80, 24, 9).unwrap();
        assert_eq!(p.boxes.len(), 9);
        assert_eq!(p.style, BoardStyle::Compact);
        assert!(p.tabs.x >= p.grid.right());
    }

    #[test]
    fn smallest_size_shows_some_games_and_too_small_shows_none() {
        let p = plan_for(40, 12, 9).unwrap();
        assert!(!p.boxes.is_empty() && p.boxes.len() < 9);
        assert!(p.tabs.height >= 1);
        assert!(plan_for(39, 12, 9).is_none());
        assert!(plan_for(40, 11, 9).is_none());
    }

    #[test]
    fn nothing_overlaps_or_leaves_the_screen_at_any_size() {
        for n in [3u16, 4, 8] {
            for w in (40..=200).step_by(7) {
                for h in (12..=70).step_by(3) {
                    let area = Rect::new(0, 0, w, h);
                    for games in [1, 4, 9, 16] {
                        let p = plan(area, games, n).unwrap();
                        for r in [p.header, p.grid, p.tabs] {
                            assert!(inside(area, r), "{w}x{h} n={n}: {r:?}");
                        }
                        assert!(!p.header.intersects(p.grid) && !p.grid.intersects(p.tabs));
                        for (i, b) in p.boxes.iter().enumerate() {
                            assert!(
                                inside(p.grid, *b),
                                "{w}x{h} n={n} games={games}: {b:?} in {:?}",
                                p.grid
                            );
                            for other in &p.boxes[i + 1..] {
                                assert!(!b.intersects(*other));
                            }
                        }
                    }
                }
            }
        }
    }
}
