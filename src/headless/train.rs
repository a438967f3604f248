//! `kxo-tui train`: the learning player plays and learns, with a learning
//! curve of its accuracy measured as it goes.
//!
//! The games cycle through three kinds: against itself, and against Random
//! as O and as X. Self-play teaches the lines good players choose; Random
//! leads it into the positions a weaker opponent makes, which a player
//! must also answer well. Exploration (a random move now and then) decays
//! over the run.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use kxo_engine::learner::{self, Judge, Skill};
use kxo_engine::learner::{ALPHA, RlPlayer, SharedTable};
use kxo_engine::{BuiltIn, RandomPlayer};
use kxo_engine::{Outcome, Player, Rules};
pub use kxo_engine::{Tally, play_from, play_game};

/// Games of the default training on 3x3 and on 4x4 with three in a row.
pub const DEFAULT_EPISODES: u64 = 100_000;

/// Games of the default training for `rules`: enough, where a table can
/// cover the game, for the learner to keep the value in 99% of its moves
/// against Random, in under two minutes. Four in a row on 4x4 is a long
/// draw with a million positions to learn.
pub fn default_episodes(rules: Rules) -> u64 {
    match (rules.size(), rules.goal()) {
        (4, 4) => 1_500_000,
        _ if !rules.is_small() => super::train_big::DEFAULT_EPISODES,
        _ => DEFAULT_EPISODES,
    }
}
/// Exploration at the start and at the end of training (it decays linearly).
const EPSILON_START: f64 = 0.3;
const EPSILON_END: f64 = 0.02;
/// Games against Random on each side, and sampled positions, per point of
/// the learning curve.
const CURVE_GAMES: u32 = 200;
const CURVE_SAMPLE: usize = learner::MODEL_SAMPLE;

/// One point of the learning curve.
#[derive(Clone, Debug, PartialEq)]
pub struct CurvePoint {
    pub episodes: u64,
    pub skill: Skill,
    pub entries: usize,
}

#[derive(Clone, Debug)]
pub struct TrainReport {
    pub episodes: u64,
    pub stopped_early: bool,
    pub elapsed: Duration,
    pub curve: Vec<CurvePoint>,
}

