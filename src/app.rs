//! The state of the live screen. Tasks change it; the UI only reads it.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use crate::ai::{EngineKind, ThinkLimit};
use crate::game::{Cell, GameRecord, Outcome, Player, Position, Rules};
use crate::tasks::load::LoadSnapshot;
use crate::tasks::scheduler::Event;
use crate::ui::palette::ColorMode;

/// How long a finished game stays on screen before it restarts.
pub const RESULT_PAUSE: Duration = Duration::from_millis(2_000);

/// What the live screen plays.
#[derive(Clone, Debug)]
pub struct LiveConfig {
    pub rules: Rules,
    pub games: usize,
    /// Fixed engines for O and X; `None`: a fresh random pair every game.
    pub o: Option<EngineKind>,
    pub x: Option<EngineKind>,
    /// Least time between a seat starting to think and its move landing.
    pub delay: Duration,
    pub limit: ThinkLimit,
    pub seed: u64,
    pub fps: u32,
    pub color: ColorMode,
    /// Testing aid: O's seat of this game (from 0) panics when it first
    /// thinks. Set from the environment variable `KXO_FAULT_GAME` (from 1).
    pub fault_game: Option<usize>,
    /// Human mode: the person's side in the first game (one game only;
    /// the computer plays `o`/`x` of the other side).
    pub human: Option<Player>,
    /// The learning player's table, shared by every RL seat.
    pub rl: Option<crate::ai::rl::SharedTable>,
}

