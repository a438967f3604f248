//! What `solve` answers (its report, as text or JSON) and how it asks a
//! search (`SearchOptions`): shared by the solver's runs and the search
//! beyond it (`solve_big`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::Serialize;

use kxo_engine::solver::ProgressReport;

/// What `solve` answers: the value, the best move and what it cost.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SolveReport {
    pub size: u8,
    pub goal: u8,
    #[serde(skip_serializing_if = "kxo_engine::Rule::is_freestyle")]
    pub rule: kxo_engine::Rule,
    /// "first" (O wins), "second" (X wins) or "draw"; `None` (JSON `null`)
    /// when the search stopped before it settled the position.
    pub value: Option<&'static str>,
    /// Why the search stopped unsettled: "timeout" or "interrupted".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsettled: Option<&'static str>,
    pub best_move: Option<String>,
    /// Plies to the end of the game under best play.
    pub plies: Option<u32>,
    pub nodes: u64,
    /// Milliseconds, to the microsecond.
    pub ms: f64,
    /// The position's moves, for the text report.
    #[serde(skip)]
    pub moves: Vec<String>,
    #[serde(skip)]
    pub to_move: char,
    /// Set on boards above 8x8, where the best move comes from a heuristic
    /// search, not a proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How a solve may run.
pub struct SearchOptions {
    /// The most the transposition table may take.
    pub hash_bytes: usize,
    pub timeout: Option<Duration>,
    /// Raised by Ctrl-C.
    pub stop: Option<Arc<AtomicBool>>,
    /// Called about twice a second during a long search.
    pub progress: Option<ProgressReport>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            hash_bytes: DEFAULT_HASH_MB << 20,
            timeout: None,
            stop: None,
            progress: None,
        }
    }
}

/// The most memory `solve`'s table takes unless told (MB).
pub const DEFAULT_HASH_MB: usize = 1024;

/// The report's moves ("B2,C3" read back as names) and its time in
/// milliseconds to the microsecond: the same for every way `solve` answers.
pub(super) fn moves_and_ms(moves: &str, size: u8, elapsed: Duration) -> (Vec<String>, f64) {
    let names = kxo_engine::Cell::parse_list(moves, size)
        .unwrap_or_default()
        .iter()
        .map(|c| c.name(size))
        .collect();
    (names, (elapsed.as_secs_f64() * 1e6).round() / 1e3)
}

impl SolveReport {
    pub fn to_text(&self) -> String {
        let from = if self.moves.is_empty() {
            "the empty board".to_string()
        } else {
            self.moves.join(", ")
        };
        let plies = self.plies.unwrap_or(0);
        let value = match (self.value, self.unsettled) {
            (Some("first"), _) => format!("the first player (O) wins in {}", plies_text(plies)),
            (Some("second"), _) => format!("the second player (X) wins in {}", plies_text(plies)),
            (Some(_), _) => format!("draw (the board fills in {plies} plies)"),
            (None, Some("interrupted")) => "unsettled: interrupted before the search ended".into(),
            (None, _) if self.note.is_some() => "unsettled".into(),
            (None, _) => "unsettled: the time ran out before the search ended".into(),
        };
        let note = self
            .note
            .as_ref()
            .map(|n| format!("note:      {n}\n"))
            .unwrap_or_default();
        format!(
            "{n}x{n}, {k}, from {from}; {to} to move\n\
             value:     {value}\n\
             best move: {best}\n\
             nodes:     {nodes}\n\
             time:      {ms:.3} ms\n{note}",
            n = self.size,
            k = self.rule.in_a_row(self.goal),
            to = self.to_move,
            best = self.best_move.as_deref().unwrap_or("unknown"),
            nodes = super::thousands(self.nodes),
            ms = self.ms,
        )
    }
}

fn plies_text(plies: u32) -> String {
    match plies {
        1 => "1 ply".into(),
        n => format!("{n} plies"),
    }
}
