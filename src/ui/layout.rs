//! Where everything goes for a given terminal size: pure arithmetic, so it
//! is tested without drawing.

use ratatui::layout::Rect;

use kxo_engine::{Bits, Cell, Player};

/// Lines under a full board for the thinking seat (clock bar, info line).
pub const THINKING_LINES: u16 = 2;

/// Below this the screen shows "terminal too small".
pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 12;
/// The tab panel needs at least this much room below or beside the grid;
/// below, it would like a line per game (plus borders and the tab bar).
const TABS_MIN_HEIGHT: u16 = 6;
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
    pub columns: u16,
    /// One rect per game shown, in order; fewer than the games when they
    /// do not all fit. The boxes fill the grid: each game draws its board
    /// as large as its box allows.
    pub boxes: Vec<Rect>,
    /// The largest board side (of those asked about) whose board fits a
    /// box: the show plays only those.
    pub fits: u8,
}

/// The tab panel beside the grid from this width on, at least this wide
/// (the Load tab's summary lines whole).
const PANEL_BESIDE_FROM: u16 = 100;
const PANEL_MIN_WIDTH: u16 = 40;

/// The smallest box that shows a board of side `n`: its compact drawing
/// and the borders.
pub fn min_box(n: u16) -> (u16, u16) {
    box_size(BoardStyle::Compact, n)
}

/// The smallest terminal that shows one box of the smallest of the boards
/// `sizes` whole, under a one-line header: a board cut short would hide
/// its cells.
pub fn min_size(sizes: &[u8]) -> (u16, u16) {
    let smallest = sizes.iter().copied().min().unwrap_or(4) as u16;
    let (w, h) = min_box(smallest);
    (MIN_WIDTH.max(w), MIN_HEIGHT.max(COMPACT_HEADER + h))
}

/// The largest style of board `n` that fits `inner` (a box without its
/// borders) with `spare` lines left below it.
pub fn style_for(inner: (u16, u16), n: u16, spare: u16) -> Option<BoardStyle> {
    [BoardStyle::Large, BoardStyle::Full, BoardStyle::Compact]
        .into_iter()
        .find(|&style| {
            let (w, h) = board_size(style, n);
            w <= inner.0 && h + spare <= inner.1
        })
}

