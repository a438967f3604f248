//! The learning player's model file.
//!
//! Layout (little-endian): the magic `KXORL\0`, a format version (u16),
//! the rules it was trained for (size u8, goal u8 with bit 7 set for the
//! standard rule: exactly K wins; older files are free-style), what unseen positions
//! are worth (u8: 0 the heuristic, 1 zero, 2 no table but an n-tuple
//! network whose entries are its weights; version 2 on), its accuracy on
//! the fixed sample when it was saved (f32, NaN when not measured; version
//! 2 on), the games learned from (u64), the entry count (u64), then per entry the canonical
//! 2-bit table (u128) and its value (f32), and last a CRC-32 of everything
//! before it. Version 1 files (no start byte) started from the heuristic.
//!
//! The header is read and checked before the body: the entry count it
//! claims must fit the board and match the file's length, so a file is
//! never read beyond the size its header promises.

use std::path::Path;

use kxo_engine::learner::{Init, MAX_WEIGHT, ValueTable};
use kxo_engine::{Rule, Rules};

/// The goal byte's flag for the standard rule (goals are at most 8).
const STANDARD_FLAG: u8 = 0x80;

pub(super) const MAGIC: &[u8; 6] = b"KXORL\0";
pub const VERSION: u16 = 2;
pub(super) const HEADER: usize = 6 + 2 + 1 + 1 + 1 + 4 + 8 + 8;
/// Version 1 had no start byte and no accuracy.
const HEADER_V1: usize = HEADER - 5;
const ENTRY: usize = 16 + 4;

/// Why a model file was refused; always names the file.
pub type ModelError = crate::gate::FileError;

pub(super) fn refuse(path: &Path, problem: impl Into<String>) -> ModelError {
    ModelError::refused("model file", path, problem)
}

/// The file's bytes for `table`.
pub fn encode(table: &ValueTable) -> Vec<u8> {
    let entries = table.entries();
    let rules = table.rules();
    let mut out = Vec::with_capacity(HEADER + entries.len() * ENTRY + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.push(rules.size());
    out.push(rules.goal() | if rules.exact() { STANDARD_FLAG } else { 0 });
    out.push(match table.init() {
        Init::Heuristic => 0,
        Init::Zero => 1,
        Init::Network => 2,
    });
    out.extend_from_slice(&table.accuracy.unwrap_or(f32::NAN).to_le_bytes());
    out.extend_from_slice(&table.games.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for (key, value) in entries {
        out.extend_from_slice(&key.to_le_bytes());
        out.extend_from_slice(&value.to_le_bytes());
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// What a model's header says.
#[derive(Clone, Copy, Debug)]
pub(super) struct Header {
    pub version: u16,
    /// Bytes of the header, by its version.
    pub len: usize,
    pub size: u8,
    pub goal: u8,
    pub rule: Rule,
    pub init: Init,
    pub games: u64,
    pub count: u64,
}

impl Header {
    /// The length of the whole file the header describes, if it fits a
    /// `usize`.
    pub(super) fn file_len(&self) -> Option<usize> {
        (self.count as usize)
            .checked_mul(ENTRY)
            .and_then(|n| n.checked_add(self.len + 4))
    }
}

/// The most entries a model of these rules can hold: a network no more
/// weights than it has; a table no more positions than a game can reach
/// ([`max_table_entries`]).
pub(super) fn max_entries(size: u8, goal: u8, rule: Rule, init: Init) -> u64 {
    let Ok(rules) = Rules::new(size, goal) else {
        return 0;
    };
    let rules = rules.with_rule(rule);
    if init == Init::Network {
        return match rules.is_small() {
            true => kxo_engine::learner::NTuple::new(rules).size().1 as u64,
            false => kxo_engine::learner::LinePatterns::new(goal).size() as u64,
        };
    }
    max_table_entries(rules.size())
}

/// The most positions a table of a board of side `n` holds. Up to 16
/// cells: the legal positions (as many O as X, or one more) up to the 8
/// symmetries, bounded by Burnside's count: a position fixed by a symmetry
/// is fixed by a reflection at most, which leaves `(cells + n) / 2` cells
/// free. Beyond, the most the learner keeps
/// ([`kxo_engine::learner::MAX_TABLE_ENTRIES`]).
fn max_table_entries(n: u8) -> u64 {
    let cells = n as u64 * n as u64;
    if cells > 16 {
        return kxo_engine::learner::MAX_TABLE_ENTRIES as u64;
    }
    let choose = |n: u64, k: u64| -> u64 { (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1)) };
    let mut legal = 0u64;
    for x in 0..=cells / 2 {
        for o in [x, x + 1] {
            if o + x <= cells {
                legal += choose(cells, o) * choose(cells - o, x);
            }
        }
    }
    legal / 8 + 3u64.pow(((cells + n as u64) / 2) as u32)
}

/// Reads the header from the start of a file; `file_len` is the whole
/// file's length (the bytes may be only its start). Refuses a header whose
/// count does not fit the board or the file's length.
pub(super) fn read_header(bytes: &[u8], file_len: u64, path: &Path) -> Result<Header, ModelError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(refuse(
            path,
            "not a kxo-tui model (it does not start with the model header)",
        ));
    }
    let short = || {
        refuse(
            path,
            format!("truncated: {file_len} bytes, shorter than the header"),
        )
    };
    if bytes.len() < HEADER_V1 + 4 {
        return Err(short());
    }
    let version = u16::from_le_bytes([bytes[6], bytes[7]]);
    let (len, init) = match version {
        1 => (HEADER_V1, Init::Heuristic),
        VERSION => {
            let init = match bytes[10] {
                0 => Init::Heuristic,
                1 => Init::Zero,
                2 => Init::Network,
                other => return Err(refuse(path, format!("corrupt: unknown start {other}"))),
            };
            (HEADER, init)
        }
        _ => {
            return Err(refuse(
                path,
                format!("format version {version}; this kxo-tui reads versions 1 and {VERSION}"),
            ));
        }
    };
    if bytes.len() < len + 4 {
        return Err(short());
    }
    let u64_at = |i: usize| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(word)
    };
    let header = Header {
        version,
        len,
        size: bytes[8],
        goal: bytes[9] & !STANDARD_FLAG,
        rule: match bytes[9] & STANDARD_FLAG {
            0 => Rule::Freestyle,
            _ => Rule::Standard,
        },
        init,
        games: u64_at(len - 16),
        count: u64_at(len - 8),
    };
    let count = header.count;
    let most = max_entries(header.size, header.goal, header.rule, init);
    if count > most {
        return Err(refuse(
            path,
            format!(
                "corrupt: it claims {count} entries, more than a model of {n}x{n} with {k} in a row can have ({most})",
                n = header.size,
                k = header.goal
            ),
        ));
    }
    let expected = header.file_len();
    if expected.map(|e| e as u64) != Some(file_len) {
        let problem = match expected {
            Some(e) if file_len < e as u64 => {
                format!("truncated: {file_len} bytes where {count} entries need {e}")
            }
            _ => format!("{file_len} bytes do not match its {count} entries"),
        };
        return Err(refuse(path, problem));
    }
    Ok(header)
}