impl Default for LiveConfig {
    /// The command line's defaults: nine 4x4 games, three in a row, random
    /// engine pairs, 150 ms between moves, 30 frames a second, no colour.
    fn default() -> LiveConfig {
        LiveConfig {
            rules: Rules::default_rules(),
            games: 9,
            o: None,
            x: None,
            delay: Duration::from_millis(150),
            limit: ThinkLimit::default(),
            seed: 0,
            fps: 30,
            color: ColorMode::None,
            fault_game: None,
            human: None,
            rl: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    Records,
    Load,
}

#[derive(Clone, Debug, PartialEq)]
pub enum GameStatus {
    Playing,
    /// Over; the game restarts at `restart_at` (in human mode it waits
    /// for the person instead).
    Over {
        restart_at: Option<Instant>,
    },
    /// A seat panicked; the message says why.
    Failed(String),
}

/// One game on the screen.
#[derive(Clone, Debug)]
pub struct GameView {
    /// Index from 0; the screen shows "Game-{index + 1}".
    pub index: usize,
    pub pos: Position,
    pub record: GameRecord,
    pub engines: [EngineKind; 2],
    pub last_move: Option<Cell>,
    pub status: GameStatus,
    /// Bumped at every restart, so a seat never plays into a newer game.
    pub generation: u64,
    /// The previous game's engines and result.
    pub previous: Option<([EngineKind; 2], Outcome)>,
}

impl GameView {
    pub fn outcome(&self) -> Outcome {
        self.pos.outcome()
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub finished: u64,
    pub o_wins: u64,
    pub x_wins: u64,
    pub draws: u64,
    pub moves: u64,
}

/// Moves per second over the last whole second or so.
#[derive(Clone, Debug)]
pub struct RateMeter {
    window_start: Instant,
    count: u64,
    pub per_second: f64,
}

impl RateMeter {
    fn new(now: Instant) -> RateMeter {
        RateMeter {
            window_start: now,
            count: 0,
            per_second: 0.0,
        }
    }
    /// Counts one event; returns true when the rate was updated.
    pub fn tick(&mut self, now: Instant, events: u64) -> bool {
        self.count += events;
        let span = now.saturating_duration_since(self.window_start);
        if span >= Duration::from_secs(1) {
            self.per_second = self.count as f64 / span.as_secs_f64();
            self.count = 0;
            self.window_start = now;
            return true;
        }
        false
    }
}

pub struct App {
    pub config: LiveConfig,
    pub games: Vec<GameView>,
    pub tab: Tab,
    pub paused: bool,
    pub help: bool,
    pub quit: bool,
    pub started: Instant,
    pub totals: Totals,
    pub rate: RateMeter,
    pub load: LoadSnapshot,
    /// Something changed since the last frame.
    pub dirty: bool,
    /// A key changed something: draw now, whatever the frame rate.
    pub urgent: bool,
    /// Terminal events for the keyboard task.
    pub input: VecDeque<TermEvent>,
    /// Wall-clock text for the header, set by the renderer before each frame.
    pub clock: String,
    pub frames: u64,
    /// Set when the screen cannot go on (drawing failed).
    pub error: Option<String>,
    /// Human mode's state; `None` when only engines play.
    pub human: Option<crate::human::HumanState>,
    /// The terminal's size at the last frame (for mouse clicks).
    pub screen: ratatui::layout::Rect,
    rng: Xoshiro256PlusPlus,
}

impl App {
    pub fn new(config: LiveConfig, now: Instant) -> App {
        let mut app = App {
            games: Vec::with_capacity(config.games),
            tab: Tab::Records,
            paused: false,
            help: false,
            quit: false,
            started: now,
            totals: Totals::default(),
            rate: RateMeter::new(now),
            load: LoadSnapshot::default(),
            dirty: true,
            urgent: true,
            input: VecDeque::new(),
            clock: String::new(),
            frames: 0,
            error: None,
            human: config
                .human
                .map(|side| crate::human::HumanState::new(side, config.rules.size())),
            screen: ratatui::layout::Rect::default(),
            rng: Xoshiro256PlusPlus::seed_from_u64(config.seed),
            config,
        };
        for index in 0..app.config.games {
            let engines = app.pick_engines();
            app.games.push(GameView {
                index,
                pos: Position::new(app.config.rules),
                record: GameRecord::new(app.config.rules),
                engines,
                last_move: None,
                status: GameStatus::Playing,
                generation: 0,
                previous: None,
            });
        }
        app
    }

    fn pick_engines(&mut self) -> [EngineKind; 2] {
        let mut pick = |fixed: Option<EngineKind>| {
            fixed
                .unwrap_or_else(|| EngineKind::ALL[self.rng.random_range(0..EngineKind::ALL.len())])
        };
        let o = pick(self.config.o);
        let x = pick(self.config.x);
        [o, x]
    }

    /// A seed for the engine of `side` in game `index`, generation `gen`.
    pub fn engine_seed(&self, index: usize, side: usize, generation: u64) -> u64 {
        let mix = (index as u64) << 32 ^ (generation << 1) ^ side as u64;
        self.config.seed ^ mix.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    /// Plays `cell` in game `index` if that game is still at `generation`
    /// and the move is legal. Returns the events to post.
    pub fn apply_move(
        &mut self,
        index: usize,
        generation: u64,
        cell: Cell,
        now: Instant,
    ) -> Vec<Event> {
        let Some(game) = self.games.get_mut(index) else {
            return Vec::new();
        };
        if game.generation != generation || game.status != GameStatus::Playing {
            return Vec::new();
        }
        if game.pos.play(cell).is_err() {
            return Vec::new();
        }
        game.record.moves.push(cell);
        game.last_move = Some(cell);
        let outcome = game.pos.outcome();
        game.record.outcome = outcome;
        self.totals.moves += 1;
        self.rate.tick(now, 1);
        if outcome.is_over() {
            let human_mode = self.human.is_some();
            game.status = GameStatus::Over {
                restart_at: (!human_mode).then_some(now + RESULT_PAUSE),
            };
            self.totals.finished += 1;
            match outcome {
                Outcome::Win(Player::O) => self.totals.o_wins += 1,
                Outcome::Win(Player::X) => self.totals.x_wins += 1,
                _ => self.totals.draws += 1,
            }
            if self.human.is_some() {
                self.human_game_over(outcome);
            }
        }
        self.dirty = true;
        vec![Event::Turn(index), Event::Changed]
    }

    /// Starts game `index` afresh with a new pair of engines (unless fixed).
    pub fn restart_game(&mut self, index: usize) -> Vec<Event> {
        let engines = self.pick_engines();
        let rules = self.config.rules;
        let Some(game) = self.games.get_mut(index) else {
            return Vec::new();
        };
        if matches!(game.status, GameStatus::Failed(_)) {
            return Vec::new();
        }
        game.previous = Some((game.engines, game.pos.outcome()));
        game.pos = Position::new(rules);
        game.record = GameRecord::new(rules);
        game.engines = engines;
        game.last_move = None;
        game.status = GameStatus::Playing;
        game.generation += 1;
        self.dirty = true;
        vec![Event::Turn(index), Event::Changed]
    }

    /// Marks game `index` failed after one of its seats panicked.
    pub fn fail_game(&mut self, index: usize, message: &str) -> Vec<Event> {
        if let Some(game) = self.games.get_mut(index) {
            game.status = GameStatus::Failed(message.to_string());
            self.dirty = true;
        }
        vec![Event::Turn(index), Event::Changed]
    }

    /// Reacts to one terminal event. Returns the events to post.
    pub fn handle_event(&mut self, event: &TermEvent) -> Vec<Event> {
        match event {
            TermEvent::Key(key) if key.kind != KeyEventKind::Release => self.handle_key(*key),
            TermEvent::Mouse(mouse) => {
                let posts = self.handle_human_mouse(*mouse);
                if !posts.is_empty() {
                    self.dirty = true;
                    self.urgent = true;
                }
                posts
            }
            TermEvent::Resize(w, h) => {
                self.screen = ratatui::layout::Rect::new(0, 0, *w, *h);
                self.dirty = true;
                self.urgent = true;
                vec![Event::Changed]
            }
            _ => Vec::new(),
        }
    }

    fn handle_key(&mut self, key: KeyEvent) -> Vec<Event> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if !ctrl
            && !self.help
            && let Some(posts) = self.handle_human_key(key)
        {
            self.dirty = true;
            self.urgent = true;
            return posts;
        }
        let mut posts = vec![Event::Changed];
        match key.code {
            KeyCode::Char('q' | 'Q') if ctrl => self.quit = true,
            KeyCode::Char('c' | 'C') if ctrl => self.quit = true,
            KeyCode::Char('p' | 'P') if ctrl => {
                self.paused = !self.paused;
                if !self.paused {
                    posts.push(Event::Resume);
                }
            }
            KeyCode::Char('q' | 'Q') => self.tab = Tab::Records,
            KeyCode::Char('w' | 'W') => self.tab = Tab::Load,
            KeyCode::Char('?') => self.help = !self.help,
            KeyCode::Esc if self.help => self.help = false,
            _ => return Vec::new(),
        }
        self.dirty = true;
        self.urgent = true;
        posts
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app() -> App {
        let config = LiveConfig {
            games: 3,
            x: Some(EngineKind::Random),
            delay: Duration::ZERO,
            seed: 1,
            ..LiveConfig::default()
        };
        App::new(config, Instant::now())
    }

    fn key(code: KeyCode, modifiers: KeyModifiers) -> TermEvent {
        TermEvent::Key(KeyEvent::new(code, modifiers))
    }

    #[test]
    fn keys_switch_tabs_pause_help_and_quit() {
        let mut a = app();
        a.handle_event(&key(KeyCode::Char('W'), KeyModifiers::SHIFT));
        assert_eq!(a.tab, Tab::Load);
        a.handle_event(&key(KeyCode::Char('q'), KeyModifiers::NONE));
        assert_eq!(a.tab, Tab::Records);
        assert!(!a.quit);
        a.handle_event(&key(KeyCode::Char('p'), KeyModifiers::CONTROL));
        assert!(a.paused);
        let posts = a.handle_event(&key(KeyCode::Char('p'), KeyModifiers::CONTROL));
        assert!(!a.paused);
        assert!(posts.contains(&Event::Resume));
        a.handle_event(&key(KeyCode::Char('?'), KeyModifiers::NONE));
        assert!(a.help);
        a.handle_event(&key(KeyCode::Esc, KeyModifiers::NONE));
        assert!(!a.help);
        assert!(
            a.handle_event(&key(KeyCode::Char('z'), KeyModifiers::NONE))
                .is_empty()
        );
        a.handle_event(&key(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert!(a.quit);
    }

    #[test]
    fn fixed_engines_stay_fixed_and_others_vary() {
        let mut a = app();
        let mut o_kinds = std::collections::HashSet::new();
        for _ in 0..30 {
            a.restart_game(0);
            assert_eq!(a.games[0].engines[1], EngineKind::Random);
            o_kinds.insert(a.games[0].engines[0]);
        }
        assert_eq!(o_kinds.len(), EngineKind::ALL.len());
    }

    #[test]
    fn moves_from_a_stale_generation_are_ignored() {
        let mut a = app();
        let now = Instant::now();
        assert!(!a.apply_move(0, 0, Cell::new(5), now).is_empty());
        a.restart_game(0);
        assert!(a.apply_move(0, 0, Cell::new(6), now).is_empty());
        assert_eq!(a.games[0].pos.move_count(), 0);
        assert_eq!(a.totals.moves, 1);
    }

    #[test]
    fn a_finished_game_counts_once_and_waits_to_restart() {
        let mut a = app();
        let now = Instant::now();
        for (i, name) in ["A1", "A2", "B1", "B2", "C1"].iter().enumerate() {
            let cell = Cell::parse(name, 4).unwrap();
            a.apply_move(1, 0, cell, now);
            assert_eq!(a.games[1].pos.move_count() as usize, i + 1);
        }
        assert_eq!(a.totals.o_wins, 1);
        assert_eq!(a.totals.finished, 1);
        assert!(matches!(a.games[1].status, GameStatus::Over { .. }));
        assert!(a.apply_move(1, 0, Cell::new(15), now).is_empty());
        a.restart_game(1);
        assert_eq!(
            a.games[1].previous.map(|p| p.1),
            Some(Outcome::Win(Player::O))
        );
    }
}
