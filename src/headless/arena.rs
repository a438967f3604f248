//! `kxo-tui arena`: many games between two engines, with an Elo estimate.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::ai::rl::SharedTable;
use crate::ai::{Engine, EngineKind, ThinkLimit, Unlimited, make_engine_with};
pub use crate::elo::{EloEstimate, elo_estimate};
use crate::game::{GameRecord, Outcome, Player, Position, Rules};
use crate::protocol::outside::{BRAIN_THINK, BrainCommand, OutsideBrain};

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub rules: Rules,
    pub o: EngineKind,
    pub x: EngineKind,
    pub games: u32,
    pub seed: u64,
    pub limit: ThinkLimit,
    /// The learning player's table (shared by both seats if both are RL).
    pub rl: Option<SharedTable>,
    /// Threads to play on. With a learning player the games run on one
    /// thread, in order: each game learns from the ones before it.
    pub jobs: usize,
    /// The outside brains of O's and X's seats, when they are
    /// [`EngineKind::Brain`].
    pub brains: [Option<BrainCommand>; 2],
}

#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ArenaReport {
    pub games: u32,
    pub o_wins: u32,
    pub x_wins: u32,
    pub draws: u32,
    /// O's rating minus X's; `null` when one side won every point.
    pub elo_diff: Option<f64>,
    /// Half the width of the 95% interval of `elo_diff` (kept for
    /// compatibility: the interval is not symmetric, see the bounds).
    pub elo_ci95: Option<f64>,
    /// The bounds of the 95% interval of `elo_diff`.
    pub elo_lo: Option<f64>,
    pub elo_hi: Option<f64>,
    pub o_ms_per_move: f64,
    pub x_ms_per_move: f64,
    pub seed: u64,
    /// Games an outside brain lost by failing: "game 3: X forfeits: the
    /// brain exited". Left out of the JSON when there are none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forfeits: Vec<String>,
    #[serde(skip)]
    pub o_engine: String,
    #[serde(skip)]
    pub x_engine: String,
}

/// One finished game and what its seats spent on it.
struct Played {
    record: GameRecord,
    think: [Duration; 2],
    moves: [u64; 2],
    /// The side that forfeited, and why.
    forfeit: Option<(Player, String)>,
}

/// Plays game number `game` with fresh engines seeded from `(seed, game,
/// side)`, so a game's moves do not depend on which thread plays it or on
/// the games before it (except through a learning player's table).
fn play_game(config: &ArenaGames, game: u32, rl: Option<&SharedTable>) -> Played {
    let rules = config.rules;
    let kinds = [config.o, config.x];
    let mut engines = [0u64, 1].map(|side| -> Box<dyn Engine> {
        match &config.brains[side as usize] {
            Some(command) if kinds[side as usize] == EngineKind::Brain => {
                let think = match config.limit {
                    ThinkLimit::Millis(ms) => Duration::from_millis(ms),
                    ThinkLimit::Default { .. } => BRAIN_THINK,
                };
                Box::new(OutsideBrain::new(command.clone(), rules, think))
            }
            _ => make_engine_with(
                kinds[side as usize],
                rules,
                config.limit,
                seed_for(config.seed, game, side),
                rl,
            ),
        }
    });
    let mut played = Played {
        record: GameRecord::new(rules),
        think: [Duration::ZERO; 2],
        moves: [0; 2],
        forfeit: None,
    };
    let record = &mut played.record;
    record.id = Some(game as u64);
    let mut pos = Position::new(rules);
    while !pos.outcome().is_over() {
        let side = pos.to_move().index();
        let start = Instant::now();
        let choice = engines[side].try_choose(&pos, &mut Unlimited::new());
        played.think[side] += start.elapsed();
        played.moves[side] += 1;
        // An engine that fails or picks an illegal move forfeits.
        let played_ok = match choice {
            Ok(cell) => pos.play(cell).map(|_| cell).map_err(|e| e.to_string()),
            Err(reason) => Err(reason),
        };
        let cell = match played_ok {
            Ok(cell) => cell,
            Err(why) => {
                record.outcome = Outcome::Win(pos.to_move().other());
                played.forfeit = Some((pos.to_move(), why));
                break;
            }
        };
        record.moves.push(cell);
        record.outcome = pos.outcome();
    }
    for (side, engine) in engines.iter_mut().enumerate() {
        let me = if side == 0 { Player::O } else { Player::X };
        engine.game_over(record, me);
    }
    played
}

/// What every game shares: the thread-safe part of the config.
#[derive(Clone)]
struct ArenaGames {
    count: u32,
    rules: Rules,
    o: EngineKind,
    x: EngineKind,
    seed: u64,
    limit: ThinkLimit,
    brains: [Option<BrainCommand>; 2],
}

