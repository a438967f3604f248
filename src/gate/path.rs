//! Paths resolved one component at a time, with the kernel's
//! `protected_symlinks` rule applied by the program itself: in a sticky
//! folder that anyone can write (like /tmp), a link is followed only when
//! we or the folder's owner made it. The kernel applies that rule only
//! when `fs.protected_symlinks` is on, and only to the components it
//! opens; kxo-tui applies it to every component of every path it uses,
//! whatever the setting.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

use super::{FileError, euid};

/// Links followed at most in one path, as the kernel's own limit.
const MAX_LINKS: usize = 40;

/// Folders made at most in one walk (a path's components, with room for
/// a few made again after someone removed them).
const MAX_MADE: usize = 4096;

/// Where a walk ends: the real folder that holds the name, held open, so
/// that what is done next is done there and nowhere else, whatever is
/// renamed or swapped on the way meanwhile (every `*at` call of the gate
/// starts from `folder`, never from the path again).
pub(super) struct Place {
    /// The folder, open (for reading, or as a path only when we may
    /// search it but not list it).
    pub(super) folder: OwnedFd,
    /// The last component: one name in `folder`, never `.` or `..`. What
    /// it names may not exist yet.
    pub(super) name: OsString,
    /// The real path of the name, for messages and lock names.
    pub(super) real: PathBuf,
}

