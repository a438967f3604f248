//! The state of the live screen, and the only place it changes.
//!
//! The shape is The Elm Architecture. Every change is a [`Message`]: the
//! person's input (the input layer, `crate::input`, turns terminal events
//! into [`Action`]s through the key map), a seat's move or progress, a
//! restart, a load sample, the renderer's measurements. [`App::update`]
//! applies one and returns the [`Effect`]s the tasks must carry out; it is
//! the only way in, and the fields are private (read them through the
//! methods of `read.rs`). The UI draws from the state without changing it.
//! This module imports no terminal, UI or scheduler types, so it is tested
//! as plain data.

pub mod action;
mod config;
mod game;
pub mod human;
pub mod human_clock;
pub mod keymap;
pub(crate) mod leaderboard;
pub mod load;
mod marking;
mod message;
mod rate;
mod read;
pub mod review;
mod save;
pub mod setup;
pub(crate) mod show;
mod start;
mod stats;

pub use start::TournamentProgress;
use start::{Start, played_game, start_position};

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

pub use action::{Action, Direction, Effect};
pub use game::{GameStatus, GameView, Loss, Thinking};
use load::LoadSnapshot;
pub use message::Message;
use rate::MoveRate;

use crate::engines::SpecEngine;
use kxo_engine::{Cell, Outcome, Player};
use kxo_engine::{EngineKind, Limit};

/// How long a finished game stays on screen before it restarts, unless
/// `--hold` says otherwise.
pub const DEFAULT_HOLD: Duration = Duration::from_millis(2_000);
/// The live screen's per-move clock unless told otherwise: with nine games
/// sharing one core, a move every second or so.
pub const DEFAULT_THINK_MS: u64 = 100;
/// The first moves of the games are spread over this much time, so the
/// games do not start, finish and restart in lock-step.
pub const STAGGER: Duration = Duration::from_millis(900);

/// Colours on screen: a display preference, chosen from the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMode {
    TrueColor,
    Indexed256,
    /// No colour at all (NO_COLOR, or a dumb terminal): highlights use
    /// bold and reverse only.
    None,
}

pub use config::LiveConfig;

/// The tabs below the boards, in their order: each knows its place and
/// its titles, and `ui` draws each (a match that a new tab must join).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Records,
    Load,
    Leaderboard,
}

impl Tab {
    pub const ALL: [Tab; 3] = [Tab::Records, Tab::Load, Tab::Leaderboard];

    /// Its place in [`Tab::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The tab after this one (Tab cycles through them).
    pub fn next(self) -> Tab {
        Tab::ALL[(self.index() + 1) % Tab::ALL.len()]
    }

    /// Its title, longest first: what fits the bar is shown.
    pub fn titles(self) -> [&'static str; 4] {
        match self {
            Tab::Records => ["Records [Q]", "Records Q", "Rec Q", "Q"],
            Tab::Load => ["Load avg [W]", "Load W", "Load W", "W"],
            Tab::Leaderboard => ["Leaderboard [E]", "Leaders E", "Top E", "E"],
        }
    }
}

/// What the learning player's table holds, for the Load tab: sent by the
/// seat that taught it a game ([`Message::Learned`]), so that a recorded
/// run replays it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LearnerFigures {
    pub games: u64,
    pub entries: u64,
    /// "positions", "weights", …
    pub holds: &'static str,
    /// Above 8x8 (measured against the yardstick, not the solver).
    pub big: bool,
    /// Its accuracy when last saved.
    pub saved_accuracy: Option<f32>,
}