/// Lays out `games` boxes in `area` for boards of the sides `sizes` (one
/// side for a uniform screen; the show's mix otherwise): the header, the
/// tab panel beside the grid when the screen is wide or below it, and the
/// boxes filling the grid. `None` when the area is too small to use.
pub fn plan(area: Rect, games: usize, sizes: &[u8]) -> Option<Plan> {
    let (min_width, min_height) = min_size(sizes);
    if area.width < min_width || area.height < min_height {
        return None;
    }
    let smallest = sizes.iter().copied().min().unwrap_or(4) as u16;
    let logo_h = super::logo::height().max(COMPACT_HEADER);
    let logo = area.height >= 30 && area.width >= 80;
    let header_h = if logo { logo_h } else { COMPACT_HEADER };
    let header = Rect::new(area.x, area.y, area.width, header_h);
    let rest = Rect::new(
        area.x,
        area.y + header_h,
        area.width,
        area.height - header_h,
    );
    let (grid, tabs) = if area.width >= PANEL_BESIDE_FROM {
        let panel = (area.width * 32 / 100).clamp(PANEL_MIN_WIDTH, 60);
        let grid = Rect::new(rest.x, rest.y, rest.width - panel, rest.height);
        (grid, Rect::new(grid.right(), rest.y, panel, rest.height))
    } else {
        let min = min_box(smallest);
        // As many rows of the smallest boxes as leave the panel its lines.
        let panel = (rest.height / 3).clamp(TABS_MIN_HEIGHT, 12);
        let grid_h = rest
            .height
            .saturating_sub(panel)
            .max(min.1.min(rest.height));
        let grid = Rect::new(rest.x, rest.y, rest.width, grid_h);
        (
            grid,
            Rect::new(rest.x, grid.bottom(), rest.width, rest.height - grid_h),
        )
    };
    let games16 = games.max(1) as u16;
    let (min_w, min_h) = min_box(smallest);
    // The arrangement whose boxes show the largest board, then the largest
    // boxes (in cells, a character twice as tall as wide).
    let fits_in = |w: u16, h: u16| {
        sizes
            .iter()
            .copied()
            .filter(|&n| {
                let (bw, bh) = min_box(n as u16);
                bw <= w && bh <= h
            })
            .max()
    };
    let best = (1..=games16)
        .filter_map(|columns| {
            let rows = games16.div_ceil(columns);
            let (w, h) = (grid.width / columns, grid.height / rows);
            (w >= min_w && h >= min_h).then(|| {
                let fits = fits_in(w, h).unwrap_or(0);
                let empty = columns * rows - games16;
                (
                    fits,
                    (w / 2).min(h),
                    std::cmp::Reverse(empty),
                    columns,
                    w,
                    h,
                )
            })
        })
        .max_by_key(|&(fits, side, empty, ..)| (fits, side, empty));
    let (columns, bw, bh, shown) = match best {
        Some((_, _, _, columns, w, h)) => (columns, w, h, games),
        None => {
            // Not all fit: pages of as many of the smallest boxes as fit.
            // The boxes share out the grid's height as well as its width:
            // the lines left over show bigger boards.
            let columns = (grid.width / min_w).clamp(1, games16);
            let rows = (grid.height / min_h).max(1);
            let shown = games.min((columns * rows) as usize);
            let height = (grid.height / rows).max(min_h.min(grid.height));
            (columns, grid.width / columns, height, shown)
        }
    };
    let fits = fits_in(bw, bh).unwrap_or(smallest as u8);
    let boxes = (0..shown)
        .map(|i| {
            let (r, c) = (i as u16 / columns, i as u16 % columns);
            Rect::new(grid.x + c * bw, grid.y + r * bh, bw, bh)
        })
        .filter(|b| b.bottom() <= grid.bottom() && b.right() <= grid.right())
        .collect();
    Some(Plan {
        header,
        logo,
        grid,
        tabs,
        columns,
        boxes,
        fits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_for(w: u16, h: u16, games: usize) -> Option<Plan> {
        plan(Rect::new(0, 0, w, h), games, &[4])
    }

    fn inside(outer: Rect, inner: Rect) -> bool {
        inner.x >= outer.x
            && inner.y >= outer.y
            && inner.right() <= outer.right()
            && inner.bottom() <= outer.bottom()
    }

    /// The share of the screen the boxes and the panel cover.
    fn coverage(p: &Plan, area: Rect) -> f64 {
        let boxes: u32 = p.boxes.iter().map(|b| b.area()).sum();
        (boxes + p.tabs.area()) as f64 / area.area() as f64
    }

    #[test]
    fn wide_terminals_put_the_panel_beside_boxes_that_fill_the_rest() {
        for (w, h) in [(120, 40), (200, 60)] {
            let area = Rect::new(0, 0, w, h);
            let p = plan(area, 9, &[4, 5, 6, 7, 15]).unwrap();
            assert!(p.logo);
            assert_eq!(p.boxes.len(), 9);
            assert!(p.tabs.x >= p.grid.right(), "{w}x{h}");
            assert!(p.tabs.height >= h - 10, "{w}x{h}");
            assert!(
                coverage(&p, area) >= 0.70,
                "{w}x{h}: {}",
                coverage(&p, area)
            );
        }
        // A wide screen shows Gomoku; 120x40 the boards up to 7x7.
        assert_eq!(
            plan(Rect::new(0, 0, 200, 60), 9, &[4, 7, 15]).unwrap().fits,
            15
        );
        assert_eq!(
            plan(Rect::new(0, 0, 120, 40), 9, &[4, 7, 15]).unwrap().fits,
            7
        );
    }

    #[test]
    fn eighty_by_twenty_four_fits_all_nine_games() {
        let p = plan_for(80, 24, 9).unwrap();
        assert_eq!(p.boxes.len(), 9);
        assert!(p.tabs.height >= 4);
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
    fn pages_of_boxes_share_out_the_grid_height() {
        // The show's nine games at 60x20 do not all fit: a page of four
        // boxes, one row of them, as tall as the grid, so 6x6 boards fit
        // (boxes of the smallest height left five lines blank and fitted
        // 4x4 only).
        let p = plan(Rect::new(0, 0, 60, 20), 9, &[4, 5, 6, 7, 15]).unwrap();
        assert!(p.boxes.len() < 9);
        assert!(p.boxes.iter().all(|b| b.height == p.grid.height));
        assert_eq!(p.fits, 6);
    }

    #[test]
    fn the_largest_style_that_fits_a_box_is_chosen() {
        assert_eq!(style_for((40, 20), 4, 2), Some(BoardStyle::Large));
        assert_eq!(style_for((20, 12), 4, 2), Some(BoardStyle::Full));
        assert_eq!(style_for((12, 6), 4, 0), Some(BoardStyle::Compact));
        assert_eq!(style_for((8, 6), 4, 0), None);
    }

    #[test]
    fn nothing_overlaps_or_leaves_the_screen_at_any_size() {
        for sizes in [&[3u8][..], &[4], &[8], &[4, 5, 6, 7, 15]] {
            for w in (40..=200).step_by(7) {
                for h in (12..=70).step_by(3) {
                    let area = Rect::new(0, 0, w, h);
                    let (min_w, min_h) = min_size(sizes);
                    for games in [1, 4, 9, 16] {
                        // None exactly below the size a whole box needs.
                        let Some(p) = plan(area, games, sizes) else {
                            assert!(w < min_w || h < min_h, "{w}x{h} {sizes:?}: no plan");
                            continue;
                        };
                        for r in [p.header, p.grid, p.tabs] {
                            assert!(inside(area, r), "{w}x{h} {sizes:?}: {r:?}");
                        }
                        assert!(!p.header.intersects(p.grid) && !p.grid.intersects(p.tabs));
                        assert!(!p.boxes.is_empty(), "{w}x{h} {sizes:?} {games}");
                        for (i, b) in p.boxes.iter().enumerate() {
                            assert!(inside(p.grid, *b), "{w}x{h} {sizes:?} {games}: {b:?}");
                            for other in &p.boxes[i + 1..] {
                                assert!(!b.intersects(*other));
                            }
                            let (mw, mh) = min_box(p.fits as u16);
                            let room = p.grid.width >= mw && p.grid.height >= mh;
                            assert!(!room || (b.width >= mw && b.height >= mh), "{w}x{h}: {b:?}");
                        }
                    }
                }
            }
        }
    }
}

/// What a board shows besides its stones: the last move, the cursor, the
/// winning line, a thinking seat's candidate, the opening.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Marks<'a> {
    pub last_move: Option<Cell>,
    /// The game's moves, in order, when each stone shows its move number
    /// (human mode's `#`; wide cells only: a one-character cell keeps its
    /// letter).
    pub numbers: Option<&'a [Cell]>,
    /// The person's cursor, in human mode.
    pub cursor: Option<Cell>,
    /// The cells of the winning line, once the game is won.
    pub winning_line: Bits,
    /// The move a thinking seat is considering, and its side: drawn faintly.
    pub candidate: Option<(Cell, Player)>,
    /// The opening's stones, placed before the engines played: dimmer
    /// than the played ones.
    pub opening: Bits,
    /// Go: the stones marked dead at the end.
    pub dead: Bits,
}
