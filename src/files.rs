//! Files the user names (records, proofs): written where asked, never
//! through a link planted at that name.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Creates or truncates `path` (mode 0644) and writes `bytes`, refusing
/// to follow a symbolic link at `path` itself (`O_NOFOLLOW`) and anything
/// there that is not a regular file (a FIFO, a device).
pub(crate) fn write_no_follow(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    file.set_len(0)?;
    file.write_all(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_at_the_name_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("victim");
        std::fs::write(&target, "keep").unwrap();
        let link = dir.path().join("out");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(write_no_follow(&link, b"new").is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        let plain = dir.path().join("plain");
        write_no_follow(&plain, b"one").unwrap();
        write_no_follow(&plain, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&plain).unwrap(), "two");
        // A FIFO with no reader, or /dev/null: refused, not blocked on.
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) on a NUL-terminated path we own.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert!(write_no_follow(&fifo, b"x").is_err());
        assert!(write_no_follow(Path::new("/dev/null"), b"x").is_err());
    }
}