impl TrainReport {
    pub fn episodes_per_second(&self) -> f64 {
        self.episodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The learning curve as a table.
    pub fn curve_table(&self) -> String {
        let mut out = format!(
            "{:>10}  {:>11}  {:>11}  {:>11}  {:>13}\n",
            "episodes", "as O", "as X", "sample", "table entries"
        );
        for p in &self.curve {
            out.push_str(&format!(
                "{:>10}  {:>10.2}%  {:>10.2}%  {:>10.2}%  {:>13}\n",
                super::thousands(p.episodes),
                100.0 * p.skill.vs_random_o.share(),
                100.0 * p.skill.vs_random_x.share(),
                100.0 * p.skill.sample.share(),
                super::thousands(p.entries as u64)
            ));
        }
        out
    }
}

/// The greedy learner as O against `opponent`, without learning.
pub fn evaluate(table: &SharedTable, opponent: BuiltIn, games: u32, seed: u64) -> Tally {
    evaluate_as(table, Player::O, opponent, games, seed)
}

/// The greedy learner playing `side` against `opponent`, without learning;
/// wins and losses are the learner's.
pub fn evaluate_as(
    table: &SharedTable,
    side: Player,
    opponent: BuiltIn,
    games: u32,
    seed: u64,
) -> Tally {
    let rules = table.borrow().rules();
    let mut rl = RlPlayer::new(table.clone(), seed);
    rl.learning = false;
    // Through the one factory, as a seat's engine is made.
    let mut other = crate::engines::EngineSpec::for_seat(opponent.into())
        .built_in_engine(rules, seed ^ 0x5eed, None)
        .expect("a built-in opponent");
    let mut tally = Tally::default();
    for _ in 0..games {
        let record = match side {
            Player::O => play_game(rules, &mut [&mut rl, other.as_mut()]),
            Player::X => play_game(rules, &mut [other.as_mut(), &mut rl]),
        };
        match record.outcome {
            Outcome::Win(p) if p == side => tally.wins += 1,
            Outcome::Win(_) => tally.losses += 1,
            _ => tally.draws += 1,
        }
    }
    tally
}

fn measure(table: &SharedTable, episodes: u64, seed: u64, judge: &mut Judge) -> CurvePoint {
    // Beyond 16 cells the solver takes milliseconds to seconds a position:
    // fewer games and positions.
    let (games, sample) = if kxo_engine::learner::judged_in_passing(table.borrow().rules()) {
        (CURVE_GAMES, CURVE_SAMPLE)
    } else {
        (CURVE_GAMES / 10, CURVE_SAMPLE / 10)
    };
    CurvePoint {
        episodes,
        skill: learner::measure(table, games, sample, seed ^ episodes, judge),
        entries: table.borrow().len(),
    }
}

/// Trains `table` for `episodes` games, measuring the curve `points` times
/// (never when `points` is 0). Stops early (keeping what it learned) when
/// `stop` is set: a measure under way stops too (the solver behind it
/// watches the flag) and its void point is dropped.
/// `on_progress(episodes done, latest curve point)` is called every
/// 1,000 games.
pub fn train(
    table: &SharedTable,
    episodes: u64,
    seed: u64,
    points: u64,
    stop: &std::sync::Arc<AtomicBool>,
    mut on_progress: impl FnMut(u64, Option<&CurvePoint>),
) -> TrainReport {
    let start = Instant::now();
    let rules = table.borrow().rules();
    let mut judge = Judge::new(rules);
    judge.set_stop_flag(stop.clone());
    let mut learner = RlPlayer::new(table.clone(), seed);
    let mut partner = RlPlayer::new(table.clone(), seed ^ 0x9e37);
    let mut random = RandomPlayer::new(seed ^ 0x5eed);
    // Learning is done once per game, below; the values, not the way of
    // playing them out, are what training is for.
    learner.learning = false;
    partner.learning = false;
    learner.resist = false;
    partner.resist = false;
    learner.tie = kxo_engine::learner::TRAINING_TIE;
    partner.tie = kxo_engine::learner::TRAINING_TIE;
    let every = episodes.checked_div(points).map_or(u64::MAX, |e| e.max(1));
    let mut curve = Vec::new();
    if points > 0 {
        let point = measure(table, 0, seed, &mut judge);
        if !judge.stopped() {
            curve.push(point);
        }
    }
    on_progress(0, curve.last());
    let mut done = 0;
    while done < episodes {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let progress = done as f64 / episodes as f64;
        let epsilon = EPSILON_START + (EPSILON_END - EPSILON_START) * progress;
        learner.epsilon = epsilon;
        partner.epsilon = epsilon;
        let record = match done % 3 {
            0 => play_game(rules, &mut [&mut learner, &mut partner]),
            1 => play_game(rules, &mut [&mut learner, &mut random]),
            _ => play_game(rules, &mut [&mut random, &mut learner]),
        };
        table.borrow_mut().learn(&record, ALPHA);
        done += 1;
        if points > 0 && (done % every == 0 || done == episodes) {
            let point = measure(table, done, seed, &mut judge);
            if judge.stopped() {
                break;
            }
            curve.push(point);
            on_progress(done, curve.last());
        } else if done % 1_000 == 0 {
            on_progress(done, None);
        }
    }
    // Stopped by a signal: what it learned is saved at once, without a
    // last measure (it would take as long as the others).
    if !judge.stopped() && curve.last().is_some_and(|p| p.episodes != done) {
        curve.push(measure(table, done, seed, &mut judge));
    }
    // The model keeps the accuracy it was saved with (the same sample).
    if let Some(last) = curve.last()
        && kxo_engine::learner::judged_in_passing(rules)
    {
        table.borrow_mut().accuracy = Some(last.skill.sample.share() as f32);
    }
    TrainReport {
        episodes: done,
        stopped_early: done < episodes,
        elapsed: start.elapsed(),
        curve,
    }
}

/// What `train` is asked.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Games to learn from (`None`: by the board).
    pub episodes: Option<u64>,
    pub rules: Rules,
    /// The model file (`None`: one per board under the user's data folder).
    pub model: Option<std::path::PathBuf>,
    /// `None`: a random seed.
    pub seed: Option<u64>,
    /// What a new model starts from (`None`: by the board).
    pub init: Option<kxo_engine::learner::Init>,
    /// Above 8x8: whom the learner plays while it learns.
    pub against: Partner,
}

