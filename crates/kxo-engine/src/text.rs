//! Text that came from outside (a brain's output, a file name, an
//! argument, a file's contents), made safe to show: control characters
//! escaped so that nothing reaches the terminal as a command, and cut to a
//! length a line can hold, saying how much was cut.

use std::path::Path;

/// The most characters of outside text shown in one place.
pub const SHOWN_MAX: usize = 200;

/// `text` with every control character escaped (`\e`, `\n`, `\x07`,
/// `\u{9b}`…) and cut to [`SHOWN_MAX`] characters, with a note of how much
/// more there was.
pub fn shown(text: &str) -> String {
    shown_within(text, SHOWN_MAX)
}

/// [`shown`] with another length limit (in characters of the original).
pub fn shown_within(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max * 2));
    for (count, ch) in text.chars().enumerate() {
        if count == max {
            let rest = text.chars().count() - count;
            out.push_str(&format!("… ({rest} more characters)"));
            break;
        }
        escape_into(ch, &mut out);
    }
    out
}

/// A path as [`shown`] shows text (a file name is bytes: what is not UTF-8
/// shows as U+FFFD).
pub fn shown_path(path: &Path) -> String {
    shown(&path.to_string_lossy())
}

fn escape_into(ch: char, out: &mut String) {
    match ch {
        '\x1b' => out.push_str("\\e"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\\' => out.push('\\'),
        c if (c as u32) < 0x20 || c == '\x7f' => out.push_str(&format!("\\x{:02x}", c as u32)),
        // C1 controls (U+0080..U+009F): some terminals read U+009B as CSI.
        c if ('\u{80}'..='\u{9f}').contains(&c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        // Bidirectional overrides and isolates reorder what follows them.
        c if matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') => {
            out.push_str(&format!("\\u{{{:x}}}", c as u32))
        }
        c => out.push(c),
    }
}

/// Formats an integer with thousands separators: 1234567 → "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Whether `text` holds nothing a terminal would take as a command.
pub fn is_inert(text: &str) -> bool {
    !text.chars().any(|c| {
        (c as u32) < 0x20
            || c == '\x7f'
            || ('\u{80}'..='\u{9f}').contains(&c)
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(shown("\x1b[2J\x1b]0;owned\x07"), "\\e[2J\\e]0;owned\\x07");
        assert_eq!(shown("a\nb\tc\r"), "a\\nb\\tc\\r");
        assert_eq!(shown("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(shown("x\u{202e}y"), "x\\u{202e}y");
        assert_eq!(shown("plain B2 → C3, ✓"), "plain B2 → C3, ✓");
        assert!(is_inert(&shown("\x1b\x00\x7f\u{85}\u{2067}")));
        assert!(!is_inert("\x1b"));
    }

    #[test]
    fn long_text_is_cut_and_says_how_much() {
        let long = "é".repeat(100_000);
        let s = shown(&long);
        assert!(s.starts_with(&"é".repeat(SHOWN_MAX)));
        assert!(
            s.ends_with("… (99800 more characters)"),
            "{}",
            &s[s.len() - 40..]
        );
        assert_eq!(shown(&"x".repeat(SHOWN_MAX)), "x".repeat(SHOWN_MAX));
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn paths_that_are_not_utf8_are_shown() {
        use std::os::unix::ffi::OsStrExt;
        let p = Path::new(std::ffi::OsStr::from_bytes(b"/tmp/\xff\x1b[31m.model"));
        assert_eq!(shown_path(p), "/tmp/\u{fffd}\\e[31m.model");
    }
}
