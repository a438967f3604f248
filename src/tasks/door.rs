//! The one door into the live state. A task reads the state through
//! [`Door::state`] and changes it only by sending a [`Message`]: the door
//! applies it with `App::update` at the clock's time, turns the effects
//! into scheduler events, and tells the renderer's books that the screen
//! changed. No task holds the state mutably beyond that one call.

use std::cell::{Ref, RefCell};
use std::rc::Rc;
use std::time::Instant;

use super::clock::SharedClock;
use super::frames::SharedFrames;
use super::scheduler::{Event, Signals};
use crate::app::{App, Effect, Message};

/// Every message sent, with its time: a recording of a run (tests).
pub(crate) type Journal = Rc<RefCell<Vec<(Message, Instant)>>>;

/// The state's one holder: the `RefCell` the state lives in is made here
/// and never handed out, so no task can borrow the state mutably but
/// through [`Door::send`].
#[derive(Clone)]
pub(crate) struct Door {
    app: Rc<RefCell<App>>,
    signals: Signals,
    clock: SharedClock,
    frames: SharedFrames,
    journal: Option<Journal>,
}

impl Door {
    pub(crate) fn new(
        app: App,
        signals: Signals,
        clock: SharedClock,
        frames: SharedFrames,
        journal: Option<Journal>,
    ) -> Door {
        Door {
            app: Rc::new(RefCell::new(app)),
            signals,
            clock,
            frames,
            journal,
        }
    }

    /// Applies `message` now; its effects become events.
    pub(crate) fn send(&self, message: Message) {
        let now = self.clock.now();
        if let Some(journal) = &self.journal {
            journal.borrow_mut().push((message.clone(), now));
        }
        let effects = self.app.borrow_mut().update(message, now);
        for effect in effects {
            match effect {
                Effect::Redraw => self.frames.borrow_mut().changed(false),
                Effect::RedrawNow => self.frames.borrow_mut().changed(true),
                _ => {}
            }
            self.signals.post(event_for(effect));
        }
    }

    /// The state, to read.
    pub(crate) fn state(&self) -> Ref<'_, App> {
        self.app.borrow()
    }

    /// Whether a task still holds the state borrowed (one that suspended
    /// while reading it would make every later message fail).
    pub(crate) fn is_held(&self) -> bool {
        self.app.try_borrow_mut().is_err()
    }

    /// The clock's time now.
    pub(crate) fn now(&self) -> Instant {
        self.clock.now()
    }
}

