//! Whole numbers for the options: one reader, so that every numeric
//! option says the same thing about a wrong value, and says what it
//! wants ("-5 is not a whole number from 1 to 600000"), where clap's own
//! readers say "invalid digit found in string" (for `u64`) or "-5 is not
//! in 1..=600000" (Rust's range syntax).

use std::ops::{Bound, RangeBounds};

/// A reader of a whole number within `range`, as a `T` (the option's
/// type: the range must fit it).
pub(crate) fn whole<T>(
    range: impl RangeBounds<u64> + Clone + Send + Sync + 'static,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64>,
{
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|n| range.contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| format!("'{}' is not {}", crate::text::shown(text), wanted(&range)))
    }
}

/// What `range` asks for, in words.
fn wanted(range: &impl RangeBounds<u64>) -> String {
    let low = match range.start_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n.saturating_add(1),
        Bound::Unbounded => 0,
    };
    match range.end_bound() {
        Bound::Included(&high) => format!("a whole number from {low} to {high}"),
        Bound::Excluded(&high) => {
            format!("a whole number from {low} to {}", high.saturating_sub(1))
        }
        Bound::Unbounded => format!("a whole number, {low} or more"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_in_range_is_read_as_the_options_type() {
        assert_eq!(whole::<u8>(3..=8)("5"), Ok(5u8));
        assert_eq!(whole::<u64>(..)("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(whole::<u32>(1..)("1"), Ok(1u32));
    }

    #[test]
    fn anything_else_says_what_is_wanted() {
        for (text, said) in [
            ("-5", "'-5' is not a whole number from 1 to 600000"),
            ("0", "'0' is not a whole number from 1 to 600000"),
            ("600001", "'600001' is not a whole number from 1 to 600000"),
            ("1.5", "'1.5' is not a whole number from 1 to 600000"),
            ("ten", "'ten' is not a whole number from 1 to 600000"),
            ("", "'' is not a whole number from 1 to 600000"),
        ] {
            assert_eq!(whole::<u64>(1..=600_000)(text), Err(said.to_string()));
        }
        assert_eq!(
            whole::<u64>(..)("-1"),
            Err("'-1' is not a whole number, 0 or more".to_string())
        );
        // Beyond the type, though within the range's words.
        assert!(whole::<u32>(1..)("5000000000").is_err());
    }
}
