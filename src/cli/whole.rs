//! Whole numbers for the options: one reader, so that every numeric
//! option says the same thing about a wrong value, and says what it
//! wants ("-5 is not a whole number from 1 to 600000"), where clap's own
//! readers say "invalid digit found in string" (for `u64`) or "-5 is not
//! in 1..=600000" (Rust's range syntax).

use std::ops::{Bound, RangeBounds};

/// An option's unsigned type, and its largest value: an open range ends
/// there, and says so.
pub(crate) trait Whole: TryFrom<u64> {
    const MAX: u64;
}

macro_rules! whole_types {
    ($($t:ty),*) => {$(
        impl Whole for $t {
            const MAX: u64 = <$t>::MAX as u64;
        }
    )*};
}
whole_types!(u8, u16, u32, u64);

/// A reader of a whole number within `range` (and within `T`), as a `T`.
pub(crate) fn whole<T: Whole>(
    range: impl RangeBounds<u64> + Clone + Send + Sync + 'static,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    let low = match range.start_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n.saturating_add(1),
        Bound::Unbounded => 0,
    };
    let high = match range.end_bound() {
        Bound::Included(&n) => n,
        Bound::Excluded(&n) => n.saturating_sub(1),
        Bound::Unbounded => T::MAX,
    }
    .min(T::MAX);
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|n| (low..=high).contains(n))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| {
                format!(
                    "'{}' is not a whole number from {low} to {high}",
                    kxo_engine::text::shown(text)
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_in_range_is_read_as_the_options_type() {
        assert_eq!(whole::<u8>(3..=8)("5"), Ok(5u8));
        assert_eq!(whole::<u64>(..)("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(whole::<u32>(1..)("4294967295"), Ok(u32::MAX));
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
    }

    #[test]
    fn an_open_range_ends_at_the_types_limit_and_says_so() {
        let beyond = "18446744073709551616";
        assert_eq!(
            whole::<u64>(..)(beyond),
            Err(format!(
                "'{beyond}' is not a whole number from 0 to {}",
                u64::MAX
            ))
        );
        assert_eq!(
            whole::<u32>(1..)("4294967296"),
            Err("'4294967296' is not a whole number from 1 to 4294967295".to_string())
        );
        assert_eq!(
            whole::<u64>(..)("-1"),
            Err(format!("'-1' is not a whole number from 0 to {}", u64::MAX))
        );
    }
}