/// The scheduler event that carries out `effect`.
pub(crate) fn event_for(effect: Effect) -> Event {
    match effect {
        Effect::Redraw | Effect::RedrawNow => Event::Changed,
        Effect::Turn(game) => Event::Turn(game),
        Effect::Resumed => Event::Resume,
        Effect::StartHint => Event::Hint,
        Effect::Save => Event::Save,
        Effect::Review => Event::Review,
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::collections::BTreeSet;
    use std::rc::Rc;
    use std::time::Duration;

    use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Size;

    use super::Journal;
    use crate::app::{App, LiveConfig, Message};
    use crate::engines::RunLimit;
    use crate::tasks::clock::SystemClock;
    use crate::tasks::live::{Live, initial_state};
    use crate::ui::Chrome;

    const SIZE: Size = Size::new(100, 30);

    /// A frame of `app` as the tests draw it: the clock fixed.
    fn frame(app: &App) -> Buffer {
        let chrome = Chrome {
            clock: "12:00:00  up 00:00:05".into(),
        };
        let mut terminal = Terminal::new(TestBackend::new(SIZE.width, SIZE.height)).unwrap();
        terminal.draw(|f| crate::ui::draw(f, app, &chrome)).unwrap();
        terminal.backend().buffer().clone()
    }

    fn key(code: KeyCode, modifiers: KeyModifiers) -> TermEvent {
        TermEvent::Key(KeyEvent::new(code, modifiers))
    }

    /// Every change passes the door: a run's messages, replayed in order
    /// to a fresh state, give the same frames and the same games. (A change
    /// made past the door would be missing from the replay.)
    #[test]
    fn a_recorded_run_replays_to_the_same_state_and_frames() {
        // A learning seat in every game: the learner's figures on the Load
        // tab come by message too.
        let table = kxo_engine::learner::ValueTable::new(kxo_engine::Rules::default_rules());
        let config = LiveConfig {
            games: 4,
            delay: Duration::ZERO,
            hold: Duration::from_millis(40),
            limit: RunLimit::Millis(2),
            seed: 11,
            fps: 60,
            o: Some(kxo_engine::BuiltIn::Rl.into()),
            rl: Some(Rc::new(RefCell::new(table))),
            ..LiveConfig::default()
        };
        let journal: Journal = Rc::default();
        let frames: Rc<RefCell<Vec<Buffer>>> = Rc::default();
        let seen = frames.clone();
        let hook = Box::new(move |app: &App, _: &Chrome| seen.borrow_mut().push(frame(app)));
        let terminal = Terminal::new(TestBackend::new(SIZE.width, SIZE.height)).unwrap();
        let clock = Rc::new(SystemClock);
        let mut live = Live::new(
            config.clone(),
            terminal,
            clock,
            Some(hook),
            Some(journal.clone()),
        )
        .unwrap();
        let started = live.state().started();
        // Keys along the way: another tab, pause and resume, a game
        // selected and zoomed and back, the Load tab; then quit (after the
        // first load sample, at 5 s).
        let ctrl = KeyModifiers::CONTROL;
        let mut keys = vec![
            (300, key(KeyCode::Tab, KeyModifiers::NONE)),
            (600, key(KeyCode::Char('p'), ctrl)),
            (900, key(KeyCode::Char('p'), ctrl)),
            (1_200, key(KeyCode::Right, KeyModifiers::NONE)),
            (1_500, key(KeyCode::Enter, KeyModifiers::NONE)),
            (1_800, key(KeyCode::Esc, KeyModifiers::NONE)),
            (2_100, key(KeyCode::Char('W'), KeyModifiers::SHIFT)),
            (5_300, key(KeyCode::Char('q'), ctrl)),
        ]
        .into_iter();
        let mut next_key = keys.next();
        while live.step().unwrap() {
            if let Some((at, event)) = next_key.clone()
                && started.elapsed() >= Duration::from_millis(at)
            {
                live.push_input(event);
                next_key = keys.next();
            }
            if live.sched.ready_count() == 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            // hang guard: the keys above end the run in a few seconds
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "the run never quit"
            );
        }
        // The run had every kind of change worth replaying.
        let kinds: BTreeSet<String> = journal
            .borrow()
            .iter()
            .map(|(m, _)| {
                format!("{m:?}")
                    .split([' ', '('])
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect();
        for kind in [
            "Input",
            "Moved",
            "Thinking",
            "Work",
            "Restart",
            "LoadSampled",
            "Learned",
            "Measured",
            "Frame",
        ] {
            assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
        }
        // The replay.
        let mut app = initial_state(config, started, Some(SIZE));
        let mut replayed = Vec::new();
        for (message, at) in journal.borrow().iter().cloned() {
            let is_frame = message == Message::Frame;
            app.update(message, at);
            if is_frame {
                replayed.push(frame(&app));
            }
        }
        let drawn = frames.borrow();
        assert!(drawn.len() > 50, "{} frames", drawn.len());
        assert_eq!(replayed.len(), drawn.len());
        for (i, (a, b)) in drawn.iter().zip(&replayed).enumerate() {
            assert_eq!(a, b, "frame {i} differs");
        }
        let original = live.state();
        assert!(original.totals().finished >= 4, "{:?}", original.totals());
        assert_eq!(app.totals(), original.totals());
        for (a, b) in app.games().iter().zip(original.games()) {
            assert_eq!(a.record.moves, b.record.moves);
        }
        assert!(app.quit());
    }
}