pub use super::train_big::Partner;

/// `kxo-tui train`: trains the model with a progress bar on stderr, saves
/// it (also when stopped by Ctrl-C) and prints the learning curve.
pub fn command(args: TrainOptions) -> anyhow::Result<()> {
    use crate::headless::{InputError, thousands};
    use kxo_engine::learner::Init;
    use kxo_engine::text::shown_path;
    let rules = args.rules;
    let new_init = args
        .init
        .unwrap_or_else(|| Init::for_new_model(rules, Init::Zero));
    if rules.is_small() && args.against == Partner::Negamax {
        return Err(InputError(
            "--against negamax is for boards above 8x8; up to 8x8 training plays itself and Random"
                .into(),
        )
        .into());
    }
    if let Some(beyond) = rules.beyond_small().filter(|_| new_init != Init::Network) {
        return Err(InputError(format!(
            "--init {}: a table of positions is for the boards the solver plays, and {beyond} is not one; \
             there the learner learns line patterns (--init network)",
            new_init.name()
        ))
        .into());
    }
    let model = crate::model::Model::open(rules, args.model, new_init)?;
    let (path, table) = (&model.path, &model.table);
    if let Some(init) = args.init
        && table.borrow().init() != init
    {
        return Err(InputError(format!(
            "model file {} already starts from {}; --init {} is for a new model (pass another --model)",
            shown_path(path),
            table.borrow().init().name(),
            init.name()
        ))
        .into());
    }
    let seed = args.seed.unwrap_or_else(rand::random);
    let stop = crate::signals::stop_flag();
    let start_games = table.borrow().games;
    let episodes = args.episodes.unwrap_or_else(|| default_episodes(rules));
    if !rules.is_small() {
        return command_big(&model, args.against, episodes, seed, &stop, start_games);
    }
    let bar = start_bar(rules, episodes, seed, "");
    let report = train(table, episodes, seed, 10, &stop, |done, point| {
        bar.set_position(done);
        if let Some(p) = point {
            bar.set_message(format!(
                "accuracy O {:.1}% X {:.1}% sample {:.1}%",
                100.0 * p.skill.vs_random_o.share(),
                100.0 * p.skill.vs_random_x.share(),
                100.0 * p.skill.sample.share(),
            ));
        }
    });
    bar.finish_and_clear();
    model.save()?;
    let t = table.borrow();
    crate::say!(
        "{} {} episodes in {:.1} s ({} episodes/s){}",
        if report.stopped_early {
            "stopped after"
        } else {
            "trained"
        },
        report.episodes,
        report.elapsed.as_secs_f64(),
        thousands(report.episodes_per_second() as u64),
        if report.stopped_early {
            ", stopped by a signal"
        } else {
            ""
        }
    )?;
    crate::say!(
        "model: {} ({} {}, {} games learned in all, {} before)",
        shown_path(path),
        t.len(),
        t.what_it_holds(),
        t.games,
        start_games
    )?;
    crate::say!(
        "\nlearning curve: accuracy, the share of moves that keep the game-theoretic value\n\
         (judged by the solver), in games against Random as O and as X, and on a fixed\n\
         sample of reachable positions:"
    )?;
    crate::out::stdout(&report.curve_table())?;
    Ok(())
}

