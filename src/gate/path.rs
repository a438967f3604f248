//! Paths resolved one component at a time, with the kernel's
//! `protected_symlinks` rule applied by the program itself: in a sticky
//! folder that anyone can write (like /tmp), a link is followed only when
//! we or the folder's owner made it. The kernel applies that rule only
//! when `fs.protected_symlinks` is on, and only to the components it
//! opens; kxo-tui applies it to every component of every path it uses,
//! whatever the setting.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Component, Path, PathBuf};

use super::{FileError, euid};

/// Links followed at most in one path, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// The real path `path` names: every folder on the way a real folder,
/// every link on the way followed when it is safe to (see the module's
/// comment). The last component need not exist yet; when it does, it is
/// the real file (a link there is followed under the same rule). A
/// folder on the way that does not exist is refused.
pub fn resolve(path: &Path, what: &'static str) -> Result<PathBuf, FileError> {
    walk(path, what, false)
}

/// As [`resolve`], for a path that must name a folder (which need not
/// exist yet).
pub fn resolve_folder(path: &Path, what: &'static str) -> Result<PathBuf, FileError> {
    let real = walk(path, what, true)?;
    match fs::symlink_metadata(&real) {
        Ok(meta) if !meta.is_dir() => Err(FileError::refused(
            what,
            path,
            format!("{}, not a folder", describe(&meta)),
        )),
        _ => Ok(real),
    }
}

/// Makes the folder `path` and the folders above it that are missing
/// (mode 0755), never through a link: each existing component is resolved
/// by [`resolve_folder`]'s rule first. Returns its real path.
pub fn make_folder(path: &Path, what: &'static str) -> Result<PathBuf, FileError> {
    let real = walk(path, what, true)?;
    let mut missing = Vec::new();
    let mut existing = real.as_path();
    while fs::symlink_metadata(existing).is_err() {
        missing.push(existing.to_path_buf());
        existing = existing.parent().unwrap_or(Path::new("/"));
    }
    for folder in missing.iter().rev() {
        match fs::DirBuilder::new().mode(0o755).create(folder) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(FileError::io(what, path, "made (its folder)", e)),
        }
        // Whatever is there now must be a real folder, not a link planted
        // between our check and our mkdir.
        match fs::symlink_metadata(folder) {
            Ok(meta) if meta.is_dir() => {}
            Ok(meta) => {
                return Err(FileError::refused(
                    what,
                    path,
                    format!(
                        "{} is {}, not a folder",
                        kxo_engine::text::shown_path(folder),
                        describe(&meta)
                    ),
                ));
            }
            Err(e) => return Err(FileError::io(what, path, "made (its folder)", e)),
        }
    }
    resolve_folder(path, what)
}

/// The walk: `missing_ok_folders` lets folders at the end be missing too
/// (for a folder to be made), else only the last component may be.
fn walk(path: &Path, what: &'static str, missing_ok_folders: bool) -> Result<PathBuf, FileError> {
    if path.as_os_str().is_empty() {
        return Err(FileError::refused(what, path, "an empty path"));
    }
    let absolute = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir()
            .map_err(|e| FileError::io(what, path, "found (no current folder)", e))?
            .join(path)
    };
    let mut pending: VecDeque<OsString> = names(&absolute);
    let mut real = PathBuf::from("/");
    let mut links = 0;
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            // `real` is a real folder: its parent is the real parent.
            real.pop();
            continue;
        }
        let candidate = real.join(&name);
        let meta = match fs::symlink_metadata(&candidate) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if pending.is_empty() || missing_ok_folders {
                    // Whatever follows is made by us, inside a real folder.
                    let mut out = candidate;
                    for rest in pending {
                        if rest == ".." {
                            out.pop();
                        } else {
                            out.push(rest);
                        }
                    }
                    return Ok(out);
                }
                return Err(FileError::refused(
                    what,
                    path,
                    format!(
                        "its folder {} does not exist",
                        kxo_engine::text::shown_path(&candidate)
                    ),
                ));
            }
            Err(e) => return Err(FileError::io(what, path, "examined", e)),
        };
        if meta.file_type().is_symlink() {
            links += 1;
            if links > MAX_LINKS {
                return Err(FileError::refused(what, path, "too many links"));
            }
            if !may_follow(&meta, &real) {
                return Err(FileError::refused(
                    what,
                    path,
                    format!(
                        "{} is a link another user (uid {}) made: not followed",
                        kxo_engine::text::shown_path(&candidate),
                        meta.uid()
                    ),
                ));
            }
            let target =
                fs::read_link(&candidate).map_err(|e| FileError::io(what, path, "read", e))?;
            if target.is_absolute() {
                real = PathBuf::from("/");
            }
            for name in names(&target).into_iter().rev() {
                pending.push_front(name);
            }
            continue;
        }
        if !pending.is_empty() && !meta.is_dir() {
            return Err(FileError::refused(
                what,
                path,
                format!(
                    "{} is {}, not a folder",
                    kxo_engine::text::shown_path(&candidate),
                    describe(&meta)
                ),
            ));
        }
        real = candidate;
    }
    Ok(real)
}

