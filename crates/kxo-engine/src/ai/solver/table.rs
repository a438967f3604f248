//! The solver's transposition table: two entries a bucket (the larger
//! subtree, and the newest), sized in bytes, starting small and doubling
//! as the search outgrows it.

/// One table entry: bounds on the exact score, relative to its node.
#[derive(Clone, Copy, Default)]
pub(super) struct Entry {
    pub key: u64,
    pub lower: i16,
    pub upper: i16,
    /// Best move in the orientation of the canonical image (`u8::MAX`: none).
    pub cell: u8,
    /// Empty cells at the node: a rough size of the subtree it stands for.
    pub weight: u8,
    pub used: bool,
}

impl Entry {
    /// An entry as two words (all zero: unused), so that a new table is
    /// zeroed memory the system maps only when it is first written.
    pub(super) fn pack(self) -> [u64; 2] {
        let data = (self.lower as u16 as u64)
            | (self.upper as u16 as u64) << 16
            | (self.cell as u64) << 32
            | (self.weight as u64) << 40
            | (self.used as u64) << 48;
        [self.key, data]
    }

    pub(super) fn unpack([key, data]: [u64; 2]) -> Entry {
        Entry {
            key,
            lower: data as u16 as i16,
            upper: (data >> 16) as u16 as i16,
            cell: (data >> 32) as u8,
            weight: (data >> 40) as u8,
            used: (data >> 48) & 1 != 0,
        }
    }
}

/// Two entries per bucket: the first keeps the larger subtree, the second
/// the newest.
type Bucket = [[u64; 2]; 2];

/// Buckets in a new table (64 KiB), before it grows.
const START_BUCKETS: usize = 256;

pub(super) struct Table {
    buckets: Vec<Bucket>,
    /// The table starts small and doubles as the search grows, up to this.
    max_buckets: usize,
}

impl Table {
    /// A table that may grow to about `bytes` (at least 64 KiB).
    pub(super) fn new(bytes: usize) -> Table {
        let max_buckets = power_of_two_at_most((bytes / size_of::<Bucket>()).max(START_BUCKETS));
        Table {
            buckets: vec![[[0u64; 2]; 2]; START_BUCKETS.min(max_buckets)],
            max_buckets,
        }
    }

    /// Its size in bytes now.
    pub(super) fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// Doubles the table while a search of `nodes` has outgrown it,
    /// keeping every entry.
    pub(super) fn grow(&mut self, nodes: u64) {
        while self.buckets.len() < self.max_buckets && nodes > 4 * self.buckets.len() as u64 {
            let size = self.buckets.len() * 2;
            let mut buckets = vec![[[0u64; 2]; 2]; size];
            for slots in &self.buckets {
                for &slot in slots {
                    let entry = Entry::unpack(slot);
                    if entry.used {
                        let new = &mut buckets[entry.key as usize & (size - 1)];
                        let at = usize::from(Entry::unpack(new[0]).used);
                        new[at] = slot;
                    }
                }
            }
            self.buckets = buckets;
        }
    }

    /// The entry of `key`, if the table has one.
    #[inline]
    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[key as usize & (self.buckets.len() - 1)]
            .map(Entry::unpack)
            .into_iter()
            .find(|e| e.used && e.key == key)
    }

    /// Keeps `entry`: in the first slot when it is the same position, the
    /// slot is free, or its subtree is at least as large (the one it
    /// replaces moves to the second slot); else in the second.
    #[inline]
    pub(super) fn store(&mut self, entry: Entry) {
        let size = self.buckets.len();
        let slots = &mut self.buckets[entry.key as usize & (size - 1)];
        let first = Entry::unpack(slots[0]);
        if first.key == entry.key || !first.used || entry.weight >= first.weight {
            if first.key != entry.key && first.used {
                // The larger subtree it replaces is still worth keeping.
                slots[1] = slots[0];
            }
            slots[0] = entry.pack();
        } else {
            slots[1] = entry.pack();
        }
    }
}

fn power_of_two_at_most(n: usize) -> usize {
    1usize << (usize::BITS - 1 - n.max(1).leading_zeros())
}