impl LearnerFigures {
    pub fn of(table: &kxo_engine::learner::ValueTable) -> LearnerFigures {
        LearnerFigures {
            games: table.games,
            entries: table.len() as u64,
            holds: table.what_it_holds(),
            big: !table.rules().is_small(),
            saved_accuracy: table.accuracy,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub finished: u64,
    pub o_wins: u64,
    pub x_wins: u64,
    pub draws: u64,
    pub moves: u64,
    /// What the finished games were like: their lengths, and how many
    /// repeated a recent one move for move.
    pub story: stats::Story,
}

/// What one engine kind did on the live screen, summed over its seats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EngineWork {
    /// CPU time its seats thought.
    pub cpu: Duration,
    /// Iterations or nodes searched.
    pub work: u64,
    pub moves: u64,
}

pub struct App {
    config: LiveConfig,
    games: Vec<GameView>,
    tab: Tab,
    /// Lines the tab panel is scrolled down, at most `scroll_room`.
    tab_scroll: u16,
    /// How far the current tab can scroll (the screen measures it).
    scroll_room: u16,
    paused: bool,
    help: bool,
    quit: bool,
    started: Instant,
    /// The wall clock at the last update or frame (for rates).
    now: Instant,
    totals: Totals,
    /// Every finished game of the live screen, per engine and side.
    leaderboard: leaderboard::Leaderboard,
    /// The selected game (live screen): highlighted, and the one zoomed.
    selected: usize,
    /// The page of games shown when they do not all fit (from 0).
    page: usize,
    /// The selected game fills the grid, with its record and search.
    zoomed: bool,
    rate: MoveRate,
    load: LoadSnapshot,
    /// The learning player's accuracy on the fixed sample, measured now
    /// and then during the run: (share kept, games learned then).
    learner_accuracy: Option<(f64, u64)>,
    /// What the learner's table holds, as the seats last said (the state
    /// never reads the table itself after it starts).
    learner: Option<LearnerFigures>,
    /// Per engine kind, in `EngineKind::ALL` order.
    engine_work: [EngineWork; EngineKind::COUNT],
    /// A change the screen shows since the last message was answered:
    /// `Some(true)` when a key made it (drawn at once, whatever the frame
    /// rate). `update` turns it into the renderer's wake-up.
    redraw: Option<bool>,
    /// Ctrl-Z was pressed: the loop hands the terminal back and stops.
    suspend: bool,
    /// Set when the screen cannot go on (drawing failed).
    error: Option<String>,
    /// The last frame could not be drawn.
    cannot_draw: bool,
    /// Human mode's state; `None` when only engines play.
    human: Option<human::HumanState>,
    /// Human mode's start screen, while it shows.
    setup: Option<setup::Setup>,
    /// The largest board side a box of the grid shows (the show plays
    /// only boards that fit).
    fits: u8,
    /// The tournament's finished games and their report, when the screen
    /// shows one.
    tournament: Option<TournamentProgress>,
    rng: Xoshiro256PlusPlus,
}

impl App {
    pub fn new(config: LiveConfig, now: Instant) -> App {
        App::with_fits(config, now, 7)
    }