/// Reads a table from the file's bytes; `rules` are the ones it must have
/// been trained for.
pub fn decode(bytes: &[u8], rules: Rules, path: &Path) -> Result<ValueTable, ModelError> {
    let header = read_header(bytes, bytes.len() as u64, path)?;
    let body = &bytes[..bytes.len() - 4];
    let mut crc_bytes = [0u8; 4];
    crc_bytes.copy_from_slice(&bytes[bytes.len() - 4..]);
    if crc32fast::hash(body) != u32::from_le_bytes(crc_bytes) {
        return Err(refuse(path, "corrupt: the checksum does not match"));
    }
    let (size, goal, rule) = (header.size, header.goal, header.rule);
    if (size, goal, rule) != (rules.size(), rules.goal(), rules.rule()) {
        return Err(refuse(
            path,
            format!(
                "trained for {size}x{size} with {}, not {n}x{n} with {}",
                rule.in_a_row(goal),
                rules.in_a_row(),
                n = rules.size(),
            ),
        ));
    }
    if !rules.is_small() && header.init != Init::Network {
        return Err(refuse(
            path,
            format!(
                "corrupt: a model of {size}x{size} holds line patterns, not a table of positions (start '{}')",
                header.init.name()
            ),
        ));
    }
    let entries = body[header.len..].chunks_exact(ENTRY).map(|e| {
        let (mut key, mut value) = ([0u8; 16], [0u8; 4]);
        key.copy_from_slice(&e[..16]);
        value.copy_from_slice(&e[16..]);
        (u128::from_le_bytes(key), f32::from_le_bytes(value))
    });
    let accuracy = match header.version {
        1 => None,
        _ => {
            let mut a = [0u8; 4];
            a.copy_from_slice(&bytes[11..15]);
            let a = f32::from_le_bytes(a);
            (0.0..=1.0).contains(&a).then_some(a)
        }
    };
    let network = header.init == Init::Network;
    let entries: Vec<(u128, f32)> = entries.collect();
    if let Some(&(_, v)) = entries.iter().find(|&&(_, v)| {
        !v.is_finite()
            || if network {
                v.abs() > MAX_WEIGHT
            } else {
                !(0.0..=1.0).contains(&v)
            }
    }) {
        return Err(refuse(
            path,
            match network {
                true => format!("corrupt: a weight of {v}, beyond ±{MAX_WEIGHT}"),
                false => format!("corrupt: a value of {v}, outside 0 to 1"),
            },
        ));
    }
    let mut table = ValueTable::from_entries(rules, header.init, header.games, entries);
    table.accuracy = accuracy;
    if table.len() as u64 != header.count {
        return Err(refuse(path, "corrupt: repeated entries"));
    }
    Ok(table)
}