/// The names of a path's components (`.` dropped, `..` kept).
fn names(path: &Path) -> VecDeque<OsString> {
    path.components()
        .filter_map(|c| match c {
            Component::Normal(name) => Some(name.to_os_string()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
        })
        .collect()
}

/// Whether a link may be followed: only one we or root made, wherever it
/// sits. Stricter than the kernel's `protected_symlinks` (which trusts, in
/// a sticky folder, the folder's owner too, and elsewhere anyone): a
/// folder another user made is theirs to fill with links to our files,
/// and what we write through one would land where they chose.
fn may_follow(link: &fs::Metadata, _folder: &Path) -> bool {
    link.uid() == euid() || link.uid() == 0
}

/// What a file is, in words: "a FIFO", "a folder"…
pub(super) fn describe(meta: &fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_file() {
        "a regular file"
    } else if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a link"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    /// A sticky, world-writable folder like /tmp, and a link in it that
    /// "another user" (uid 65534) owns, pointing at `target`.
    fn shared_link_to(target: &Path) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o1777)).unwrap();
        let link = dir.path().join("planted");
        symlink(target, &link).unwrap();
        std::os::unix::fs::lchown(&link, Some(65534), Some(65534)).unwrap();
        (dir, link)
    }

    #[test]
    fn plain_paths_resolve_to_themselves_and_dots_are_folded() {
        let dir = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir(real.join("a")).unwrap();
        assert_eq!(
            resolve(&real.join("a/../a/./f"), "test").unwrap(),
            real.join("a/f")
        );
        // A missing folder on the way is refused; one to be made is not.
        let err = resolve(&real.join("nope/f"), "test").unwrap_err();
        assert!(err.problem.contains("does not exist"), "{err}");
        assert_eq!(
            resolve_folder(&real.join("x/y"), "test").unwrap(),
            real.join("x/y")
        );
        assert_eq!(
            make_folder(&real.join("x/y"), "test").unwrap(),
            real.join("x/y")
        );
        assert!(real.join("x/y").is_dir());
        // A file on the way is not a folder.
        fs::write(real.join("file"), "").unwrap();
        assert!(resolve(&real.join("file/f"), "test").is_err());
        assert!(resolve_folder(&real.join("file"), "test").is_err());
    }

    #[test]
    fn a_link_is_followed_as_a_folder_and_as_the_name_when_it_is_ours() {
        let dir = tempfile::tempdir().unwrap();
        let real = fs::canonicalize(dir.path()).unwrap();
        fs::create_dir(real.join("target")).unwrap();
        symlink(real.join("target"), real.join("via")).unwrap();
        symlink("target/f", real.join("name")).unwrap();
        assert_eq!(
            resolve(&real.join("via/f"), "test").unwrap(),
            real.join("target/f")
        );
        assert_eq!(
            resolve(&real.join("name"), "test").unwrap(),
            real.join("target/f")
        );
        // A loop of links ends.
        symlink(real.join("loop"), real.join("loop")).unwrap();
        assert!(resolve(&real.join("loop/f"), "test").is_err());
    }

    #[test]
    fn another_users_link_in_a_shared_folder_is_not_followed_anywhere_in_the_path() {
        if euid() != 0 {
            return; // a link owned by another user needs root to make
        }
        let elsewhere = tempfile::tempdir().unwrap();
        let (_shared, link) = shared_link_to(elsewhere.path());
        // As a folder on the way, and as the name itself.
        for path in [link.join("model"), link.clone()] {
            let err = resolve(&path, "test").unwrap_err();
            assert!(err.problem.contains("not followed"), "{err}");
        }
        assert!(resolve_folder(&link, "test").is_err());
        assert!(make_folder(&link.join("sub"), "test").is_err());
        assert!(!elsewhere.path().join("sub").exists());
    }

    #[test]
    fn a_link_in_a_folder_another_user_made_is_not_followed() {
        if euid() != 0 {
            return; // a folder and a link of another user need root to make
        }
        // Their folder (not sticky, not world-writable: theirs alone), and
        // in it the name a run will write, a link to a file of ours.
        let ours = tempfile::tempdir().unwrap();
        let victim = ours.path().join("x");
        let theirs = tempfile::tempdir().unwrap();
        fs::set_permissions(theirs.path(), fs::Permissions::from_mode(0o755)).unwrap();
        std::os::unix::fs::chown(theirs.path(), Some(65534), Some(65534)).unwrap();
        let planted = theirs.path().join("game-0001.sgf");
        symlink(&victim, &planted).unwrap();
        std::os::unix::fs::lchown(&planted, Some(65534), Some(65534)).unwrap();
        let err = resolve(&planted, "test").unwrap_err();
        assert!(err.problem.contains("not followed"), "{err}");
        assert!(!victim.exists());
        // Root's own links are followed (the system's: /bin, /lib).
        std::os::unix::fs::lchown(&planted, Some(0), Some(0)).unwrap();
        assert_eq!(
            resolve(&planted, "test").unwrap(),
            fs::canonicalize(ours.path()).unwrap().join("x")
        );
    }
}