/// Says what training starts, and its progress bar on stderr.
fn start_bar(rules: Rules, episodes: u64, seed: u64, how: &str) -> indicatif::ProgressBar {
    crate::note!(
        "training {episodes} episodes of {n}x{n}, {k},{how} seed {seed}; Ctrl-C stops and keeps what was learned",
        n = rules.size(),
        k = rules.in_a_row()
    );
    // Short enough for 80 columns: the bar takes what is left.
    super::progress_bar(
        episodes,
        "{pos}/{len} {rate}  {msg}  eta {eta} {wide_bar}",
        false,
    )
}

/// `train` above 8x8: self-play (or games against the yardstick), and a
/// curve against the yardstick (`super::train_big`).
fn command_big(
    model: &crate::model::Model,
    partner: Partner,
    episodes: u64,
    seed: u64,
    stop: &AtomicBool,
    start_games: u64,
) -> anyhow::Result<()> {
    use super::train_big::{CURVE_GAMES, YARDSTICK_NODES, curve_table, train_big};
    let rules = model.table.borrow().rules();
    let how = match partner {
        Partner::Itself => " by self-play,",
        Partner::Negamax => " half of them against the yardstick,",
    };
    let bar = start_bar(rules, episodes, seed, how);
    let (curve, done, elapsed) = train_big(
        &model.table,
        partner,
        episodes,
        seed,
        10,
        stop,
        |done, point| {
            bar.set_position(done);
            if let Some(p) = point {
                bar.set_message(format!("score {:.0}%", 100.0 * p.score()));
            }
        },
    );
    bar.finish_and_clear();
    model.save()?;
    let t = model.table.borrow();
    crate::say!(
        "{} {done} episodes in {:.1} s{}",
        if done < episodes {
            "stopped after"
        } else {
            "trained"
        },
        elapsed.as_secs_f64(),
        if done < episodes {
            ", stopped by a signal"
        } else {
            ""
        }
    )?;
    crate::say!(
        "model: {} ({} pattern weights, {} games learned in all, {} before)",
        kxo_engine::text::shown_path(&model.path),
        t.len(),
        t.games,
        start_games
    )?;
    crate::say!(
        "\nlearning curve: the learner's score (wins and half the draws) in {CURVE_GAMES} games,\n\
         half on each side, against Negamax held to {} nodes a move (no solver reaches {n}x{n}):",
        YARDSTICK_NODES,
        n = rules.size()
    )?;
    crate::out::stdout(&curve_table(&curve))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use kxo_engine::learner::Accuracy;

    #[test]
    fn the_curve_table_headers_end_where_their_columns_do() {
        let a = Accuracy {
            moves: 3,
            kept: 2,
            ..Accuracy::default()
        };
        let report = TrainReport {
            episodes: 1_500_000,
            stopped_early: false,
            elapsed: Duration::from_secs(1),
            curve: vec![CurvePoint {
                episodes: 1_500_000,
                skill: Skill {
                    vs_random_o: a,
                    vs_random_x: a,
                    sample: a,
                },
                entries: 123_456,
            }],
        };
        let table = report.curve_table();
        let mut lines = table.lines();
        let (head, row) = (lines.next().unwrap(), lines.next().unwrap());
        assert_eq!(head.len(), row.len(), "{table}");
        // Each header's last character sits over its column's last one.
        let ends = |line: &str| -> Vec<usize> {
            line.char_indices()
                .filter(|&(i, c)| {
                    c != ' '
                        && line[i + c.len_utf8()..]
                            .chars()
                            .next()
                            .is_none_or(|n| n == ' ')
                })
                .map(|(i, _)| i)
                .collect()
        };
        let head_ends = ends(head);
        let row_ends = ends(row);
        // "as O" and the like are two words: keep the last end per column.
        for end in &row_ends {
            assert!(head_ends.contains(end), "{table}");
        }
    }
}
