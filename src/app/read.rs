//! What the other layers read of the live state. Its fields are private:
//! changes come only through `App::update`, and these return them to read.

use std::time::Instant;

use super::game::GameView;
use super::human::HumanState;
use super::leaderboard::Leaderboard;
use super::load::LoadSnapshot;
use super::rate::MoveRate;
use super::setup::Setup;
use super::{App, EngineWork, LearnerFigures, LiveConfig, Tab, Totals, TournamentProgress};
use kxo_engine::EngineKind;

impl App {
    /// What the command line asked for.
    pub fn config(&self) -> &LiveConfig {
        &self.config
    }
    /// The games on screen, in order.
    pub fn games(&self) -> &[GameView] {
        &self.games
    }
    /// The tab the panel shows.
    pub fn tab(&self) -> Tab {
        self.tab
    }
    /// Lines the tab panel is scrolled down.
    pub fn tab_scroll(&self) -> u16 {
        self.tab_scroll
    }
    pub fn paused(&self) -> bool {
        self.paused
    }
    /// The help overlay shows.
    pub fn help(&self) -> bool {
        self.help
    }
    /// The screen closes.
    pub fn quit(&self) -> bool {
        self.quit
    }
    pub fn started(&self) -> Instant {
        self.started
    }
    /// The time of the last message (a frame's is the one drawn).
    pub fn now(&self) -> Instant {
        self.now
    }
    pub fn totals(&self) -> &Totals {
        &self.totals
    }
    /// Every finished game of the live screen, per engine and side.
    pub fn leaderboard(&self) -> &Leaderboard {
        &self.leaderboard
    }
    /// The selected game: highlighted, and the one zoomed.
    pub fn selected(&self) -> usize {
        self.selected
    }
    /// The page of games shown when they do not all fit (from 0).
    pub fn page(&self) -> usize {
        self.page
    }
    /// The selected game fills the grid.
    pub fn zoomed(&self) -> bool {
        self.zoomed
    }
    pub fn rate(&self) -> &MoveRate {
        &self.rate
    }
    pub fn load(&self) -> &LoadSnapshot {
        &self.load
    }
    /// What the learner's table holds, as the seats last said.
    pub fn learner(&self) -> Option<LearnerFigures> {
        self.learner
    }
    /// The learner's accuracy as last measured: (share kept, games learned).
    pub fn learner_accuracy(&self) -> Option<(f64, u64)> {
        self.learner_accuracy
    }
    /// Per engine kind, in `EngineKind::ALL` order.
    pub fn engine_work(&self) -> &[EngineWork; EngineKind::COUNT] {
        &self.engine_work
    }
    /// Why the screen cannot go on, if it cannot.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
    /// Whether the last frame could not be drawn.
    pub fn cannot_draw(&self) -> bool {
        self.cannot_draw
    }
    /// Human mode's state; `None` when only engines play.
    pub fn human(&self) -> Option<&HumanState> {
        self.human.as_ref()
    }
    /// Human mode's start screen, while it shows.
    pub fn setup(&self) -> Option<&Setup> {
        self.setup.as_ref()
    }
    /// The tournament's progress, when the screen shows one.
    pub fn tournament(&self) -> Option<&TournamentProgress> {
        self.tournament.as_ref()
    }
}
