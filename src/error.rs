//! Errors every layer may raise and the program reports the same way.

/// Bad input from the user (a flag, a file's content, a board out of
/// range): reported in one line, exit status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}
