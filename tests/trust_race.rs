//! A path checked, then used (issue 69, the first fault): another user
//! swaps their folder and a link of theirs (`renameat2` with
//! `RENAME_EXCHANGE`) again and again while a run as root writes into
//! the folder. Whatever the gate does with the path, every way it writes
//! (a new file, a replace, a staged write, an append, a lock, a folder
//! made), nothing may land where the link points: each step is taken
//! from the folder the walk opened, never from the name again.

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use kxo_tui::gate::{self, Kind, Ours};

const TEST_FILE: Kind = Kind {
    what: "test file",
    max_bytes: 1 << 16,
    max_line: 1 << 10,
    ours: Ours::Prefix(b"KXO"),
};

fn c_path(path: &Path) -> CString {
    CString::new(path.as_os_str().as_bytes()).expect("a path without NUL")
}

/// Every write the gate has, once, at names under `folder`.
fn write_every_way(folder: &Path, round: usize) {
    let name = |what: &str| folder.join(format!("{what}-{round}"));
    let _ = gate::replace(&name("replaced"), TEST_FILE, b"KXO replaced");
    let _ = gate::write_new(&name("new"), TEST_FILE, b"KXO new");
    if let Ok(staged) = gate::stage(&name("staged"), TEST_FILE, b"KXO staged") {
        let _ = staged.commit();
    }
    if let Ok((mut appender, _)) = gate::Appender::open(&name("appended"), TEST_FILE, b"KXO") {
        let _ = appender.append(b"a line");
    }
    let _ = gate::lock_beside(&name("locked"), TEST_FILE);
    let _ = gate::make_folder(&name("made"), TEST_FILE.what);
}

#[test]
fn a_folder_swapped_for_a_link_while_it_is_written_sends_nothing_through_the_link() {
    // SAFETY: geteuid(2) cannot fail.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: needs root to make a folder and a link of another user");
        return;
    }
    // Root's private folder, with the same inner folder as the target.
    let private = tempfile::tempdir().expect("private dir");
    fs::set_permissions(private.path(), fs::Permissions::from_mode(0o700)).expect("chmod");
    fs::create_dir(private.path().join("r")).expect("private r");
    // The other user's folder (theirs alone: not sticky, so the kernel's
    // own protected_symlinks rule never applies), a real folder `x` with
    // `r` in it, and `y`, their link to root's private folder.
    let theirs = tempfile::tempdir().expect("their dir");
    let nobody = Some(65534);
    for folder in [theirs.path().to_path_buf(), theirs.path().join("x")] {
        if folder != theirs.path() {
            fs::create_dir(&folder).expect("x");
        }
        fs::set_permissions(&folder, fs::Permissions::from_mode(0o755)).expect("chmod");
        std::os::unix::fs::chown(&folder, nobody, nobody).expect("chown");
    }
    fs::create_dir(theirs.path().join("x/r")).expect("x/r");
    let link = theirs.path().join("y");
    symlink(private.path(), &link).expect("link");
    std::os::unix::fs::lchown(&link, nobody, nobody).expect("lchown");

    // The swapper: x and y exchanged as fast as the kernel allows.
    let stop = Arc::new(AtomicBool::new(false));
    let swaps = Arc::new(AtomicU64::new(0));
    let swapper = {
        let (stop, swaps) = (stop.clone(), swaps.clone());
        let (x, y) = (c_path(&theirs.path().join("x")), c_path(&link));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                // SAFETY: renameat2(2) on two NUL-terminated paths.
                let done = unsafe {
                    libc::renameat2(
                        libc::AT_FDCWD,
                        x.as_ptr(),
                        libc::AT_FDCWD,
                        y.as_ptr(),
                        libc::RENAME_EXCHANGE,
                    )
                };
                assert_eq!(done, 0, "{}", std::io::Error::last_os_error());
                swaps.fetch_add(1, Ordering::Relaxed);
            }
        })
    };
    let folder = theirs.path().join("x/r");
    for round in 0..1500 {
        write_every_way(&folder, round);
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().expect("the swapper");
    assert!(
        swaps.load(Ordering::Relaxed) > 1000,
        "the folder hardly moved"
    );

    let landed: Vec<_> = fs::read_dir(private.path().join("r"))
        .expect("private r")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(
        landed.is_empty(),
        "written into root's private folder through their link: {landed:?}"
    );
    // And the writes were not all refused: in their folder, the files are.
    let written = ["x/r", "y/r"]
        .iter()
        .filter_map(|f| fs::read_dir(theirs.path().join(f)).ok())
        .flat_map(|entries| entries.flatten())
        .count();
    assert!(written > 0, "nothing was written at all");
}
