//! Human mode's files task: writes the game the person asked to save
//! (`s`) through the gate, in the folder kxo-tui runs in, and says which
//! files it wrote or why it could not.

use super::door::Door;
use super::requests::next_request;
use super::scheduler::{Ctx, Event};
use crate::app::Message;

/// The body of the files task: waits for a save request, writes, answers.
pub(crate) fn run_files(ctx: &Ctx, door: Door, dir: std::path::PathBuf) {
    let mut last_id = 0;
    loop {
        let (id, request) = next_request(ctx, &door, Event::Save, last_id, |h| {
            h.save_request.clone().map(|r| (r.id, r))
        });
        last_id = id;
        let answer = crate::tournament::records::save_game(
            &dir,
            &request.game,
            request.rules,
            request.finished,
        )
        .map(|files| {
            files
                .iter()
                .map(|f| f.file_name().unwrap_or(f.as_os_str()).to_string_lossy())
                .map(|name| kxo_engine::text::shown(&name))
                .collect()
        })
        .map_err(|e| e.to_string());
        door.send(Message::Saved {
            id: request.id,
            answer,
        });
    }
}
