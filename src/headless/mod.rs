//! The commands that run without the full screen: `solve`, `arena`,
//! `train`, `eval`, and the engines served on standard input (`brain`,
//! `gtp`). Each module holds its command: the work, and the
//! printing of its report.

pub(crate) mod arena;
pub(crate) mod bench;
pub mod brain;
mod checkpoint;
pub(crate) mod eval;
pub mod gtp;
mod lines;
pub mod solve;
mod solve_big;
mod solve_report;
pub mod train;
mod train_big;

pub use crate::error::InputError;

/// A progress bar on stderr when it is a terminal (and not `quiet`), else
/// one that draws nothing. `template` is indicatif's.
pub(crate) fn progress_bar(len: u64, template: &str, quiet: bool) -> indicatif::ProgressBar {
    if quiet || !crate::out::stderr_is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    let style = indicatif::ProgressStyle::with_template(template)
        .map(|style| {
            style.with_key(
                "rate",
                |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{}/s", thousands(state.per_sec() as u64));
                },
            )
        })
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

pub use kxo_engine::text::thousands;