/// Plays the games; `on_game` is called after each one (for a progress
/// bar), in the order they finish. The report is the same for a seed
/// whatever the number of threads (except the times per move).
pub fn run(config: &ArenaConfig, mut on_game: impl FnMut(&GameRecord)) -> ArenaReport {
    let games = ArenaGames {
        count: config.games,
        rules: config.rules,
        o: config.o,
        x: config.x,
        seed: config.seed,
        limit: config.limit,
        brains: config.brains.clone(),
    };
    let mut results: Vec<Option<Played>> = (0..config.games).map(|_| None).collect();
    let jobs = config.jobs.clamp(1, config.games.max(1) as usize);
    if config.rl.is_some() || jobs == 1 {
        for game in 0..config.games {
            let played = play_game(&games, game, config.rl.as_ref());
            on_game(&played.record);
            results[game as usize] = Some(played);
        }
    } else {
        let next = std::sync::atomic::AtomicU32::new(0);
        let (done, finished) = std::sync::mpsc::channel::<(u32, Played)>();
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let (next, done, games) = (&next, done.clone(), &games);
                scope.spawn(move || {
                    loop {
                        let game = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        if game >= games.count {
                            break;
                        }
                        if done.send((game, play_game(games, game, None))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(done);
            for (game, played) in finished {
                on_game(&played.record);
                results[game as usize] = Some(played);
            }
        });
    }
    let mut think = [Duration::ZERO; 2];
    let mut moves = [0u64; 2];
    let mut report = ArenaReport {
        games: config.games,
        seed: config.seed,
        o_engine: seat_name(config.o, &config.brains[0]),
        x_engine: seat_name(config.x, &config.brains[1]),
        ..ArenaReport::default()
    };
    // In game order, so that the Elo sums come out the same every time.
    let mut scores = Vec::with_capacity(config.games as usize);
    for (game, played) in results.into_iter().flatten().enumerate() {
        if let Some((loser, why)) = &played.forfeit {
            report
                .forfeits
                .push(format!("game {}: {loser} forfeits: {why}", game + 1));
        }
        for side in 0..2 {
            think[side] += played.think[side];
            moves[side] += played.moves[side];
        }
        let score = match played.record.outcome {
            Outcome::Win(Player::O) => {
                report.o_wins += 1;
                1.0
            }
            Outcome::Win(Player::X) => {
                report.x_wins += 1;
                0.0
            }
            _ => {
                report.draws += 1;
                0.5
            }
        };
        scores.push(score);
    }
    let ms = |t: Duration, n: u64| {
        if n == 0 {
            0.0
        } else {
            t.as_secs_f64() * 1e3 / n as f64
        }
    };
    report.o_ms_per_move = ms(think[0], moves[0]);
    report.x_ms_per_move = ms(think[1], moves[1]);
    let estimate = elo_estimate(&scores);
    report.elo_diff = estimate.map(|e| e.diff);
    report.elo_lo = estimate.map(|e| e.lo);
    report.elo_hi = estimate.map(|e| e.hi);
    report.elo_ci95 = estimate.map(|e| (e.hi - e.lo) / 2.0);
    report
}

/// "mcts", or "brain:./pbrain-x --flag" for an outside brain.
fn seat_name(kind: EngineKind, brain: &Option<BrainCommand>) -> String {
    match brain {
        Some(command) if kind == EngineKind::Brain => command.to_string(),
        _ => kind.name().into(),
    }
}

/// A seed per game and side.
fn seed_for(seed: u64, game: u32, side: u64) -> u64 {
    let mut z = seed
        .wrapping_add((game as u64) << 1 | side)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    // SplitMix64's finaliser: nearby games get unrelated seeds.
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl ArenaReport {
    pub fn to_text(&self) -> String {
        let pct = |n: u32| 100.0 * n as f64 / self.games.max(1) as f64;
        let elo = match (self.elo_diff, self.elo_lo, self.elo_hi) {
            (Some(d), Some(lo), Some(hi)) if lo == hi => {
                format!("{d:+.0} (no spread: every game scored the same), O minus X")
            }
            (Some(d), Some(lo), Some(hi)) => {
                format!("{d:+.0}, 95% interval {lo:+.0} to {hi:+.0}, O minus X")
            }
            _ if self.o_wins == self.games => "unbounded: O won every game".into(),
            _ if self.x_wins == self.games => "unbounded: X won every game".into(),
            _ => "n/a".into(),
        };
        format!(
            "{games} games, O = {o}, X = {x}, seed {seed}\n\
             O wins:  {ow:>6} ({owp:5.1}%)\n\
             X wins:  {xw:>6} ({xwp:5.1}%)\n\
             draws:   {d:>6} ({dp:5.1}%)\n\
             time per move: O {oms:.3} ms, X {xms:.3} ms\n\
             Elo difference: {elo}\n",
            games = self.games,
            o = self.o_engine,
            x = self.x_engine,
            seed = self.seed,
            ow = self.o_wins,
            owp = pct(self.o_wins),
            xw = self.x_wins,
            xwp = pct(self.x_wins),
            d = self.draws,
            dp = pct(self.draws),
            oms = self.o_ms_per_move,
            xms = self.x_ms_per_move,
        ) + &self
            .forfeits
            .iter()
            .map(|f| format!("forfeit: {f}\n"))
            .collect::<String>()
    }
}

/// `kxo-tui arena`: plays the games with a progress bar on stderr, prints
/// the report, and saves what a learning player learned.
pub fn command(args: crate::cli::ArenaArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let rules = args.rules.rules()?;
    let (o, x) = (args.o.kind(), args.x.kind());
    super::refuse_engines(rules, &[o, x])?;
    let model = if o == EngineKind::Rl || x == EngineKind::Rl {
        let init = crate::ai::rl::Init::for_new_model(rules, crate::ai::rl::Init::Heuristic);
        Some(crate::model::Model::open(rules, args.model.clone(), init)?)
    } else {
        None
    };
    let config = ArenaConfig {
        rl: model.as_ref().map(|m| m.table.clone()),
        rules,
        o,
        x,
        brains: [args.o.brain(), args.x.brain()],
        games: args.games,
        seed: args.seed.unwrap_or_else(rand::random),
        limit: args.think.limit(),
        jobs: args.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        }),
    };
    if model.is_some() && args.jobs.is_some_and(|j| j > 1) {
        eprintln!(
            "note: the learning player learns from each game in turn, so the games run on one thread"
        );
    }
    let bar = super::progress_bar(
        config.games as u64,
        "{pos}/{len} games  {msg}  eta {eta} {wide_bar}",
        args.json,
    );
    let mut tally = [0u32; 3];
    let report = run(&config, |record| {
        match record.outcome {
            Outcome::Win(p) => tally[p.index()] += 1,
            _ => tally[2] += 1,
        }
        // The count first, so the bar never shows more results than games.
        bar.inc(1);
        bar.set_message(format!("O {} X {} draw {}", tally[0], tally[1], tally[2]));
    });
    bar.finish_and_clear();
    {
        let mut out = std::io::stdout().lock();
        if args.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        } else {
            write!(out, "{}", report.to_text())?;
        }
    }
    if let Some(model) = &model {
        model.save_learned()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_an_even_score_is_zero() {
        let e = elo_estimate(&[1.0, 0.0, 0.5, 0.5]).unwrap();
        assert!(e.diff.abs() < 1e-9);
        assert!(e.hi > 0.0 && e.lo < 0.0);
    }

    #[test]
    fn elo_of_three_quarters_is_about_191() {
        let scores: Vec<f64> = (0..400)
            .map(|i| if i % 4 == 0 { 0.0 } else { 1.0 })
            .collect();
        let e = elo_estimate(&scores).unwrap();
        assert!((e.diff - 190.85).abs() < 0.1, "{e:?}");
        // se = sqrt(0.1875 / 400) ≈ 0.02165; Elo(0.75 ± 1.96 se) spans
        // 153.5 to 232.7: 37.4 below the estimate, 41.9 above.
        assert!(
            (e.lo - 153.49).abs() < 0.01 && (e.hi - 232.72).abs() < 0.01,
            "{e:?}"
        );
    }

    #[test]
    fn a_clean_sweep_has_no_finite_elo() {
        assert_eq!(elo_estimate(&[1.0; 10]), None);
    }

    #[test]
    fn the_interval_is_asymmetric_and_an_even_score_is_zero() {
        let mut scores = vec![1.0; 9];
        scores.push(0.0);
        let e = elo_estimate(&scores).unwrap();
        assert!(e.lo < e.diff && e.diff < e.hi);
        assert!(e.hi - e.diff > e.diff - e.lo, "{e:?}");
        let draws = elo_estimate(&[0.5; 8]).unwrap();
        assert_eq!(draws.diff.to_bits(), 0.0f64.to_bits(), "not -0");
        assert_eq!((draws.lo, draws.hi), (0.0, 0.0));
    }

    #[test]
    fn same_seed_same_result() {
        let config = ArenaConfig {
            rules: Rules::default_rules(),
            o: EngineKind::Mcts,
            x: EngineKind::Random,
            games: 6,
            seed: 42,
            limit: ThinkLimit::Default {
                mcts_iterations: 500,
            },
            rl: None,
            jobs: 1,
            brains: [None, None],
        };
        let strip = |mut r: ArenaReport| {
            r.o_ms_per_move = 0.0;
            r.x_ms_per_move = 0.0;
            r
        };
        let mut records_a = Vec::new();
        let a = strip(run(&config, |r| records_a.push(r.notation())));
        let mut records_b = Vec::new();
        let b = strip(run(&config, |r| records_b.push(r.notation())));
        assert_eq!(a, b);
        assert_eq!(records_a, records_b);
        // On three threads: the same games, finished in another order.
        let threads = ArenaConfig { jobs: 3, ..config };
        let mut records_c = Vec::new();
        let c = strip(run(&threads, |r| records_c.push(r.notation())));
        assert_eq!(a, c);
        records_c.sort();
        records_a.sort();
        assert_eq!(records_a, records_c);
    }
}
