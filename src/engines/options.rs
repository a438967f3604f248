//! The text of engine options: numbers in their ranges, the options of
//! outside programs (`restart=`, a brain's `memory=`, `nodes=`, `depth=`,
//! `settle=`, `option.NAME=`) and game clocks (`BASE+INC`).

use super::BrainInfo;
use crate::protocol::outside::BrainCommand;
use kxo_engine::text::shown;

/// `value` as a number from `min` to `max`, or why not.
pub(super) fn number(key: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    value
        .parse::<u64>()
        .ok()
        .filter(|v| (min..=max).contains(v))
        .ok_or_else(|| {
            format!(
                "{key}: '{}' is not a number from {min} to {max}",
                shown(value)
            )
        })
}

/// Every outside program's options, either protocol: `restart=on|off`,
/// `cwd=own|run`.
pub(super) fn read_outside_option(
    command: &mut BrainCommand,
    info: &mut BrainInfo,
    key: &str,
    value: &str,
) -> Result<bool, String> {
    match (key, value) {
        ("cwd", "own") => command.own_folder = true,
        ("cwd", "run") => command.own_folder = false,
        ("cwd", other) => {
            return Err(format!(
                "cwd: '{}' is not own (the program's folder) or run (kxo-tui's)",
                shown(other)
            ));
        }
        ("restart", value) => info.keep_process = !on_or_off("restart", value)?,
        _ => return Ok(false),
    }
    Ok(true)
}

/// `on` or `off`, as true or false.
fn on_or_off(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("{key}: '{}' is not on or off", shown(other))),
    }
}

/// A brain's own options: `memory=`, `nodes=`, `depth=`, `settle=`,
/// `option.NAME=`.
pub(super) fn read_brain_option(
    info: &mut BrainInfo,
    key: &str,
    value: &str,
) -> Result<bool, String> {
    match key {
        "memory" => info.memory_mb = Some(number(key, value, 1, 1 << 20)?),
        "nodes" => info.nodes = Some(number(key, value, 1, u64::MAX >> 1)?),
        "depth" => info.depth = Some(number(key, value, 1, 1000)?),
        "settle" => info.settle_ms = Some(number(key, value, 0, 1000)?),
        "suspend" => info.run_idle = !on_or_off(key, value)?,
        "memory-check" => info.memory_unchecked = !on_or_off(key, value)?,
        option if option.starts_with("option.") => {
            let name = &option["option.".len()..];
            let plain = |t: &str| {
                !t.is_empty()
                    && t.len() <= 64
                    && t.chars().all(|c| c.is_ascii_graphic() && c != ',')
            };
            let reserved = crate::protocol::outside::RESERVED_INFO_KEYS
                .iter()
                .any(|k| k.eq_ignore_ascii_case(name));
            if reserved {
                return Err(format!(
                    "option.{name}: INFO {name} is kxo-tui's to send (from --think-ms, \
                     --tc, --rule and the seat's memory=, nodes=, depth=), not an option"
                ));
            }
            if !plain(name) || !plain(value) {
                return Err(format!(
                    "'{}' is not an option a brain can be sent: option.NAME=VALUE, \
                     each printable, without spaces or commas",
                    shown(option)
                ));
            }
            info.options.push((name.to_string(), value.to_string()));
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Reads a game clock, `BASE+INC` in seconds (`60+0.6`, `10`), as
/// milliseconds.
pub fn parse_tc(text: &str) -> Result<(u64, u64), String> {
    let bad = || {
        format!(
            "'{}' is not a time control: write BASE+INC in seconds, e.g. 60+0.6 or 10",
            shown(text)
        )
    };
    let (base, inc) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
    let ms = |t: &str| -> Option<u64> {
        let s: f64 = t.trim().parse().ok()?;
        (s.is_finite() && (0.0..=86_400.0).contains(&s)).then(|| (s * 1000.0).round() as u64)
    };
    let (base, inc) = (ms(base).ok_or_else(bad)?, ms(inc).ok_or_else(bad)?);
    if base == 0 {
        return Err(bad());
    }
    Ok((base, inc))
}

/// A game clock as `--tc` writes it: `60+0.6`.
pub fn tc_text(base_ms: u64, inc_ms: u64) -> String {
    let secs = |ms: u64| {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    match inc_ms {
        0 => secs(base_ms),
        inc => format!("{}+{}", secs(base_ms), secs(inc)),
    }
}