    /// A new app whose boxes show boards up to side `fits` (the first
    /// games of the show are of boards that fit).
    pub fn with_fits(config: LiveConfig, now: Instant, fits: u8) -> App {
        let mut app = App {
            games: Vec::with_capacity(config.games),
            tab: Tab::Records,
            tab_scroll: 0,
            scroll_room: 0,
            paused: false,
            help: false,
            quit: false,
            started: now,
            now,
            totals: Totals::default(),
            leaderboard: leaderboard::Leaderboard::default(),
            selected: 0,
            page: 0,
            zoomed: false,
            rate: MoveRate::new(now),
            load: LoadSnapshot::default(),
            learner_accuracy: None,
            learner: None,
            engine_work: [EngineWork::default(); EngineKind::COUNT],
            redraw: None,
            suspend: false,
            error: None,
            cannot_draw: false,
            human: config.human.map(|side| {
                let mut human = human::HumanState::new(side, config.rules.size());
                human.clock = config
                    .human_tc
                    .map(|(base, inc)| human_clock::HumanClock::new(base, inc));
                human
            }),
            setup: config
                .setup
                .filter(|_| config.human.is_some())
                .map(setup::Setup::new),
            fits,
            tournament: config.tournament.as_ref().map(|plan| {
                let tally = crate::tournament::Tally::new(plan.settings.clone());
                TournamentProgress {
                    next: 0,
                    report: crate::tournament::Report::from_tally(&tally),
                    tally,
                }
            }),
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
            config,
        };
        let count = app.config.games;
        let waiting = app.setup.is_some();
        for index in 0..count {
            let Some(start) = app.next_start(index, 0) else {
                break;
            };
            // Game i starts i/count of the way through the stagger.
            let offset = if app.human.is_some() {
                Duration::ZERO
            } else {
                STAGGER.mul_f64(index as f64 / count as f64)
            };
            let loaded = index == 0 && app.human.is_some() && !app.config.loaded.is_empty();
            let start = match loaded {
                true => Start {
                    opening: app.config.loaded.clone(),
                    ..start
                },
                false => start,
            };
            let (pos, record) = start_position(start.rules, &start.opening);
            let over = pos.outcome().is_over();
            app.games.push(GameView {
                index,
                pos,
                record,
                engines: start.engines,
                labels: start.labels,
                slot: start.slot,
                limits: start.limits,
                // A loaded game's moves are played ones: numbered, and
                // taken back by undo.
                opening: if loaded { 0 } else { start.opening.len() },
                move_cpu: Vec::new(),
                last_move: start.opening.last().copied().filter(|_| loaded),
                status: match over {
                    true => GameStatus::Over { restart_at: None },
                    false => GameStatus::Playing,
                },
                generation: 0,
                previous: None,
                forfeit: None,
                brain_says: None,
                dead: kxo_engine::Bits::EMPTY,
                not_before: now + offset,
                thinking: None,
            });
        }
        if waiting {
            // Nothing plays until the start screen's choice is made.
            for game in &mut app.games {
                game.status = GameStatus::Over { restart_at: None };
            }
        }
        app.clock_tick(now);
        if app.config.review
            && let (Some(human), Some(game)) = (app.human.as_mut(), app.games.first())
        {
            // The person has the move: nothing plays under the review.
            human.side = game.pos.to_move();
            app.toggle_review();
        }
        app
    }

    /// A fresh pair for a game. A side the command line fixes stays fixed;
    /// the other gets any engine. With neither fixed, one side (either) is
    /// MCTS and the other any engine: MCTS is the engine that spends its
    /// whole clock on these boards (Negamax proves 4x4 in microseconds, RL
    /// and Random answer at once), so every game keeps a seat busy and the
    /// screen shows engines sharing the CPU.
    fn pick_engines(&mut self) -> [EngineKind; 2] {
        let rules = self.config.rules;
        let kinds: Vec<EngineKind> = match rules.is_small() || rules.is_go() {
            true => EngineKind::playable_on(rules),
            // Above 8x8 the random, greedy and learning players only
            // scatter stones: random pairs are of the strong engines
            // (`--o`/`--x` still seat any).
            false => [kxo_engine::BuiltIn::Mcts, kxo_engine::BuiltIn::Negamax]
                .map(EngineKind::from)
                .to_vec(),
        };
        let mut any = || kinds[self.rng.random_range(0..kinds.len())];
        let fixed = [Player::O, Player::X].map(|side| self.config.seat(side).map(SpecEngine::kind));
        match (fixed[0], fixed[1]) {
            (Some(o), Some(x)) => [o, x],
            (Some(o), None) => [o, any()],
            (None, Some(x)) => [any(), x],
            (None, None) => {
                let other = any();
                if self.rng.random_bool(0.5) {
                    [EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts), other]
                } else {
                    [other, EngineKind::BuiltIn(kxo_engine::BuiltIn::Mcts)]
                }
            }
        }
    }

    /// Seat `side` of game `index`'s limit a move, as settled when its
    /// game started: a time is CPU time on the seat's clock.
    pub fn seat_limit(&self, index: usize, side: Player) -> Limit {
        self.games
            .get(index)
            .map_or(Limit::Whole, |g| g.limits[side.index()])
    }