impl Place {
    /// What stands at the name now, as itself (a link is not followed):
    /// `None` when nothing does.
    pub(super) fn stat(&self) -> io::Result<Option<rustix::fs::Stat>> {
        match rustix::fs::statat(
            &self.folder,
            self.name.as_os_str(),
            AtFlags::SYMLINK_NOFOLLOW,
        ) {
            Ok(stat) => Ok(Some(stat)),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Opens the name with `flags` (never following a link: `O_NOFOLLOW`
    /// and close-on-exec are always added).
    pub(super) fn open(&self, flags: OFlags, mode: u32) -> io::Result<fs::File> {
        open_in(&self.folder, &self.name, flags, mode)
    }

    /// Syncs the folder, so that a new name in it survives a crash (a
    /// folder open as a path only cannot be synced: skipped).
    pub(super) fn sync_folder(&self) {
        let _ = rustix::fs::fsync(&self.folder);
    }
}

/// Opens `name` in `folder`, never through a link.
pub(super) fn open_in(
    folder: &OwnedFd,
    name: &OsStr,
    flags: OFlags,
    mode: u32,
) -> io::Result<fs::File> {
    let fd = rustix::fs::openat(
        folder,
        name,
        flags | OFlags::NOFOLLOW | OFlags::CLOEXEC,
        Mode::from_raw_mode(mode),
    )?;
    Ok(fs::File::from(fd))
}

/// The real path `path` names: every folder on the way a real folder,
/// every link on the way followed when it is safe to (see the module's
/// comment). The last component need not exist yet; when it does, it is
/// the real file (a link there is followed under the same rule). A
/// folder on the way that does not exist is refused.
pub fn resolve(path: &Path, what: &'static str) -> Result<PathBuf, FileError> {
    place(path, what).map(|place| place.real)
}

/// As [`resolve`], with the folder that holds the name held open: what
/// the gate reads and writes is reached from there.
pub(super) fn place(path: &Path, what: &'static str) -> Result<Place, FileError> {
    match walk(path, what, Folders::MustExist)? {
        Walked::Reached(place) => Ok(place),
        // Not reached: a missing folder is refused under `MustExist`.
        Walked::Missing(real) => Err(missing_folder(path, what, &real)),
    }
}

/// As [`resolve`], for a path that must name a folder (which need not
/// exist yet).
pub fn resolve_folder(path: &Path, what: &'static str) -> Result<PathBuf, FileError> {
    match walk(path, what, Folders::MayBeMissing)? {
        Walked::Missing(real) => Ok(real),
        Walked::Reached(place) => {
            let stat = place
                .stat()
                .map_err(|e| FileError::io(what, path, "examined", e))?;
            match stat.map(|s| FileType::from_raw_mode(s.st_mode)) {
                Some(FileType::Directory) | None => Ok(place.real),
                Some(other) => Err(FileError::refused(
                    what,
                    path,
                    format!("{}, not a folder", describe_type(other)),
                )),
            }
        }
    }
}

/// Makes the folder `path` and the folders above it that are missing
/// (mode 0755), never through a link: each is made inside the real
/// folder the walk holds open, and opened again without following a link
/// before the walk goes on. Returns its real path.
pub fn make_folder(path: &Path, what: &'static str) -> Result<PathBuf, FileError> {
    let Walked::Reached(place) = walk(path, what, Folders::Make)? else {
        return Err(FileError::refused(
            what,
            path,
            "its folders could not be made",
        ));
    };
    match rustix::fs::mkdirat(
        &place.folder,
        place.name.as_os_str(),
        Mode::from_raw_mode(0o755),
    ) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
        Err(e) => return Err(FileError::io(what, path, "made (its folder)", e.into())),
    }
    // Whatever is there now must be a real folder (or a link of ours to
    // one), not a link planted between our check and our mkdir: walked
    // again by the same rule.
    let now = self::place(path, what)?;
    match now
        .stat()
        .map_err(|e| FileError::io(what, path, "made (its folder)", e))?
        .map(|s| FileType::from_raw_mode(s.st_mode))
    {
        Some(FileType::Directory) => Ok(now.real),
        Some(other) => Err(FileError::refused(
            what,
            path,
            format!(
                "{} is {}, not a folder",
                kxo_engine::text::shown_path(&now.real),
                describe_type(other)
            ),
        )),
        None => Err(FileError::refused(what, path, "vanished as it was made")),
    }
}

/// What a walk may meet on the way: a missing folder refused, allowed
/// (a folder to be made later, or a folder path that need not exist), or
/// made there and then.
#[derive(Clone, Copy, PartialEq)]
enum Folders {
    MustExist,
    MayBeMissing,
    Make,
}

/// The end of a walk: the place reached, or (folders allowed missing)
/// the real path the missing folders would have.
enum Walked {
    Reached(Place),
    Missing(PathBuf),
}

fn missing_folder(path: &Path, what: &'static str, real: &Path) -> FileError {
    FileError::refused(
        what,
        path,
        format!(
            "its folder {} does not exist",
            kxo_engine::text::shown_path(real)
        ),
    )
}

/// The walk: one component at a time, each folder opened inside the one
/// before without following a link (`O_NOFOLLOW | O_DIRECTORY`), a link
/// met on the way read and followed only under [`may_follow`]'s rule. The
/// folders are kept open, so `..` goes back to the real parent.
fn walk(path: &Path, what: &'static str, folders: Folders) -> Result<Walked, FileError> {
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
    let examined = |e: io::Error| FileError::io(what, path, "examined", e);
    let root = || open_folder_in(rustix::fs::CWD, OsStr::new("/"));
    // The folders walked through, from the root: (the folder, its real path).
    let mut stack: Vec<(OwnedFd, PathBuf)> = vec![(root().map_err(examined)?, PathBuf::from("/"))];
    let mut pending: VecDeque<OsString> = names(&absolute);
    let (mut links, mut made) = (0, 0);
    while let Some(name) = pending.pop_front() {
        if name == ".." {
            if stack.len() > 1 {
                stack.pop();
            }
            continue;
        }
        let Some((folder, real)) = stack.last() else {
            return Err(FileError::refused(what, path, "no folder to start from"));
        };
        let candidate = real.join(&name);
        let last = pending.is_empty();
        if !last {
            match open_folder_in(folder, &name) {
                Ok(fd) => {
                    stack.push((fd, candidate));
                    continue;
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => match folders {
                    Folders::MustExist => return Err(missing_folder(path, what, &candidate)),
                    Folders::MayBeMissing => {
                        return Ok(Walked::Missing(fold_rest(candidate, pending)));
                    }
                    Folders::Make => {
                        made += 1;
                        make_on_the_way(folder, &name, made, path, what)?;
                        // Opened again from the top of the loop, as any
                        // folder: a link put there meanwhile is judged.
                        pending.push_front(name);
                        continue;
                    }
                },
                // A link, or not a folder: looked at as itself below.
                Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::ENOTDIR)) => {}
                Err(e) => return Err(examined(e)),
            }
        }
        let stat = match rustix::fs::statat(folder, name.as_os_str(), AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Some(stat),
            Err(rustix::io::Errno::NOENT) => None,
            Err(e) => return Err(examined(e.into())),
        };
        let kind = stat.map(|s| FileType::from_raw_mode(s.st_mode));
        if kind == Some(FileType::Symlink) {
            links += 1;
            if links > MAX_LINKS {
                return Err(FileError::refused(what, path, "too many links"));
            }
            let owner = stat.map_or(u32::MAX, |s| s.st_uid);
            let target = link_target(folder, &name, owner, &candidate, path, what)?;
            if target.is_absolute() {
                stack.truncate(1);
            }
            for name in names(&target).into_iter().rev() {
                pending.push_front(name);
            }
            continue;
        }
        if !last {
            // Not a link and not openable as a folder: a file on the way,
            // or a folder gone between the two looks.
            let shown = kxo_engine::text::shown_path(&candidate);
            return Err(match kind {
                Some(kind) => FileError::refused(
                    what,
                    path,
                    format!("{shown} is {}, not a folder", describe_type(kind)),
                ),
                None => missing_folder(path, what, &candidate),
            });
        }
        let Some((folder, _)) = stack.pop() else {
            return Err(FileError::refused(what, path, "no folder to start from"));
        };
        return Ok(Walked::Reached(Place {
            folder,
            name,
            real: candidate,
        }));
    }
    place_of_folder(stack, path, what)
}

/// Makes the missing folder `name` inside `folder` on a walk (the
/// `made`-th made), or says why not.
fn make_on_the_way(
    folder: &OwnedFd,
    name: &OsStr,
    made: usize,
    path: &Path,
    what: &'static str,
) -> Result<(), FileError> {
    if made > MAX_MADE {
        return Err(FileError::refused(
            what,
            path,
            "its folders vanish as they are made",
        ));
    }
    match rustix::fs::mkdirat(folder, name, Mode::from_raw_mode(0o755)) {
        Ok(()) | Err(rustix::io::Errno::EXIST) => Ok(()),
        Err(e) => Err(FileError::io(what, path, "made (its folder)", e.into())),
    }
}

/// Where the link `name` in `folder` (owned by `owner`, at the real path
/// `candidate`) points, when it may be followed.
fn link_target(
    folder: &OwnedFd,
    name: &OsStr,
    owner: u32,
    candidate: &Path,
    path: &Path,
    what: &'static str,
) -> Result<PathBuf, FileError> {
    if !may_follow(owner) {
        return Err(FileError::refused(
            what,
            path,
            format!(
                "{} is a link another user (uid {owner}) made: not followed",
                kxo_engine::text::shown_path(candidate),
            ),
        ));
    }
    let target = rustix::fs::readlinkat(folder, name, Vec::new())
        .map_err(|e| FileError::io(what, path, "read", e.into()))?;
    Ok(PathBuf::from(OsStr::from_bytes(target.as_bytes())))
}

/// The place of a path that named a folder itself (`/`, or one ending in
/// `..`): its parent's folder, under its own name.
fn place_of_folder(
    mut stack: Vec<(OwnedFd, PathBuf)>,
    path: &Path,
    what: &'static str,
) -> Result<Walked, FileError> {
    let Some((_, real)) = stack.pop() else {
        return Err(FileError::refused(what, path, "no folder to start from"));
    };
    match (real.file_name().map(OsStr::to_os_string), stack.pop()) {
        (Some(name), Some((folder, _))) => Ok(Walked::Reached(Place { folder, name, real })),
        _ => Err(FileError::refused(
            what,
            path,
            "the root folder, not a file",
        )),
    }
}

/// `real` with the rest of a path folded on (`..` taken back).
fn fold_rest(mut real: PathBuf, rest: VecDeque<OsString>) -> PathBuf {
    for name in rest {
        if name == ".." {
            real.pop();
        } else {
            real.push(name);
        }
    }
    real
}

/// Opens the folder `name` inside `folder`, never through a link: for
/// reading, or as a path only where we may pass through but not list.
fn open_folder_in<Fd: AsFd>(folder: Fd, name: &OsStr) -> io::Result<OwnedFd> {
    let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    match rustix::fs::openat(&folder, name, flags | OFlags::RDONLY, Mode::empty()) {
        Err(rustix::io::Errno::ACCESS) => Ok(rustix::fs::openat(
            &folder,
            name,
            flags | OFlags::PATH,
            Mode::empty(),
        )?),
        other => Ok(other?),
    }
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
fn may_follow(owner: u32) -> bool {
    owner == euid() || owner == 0
}

/// What a file of a type is, in words.
pub(super) fn describe_type(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a folder",
        FileType::Symlink => "a link",
        FileType::Fifo => "a FIFO",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Socket => "a socket",
        FileType::Unknown => "not a regular file",
    }
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