    /// A seed for the engine of `side` in game `index`, generation `gen`.
    pub fn engine_seed(&self, index: usize, side: usize, generation: u64) -> u64 {
        let mix = (index as u64) << 32 ^ (generation << 1) ^ side as u64;
        self.config.seed ^ mix.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// Marks the screen for a redraw; `urgent` draws at once (a key).
    fn touch(&mut self, urgent: bool) {
        self.redraw = Some(urgent || self.redraw == Some(true));
    }

    /// How far the current tab can scroll, as the screen last measured it
    /// (the renderer tells after each frame): scrolling stops there, and a
    /// scroll past it (the content shrank) comes back.
    fn set_scroll_room(&mut self, room: u16) {
        self.scroll_room = room;
        if self.tab_scroll > room {
            self.tab_scroll = room;
            self.touch(false);
        }
    }

    /// Moves per second for the status line; `None` while paused.
    pub fn moves_per_second(&self) -> Option<f64> {
        self.rate.per_second(self.now)
    }

    /// Game `index`, if it is still at `generation` and being played: a
    /// seat's answer to an older game (restarted, undone) changes nothing.
    fn game_in_play(&mut self, index: usize, generation: u64) -> Option<&mut GameView> {
        self.games
            .get_mut(index)
            .filter(|g| g.generation == generation && g.status == GameStatus::Playing)
    }

    /// Plays `cell` in game `index` if that game is still at `generation`
    /// and the move is legal.
    fn apply_move(
        &mut self,
        index: usize,
        generation: u64,
        cell: Cell,
        now: Instant,
    ) -> Vec<Effect> {
        self.now = now;
        let mover = match self.game_in_play(index, generation) {
            Some(game) => game.pos.to_move(),
            None => return Vec::new(),
        };
        if index == 0 && !self.clock_moved(mover, now) {
            return self.forfeit(index, generation, mover, Loss::Time, now);
        }
        let Some(game) = self.game_in_play(index, generation) else {
            return Vec::new();
        };
        if game.pos.play(cell).is_err() {
            return Vec::new();
        }
        game.record.moves.push(cell);
        game.last_move = Some(cell);
        // The CPU time the seat's last report gave: what the move cost.
        let used = game.thinking.take().map_or(Duration::ZERO, |t| t.used);
        game.move_cpu
            .resize(game.record.moves.len() - 1, Duration::ZERO);
        game.move_cpu.push(used);
        let outcome = game.pos.outcome();
        self.totals.moves += 1;
        self.rate.record(now);
        self.end_if_over(index, outcome, now);
        if index == 0 {
            self.clock_tick(now);
        }
        self.touch(false);
        vec![Effect::Turn(index), Effect::Redraw]
    }

    /// Game `index`'s seat `loser` loses before the board decides (an
    /// outside brain failed, or a side resigned): the other side wins, and
    /// how shows on screen.
    fn forfeit(
        &mut self,
        index: usize,
        generation: u64,
        loser: Player,
        loss: Loss,
        now: Instant,
    ) -> Vec<Effect> {
        self.now = now;
        let Some(game) = self.game_in_play(index, generation) else {
            return Vec::new();
        };
        game.forfeit = Some((loser, loss));
        game.thinking = None;
        self.end_if_over(index, Outcome::Win(loser.other()), now);
        self.touch(false);
        vec![Effect::Turn(index), Effect::Redraw]
    }

    /// An outside brain seat's MESSAGE lines: the last one shows in the
    /// Records tab.
    fn brain_said(&mut self, index: usize, side: Player, messages: Vec<String>) {
        if let (Some(game), Some(last)) = (self.games.get_mut(index), messages.into_iter().last()) {
            game.brain_says = Some((side, last));
            self.touch(false);
        }
    }

    /// Records the result and counts it when `outcome` ends game `index`
    /// (a person's game of Go ended by passes waits for the dead stones to
    /// be settled first).
    fn end_if_over(&mut self, index: usize, outcome: Outcome, now: Instant) {
        if outcome.is_over() && index == 0 && self.begin_marking(now) {
            return;
        }
        self.count_result(index, outcome, now);
    }

    /// Records game `index`'s result and counts it when it is over.
    fn count_result(&mut self, index: usize, outcome: Outcome, now: Instant) {
        let hold = self.config.hold;
        let human_mode = self.human.is_some();
        let Some(game) = self.games.get_mut(index) else {
            return;
        };
        game.record.outcome = outcome;
        if outcome.is_over() && !human_mode {
            self.leaderboard.record(game.engines, outcome);
        }
        if outcome.is_over()
            && let (Some(slot), Some(progress)) = (game.slot, &mut self.tournament)
        {
            // A game of the plan, played as the plan says: always counted.
            let _ = progress.tally.add(&played_game(game, slot, outcome));
            progress.report = crate::tournament::Report::from_tally(&progress.tally);
            if progress.finished() {
                // The last game: its ranking comes to the front.
                self.tab = Tab::Leaderboard;
                self.tab_scroll = 0;
            }
        }
        if outcome.is_over() {
            game.status = GameStatus::Over {
                restart_at: (!human_mode).then_some(now + hold),
            };
            self.totals.finished += 1;
            self.totals.story.record(&game.record.moves);
            match outcome {
                Outcome::Win(Player::O) => self.totals.o_wins += 1,
                Outcome::Win(Player::X) => self.totals.x_wins += 1,
                _ => self.totals.draws += 1,
            }
            if human_mode {
                self.human_game_over(outcome, now);
            }
        }
    }

    /// Starts game `index` afresh with a new pair of engines (unless fixed).
    fn restart_game(&mut self, index: usize, now: Instant) -> Vec<Effect> {
        let (failed, generation) = match self.games.get(index) {
            Some(g) => (matches!(g.status, GameStatus::Failed(_)), g.generation),
            None => return Vec::new(),
        };
        if failed {
            return Vec::new();
        }
        let Some(start) = self.next_start(index, generation + 1) else {
            // The tournament has no game left: the box keeps its last one.
            if let Some(game) = self.games.get_mut(index) {
                game.status = GameStatus::Over { restart_at: None };
            }
            self.touch(false);
            return vec![Effect::Redraw];
        };
        let Some(game) = self.games.get_mut(index) else {
            return Vec::new();
        };
        game.previous = Some((game.labels.clone(), game.outcome()));
        game.forfeit = None;
        game.brain_says = None;
        game.dead = kxo_engine::Bits::EMPTY;
        (game.pos, game.record) = start_position(start.rules, &start.opening);
        game.engines = start.engines;
        game.labels = start.labels;
        game.slot = start.slot;
        game.limits = start.limits;
        game.opening = start.opening.len();
        game.move_cpu.clear();
        game.last_move = None;
        game.status = GameStatus::Playing;
        game.generation += 1;
        game.not_before = now;
        game.thinking = None;
        self.touch(false);
        vec![Effect::Turn(index), Effect::Redraw]
    }

    /// Marks game `index` failed after one of its seats panicked.
    fn fail_game(&mut self, index: usize, message: &str) -> Vec<Effect> {
        if let Some(game) = self.games.get_mut(index) {
            game.status = GameStatus::Failed(message.to_string());
            game.thinking = None;
            self.touch(false);
        }
        vec![Effect::Turn(index), Effect::Redraw]
    }

    /// A seat's search progress: shown in its game's box, summed per engine.
    /// `work` and `cpu` are what the search did since its last report.
    /// Returns the renderer's wake-up when the screen shows it.
    fn report_thinking(
        &mut self,
        index: usize,
        generation: u64,
        thinking: Thinking,
    ) -> Vec<Effect> {
        let Some(game) = self.games.get_mut(index) else {
            return Vec::new();
        };
        if game.generation == generation && game.status == GameStatus::Playing {
            game.thinking = Some(thinking);
            self.touch(false);
            return vec![Effect::Redraw];
        }
        Vec::new()
    }

    // What the tasks report, applied by `update` (app/message.rs): the
    // only way the state changes (tests/architecture.rs checks it).

    /// The person's move, queued by the keyboard, is played.
    fn play_pending(
        &mut self,
        index: usize,
        generation: u64,
        cell: Cell,
        now: Instant,
    ) -> Vec<Effect> {
        if let Some(h) = self.human.as_mut() {
            h.pending = None;
        }
        self.apply_move(index, generation, cell, now)
    }

    /// The learner measured the model's accuracy after `games` games.
    fn learner_measured(&mut self, share: f64, games: u64) -> Vec<Effect> {
        self.learner_accuracy = Some((share, games));
        self.touch(false);
        vec![Effect::Redraw]
    }

    /// A new sample of the load; the Load tab, when it shows, redraws.
    fn load_sampled(&mut self, snapshot: LoadSnapshot) -> Vec<Effect> {
        self.load = snapshot;
        if self.tab != Tab::Load {
            return Vec::new();
        }
        self.touch(false);
        vec![Effect::Redraw]
    }

    /// The run stops (a signal, the terminal gone, nothing left to draw on).
    fn stop(&mut self, error: Option<String>) {
        self.quit = true;
        if error.is_some() {
            self.error = error;
        }
    }

    /// Whether the person asked to suspend (Ctrl-Z): the loop then hands
    /// the terminal back, saying [`Message::Suspending`].
    pub fn suspend_asked(&self) -> bool {
        self.suspend
    }

    /// Back from a suspension: the screen is drawn again at once (the
    /// caller tells the renderer to redraw every cell).
    fn resumed_from_suspend(&mut self) -> Vec<Effect> {
        self.touch(true);
        vec![Effect::Redraw]
    }

    /// The board sides the grid may show: the show's mix, or the one board.
    pub fn board_sides(&self) -> Vec<u8> {
        match &self.config.show {
            Some(show) => show.variants.iter().map(|v| v.rules.size()).collect(),
            None => vec![self.config.rules.size()],
        }
    }

    /// Adds a seat's work to its engine's totals.
    fn account_work(&mut self, kind: EngineKind, cpu: Duration, work: u64, moved: bool) {
        let w = &mut self.engine_work[kind.index()];
        w.cpu += cpu;
        w.work += work;
        w.moves += u64::from(moved);
    }

    /// Applies one action from the person; returns what the tasks must do.
    fn act(&mut self, action: Action, now: Instant) -> Vec<Effect> {
        // A new key cancels a hint still being searched; a move key while
        // it thinks is answered by the human board (it would play at the
        // cursor the hint is about to move).
        if !matches!(
            action,
            Action::Hint | Action::Resize(..) | Action::PlaceAtCursor | Action::Confirm
        ) {
            self.cancel_hint();
        }
        if let Some(effects) = self.update_setup(action, now) {
            self.touch(true);
            return effects;
        }
        if let Some(effects) = self.update_human(action, now) {
            self.touch(true);
            return effects;
        }
        let mut effects = vec![Effect::Redraw];
        match action {
            Action::Quit => self.quit = true,
            Action::Suspend => self.suspend = true,
            Action::TogglePause => {
                self.paused = !self.paused;
                if self.paused {
                    self.rate.pause(now);
                    if let Some(clock) = self.human.as_mut().and_then(|h| h.clock.as_mut()) {
                        clock.stop(now);
                    }
                } else {
                    self.rate.resume(now);
                    effects.push(Effect::Resumed);
                }
            }
            Action::ShowTab(tab) => {
                if self.tab != tab {
                    self.tab_scroll = 0;
                }
                self.tab = tab;
            }
            Action::NextTab => {
                self.tab = self.tab.next();
                self.tab_scroll = 0;
            }
            Action::Select { game, page } if game < self.games.len() => {
                self.selected = game;
                self.page = page;
            }
            Action::ToggleZoom => self.zoomed = !self.zoomed,
            // Esc closes what is on top: the help over the zoom.
            Action::Escape if self.help => self.help = false,
            Action::Escape if self.zoomed => self.zoomed = false,
            Action::Scroll(by) => {
                self.tab_scroll = self
                    .tab_scroll
                    .saturating_add_signed(by)
                    .min(self.scroll_room);
            }
            Action::ToggleHelp => self.help = !self.help,
            // The renderer measures the new size; the screen redraws at once.
            Action::Resize(..) => {}
            _ => return Vec::new(),
        }
        self.touch(true);
        effects
    }
}

#[cfg(test)]
mod tests;
