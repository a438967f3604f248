//! Which playout and win-test kernels this CPU runs, chosen by what is
//! fast on it, not by what it supports.
//!
//! `pdep` and `pext` (BMI2) are one cycle on Intel since Haswell and on
//! AMD since Zen 3, but microcoded on AMD's earlier cores (Excavator, Zen,
//! Zen+, Zen 2 and Hygon's Dhyana: family below 0x19), where they take
//! tens to hundreds of cycles and the BMI2 kernels run several times
//! slower than the portable ones. `KXO_KERNEL=portable|bmi2` forces a
//! choice (a CPU without BMI2 never gets the BMI2 kernels).

use std::sync::OnceLock;

/// The kernels a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// No BMI2: the k-th empty cell from a packed list (up to 16 cells),
    /// the win test by shifts along the lines through the move.
    Portable,
    /// `pdep` picks the k-th empty cell (up to 16 cells), `pext` reads the
    /// lines through a move.
    Bmi2,
}

impl Kernel {
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Portable => "portable",
            Kernel::Bmi2 => "bmi2",
        }
    }
}

/// What CPUID says of this CPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cpu {
    /// "GenuineIntel", "AuthenticAMD", "HygonGenuine"…
    pub vendor: String,
    /// The display family (base family plus extended family).
    pub family: u32,
    /// The display model (with the extended model).
    pub model: u32,
    /// The brand string ("AMD EPYC 7B12"), trimmed.
    pub name: String,
    pub bmi2: bool,
}

impl Cpu {
    /// This machine's CPU.
    pub fn detect() -> Cpu {
        detect()
    }

    /// Whether `pdep`/`pext` are microcoded here (slow), as on AMD before
    /// Zen 3 and on Hygon.
    pub fn slow_pdep(&self) -> bool {
        matches!(self.vendor.as_str(), "AuthenticAMD" | "HygonGenuine") && self.family < 0x19
    }
}

/// The kernel for `cpu`, given `KXO_KERNEL`'s value if set, and why.
pub fn choose(cpu: &Cpu, forced: Option<&str>) -> (Kernel, String) {
    match forced.map(str::trim) {
        Some("portable") => (Kernel::Portable, "KXO_KERNEL=portable".into()),
        Some("bmi2") if cpu.bmi2 => (Kernel::Bmi2, "KXO_KERNEL=bmi2".into()),
        Some("bmi2") => (
            Kernel::Portable,
            "KXO_KERNEL=bmi2, but this CPU has no BMI2".into(),
        ),
        Some(other) if !other.is_empty() => {
            let (kernel, why) = choose(cpu, None);
            (
                kernel,
                format!(
                    "{why} (KXO_KERNEL={} ignored: use portable or bmi2)",
                    crate::text::shown(other)
                ),
            )
        }
        _ if !cpu.bmi2 => (Kernel::Portable, "no BMI2 on this CPU".into()),
        _ if cpu.slow_pdep() => (
            Kernel::Portable,
            format!(
                "BMI2 is microcoded on {} family {:#x} (AMD before Zen 3)",
                cpu.vendor, cpu.family
            ),
        ),
        _ => (Kernel::Bmi2, "BMI2 is fast on this CPU".into()),
    }
}

/// The choice of this process, made once.
pub fn selected() -> &'static (Cpu, Kernel, String) {
    static SELECTED: OnceLock<(Cpu, Kernel, String)> = OnceLock::new();
    SELECTED.get_or_init(|| {
        let cpu = Cpu::detect();
        let forced = std::env::var("KXO_KERNEL").ok();
        let (kernel, why) = choose(&cpu, forced.as_deref());
        (cpu, kernel, why)
    })
}

/// Whether this process runs the BMI2 kernels (cheap: one atomic load
/// after the first call).
#[inline]
pub fn use_bmi2() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not chosen yet, 1: portable, 2: BMI2.
    static CHOICE: AtomicU8 = AtomicU8::new(0);
    match CHOICE.load(Ordering::Relaxed) {
        1 => false,
        2 => true,
        _ => {
            let bmi2 = selected().1 == Kernel::Bmi2;
            CHOICE.store(if bmi2 { 2 } else { 1 }, Ordering::Relaxed);
            bmi2
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Cpu {
    use core::arch::x86_64::{__cpuid, __cpuid_count};
    // CPUID exists on every x86-64 CPU; no leaf above the highest one
    // reported is asked for.
    let leaf0 = __cpuid(0);
    let mut vendor = Vec::with_capacity(12);
    for word in [leaf0.ebx, leaf0.edx, leaf0.ecx] {
        vendor.extend_from_slice(&word.to_le_bytes());
    }
    let vendor = String::from_utf8_lossy(&vendor).into_owned();
    let (mut family, mut model) = (0, 0);
    if leaf0.eax >= 1 {
        let eax = __cpuid(1).eax;
        let base_family = (eax >> 8) & 0xf;
        let base_model = (eax >> 4) & 0xf;
        family = base_family;
        model = base_model;
        if base_family == 0xf {
            family += (eax >> 20) & 0xff;
        }
        if base_family == 0x6 || base_family == 0xf {
            model |= ((eax >> 16) & 0xf) << 4;
        }
    }
    let bmi2 = leaf0.eax >= 7 && __cpuid_count(7, 0).ebx & (1 << 8) != 0;
    let mut name = String::new();
    if __cpuid(0x8000_0000).eax >= 0x8000_0004 {
        let mut bytes = Vec::with_capacity(48);
        for leaf in 0x8000_0002..=0x8000_0004u32 {
            let r = __cpuid(leaf);
            for word in [r.eax, r.ebx, r.ecx, r.edx] {
                bytes.extend_from_slice(&word.to_le_bytes());
            }
        }
        name = String::from_utf8_lossy(&bytes)
            .trim_matches(|c: char| c == '\0' || c.is_whitespace())
            .to_string();
    }
    Cpu {
        vendor,
        family,
        model,
        name,
        // What std sees agrees with CPUID; it also checks the OS side.
        bmi2: bmi2 && std::arch::is_x86_feature_detected!("bmi2"),
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Cpu {
    Cpu {
        vendor: std::env::consts::ARCH.into(),
        family: 0,
        model: 0,
        name: String::new(),
        bmi2: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cpu(vendor: &str, family: u32, model: u32, bmi2: bool) -> Cpu {
        Cpu {
            vendor: vendor.into(),
            family,
            model,
            name: String::new(),
            bmi2,
        }
    }

    #[test]
    fn the_kernel_is_chosen_by_what_is_fast() {
        let zen2 = cpu("AuthenticAMD", 0x17, 0x31, true);
        let zen1 = cpu("AuthenticAMD", 0x17, 0x01, true);
        let hygon = cpu("HygonGenuine", 0x18, 0x00, true);
        let excavator = cpu("AuthenticAMD", 0x15, 0x60, true);
        let zen3 = cpu("AuthenticAMD", 0x19, 0x01, true);
        let zen4 = cpu("AuthenticAMD", 0x19, 0x11, true);
        let zen5 = cpu("AuthenticAMD", 0x1a, 0x02, true);
        let intel = cpu("GenuineIntel", 0x6, 0x55, true);
        let old_intel = cpu("GenuineIntel", 0x6, 0x2a, false);
        for slow in [&zen2, &zen1, &hygon, &excavator, &old_intel] {
            assert_eq!(choose(slow, None).0, Kernel::Portable, "{slow:?}");
        }
        for fast in [&zen3, &zen4, &zen5, &intel] {
            assert_eq!(choose(fast, None).0, Kernel::Bmi2, "{fast:?}");
        }
        assert!(choose(&zen2, None).1.contains("microcoded"));
        assert!(choose(&old_intel, None).1.contains("no BMI2"));
    }

    #[test]
    fn the_override_is_honoured_where_it_can_be() {
        let zen2 = cpu("AuthenticAMD", 0x17, 0x31, true);
        let zen3 = cpu("AuthenticAMD", 0x19, 0x01, true);
        let none = cpu("GenuineIntel", 0x6, 0x2a, false);
        assert_eq!(choose(&zen2, Some("bmi2")).0, Kernel::Bmi2);
        assert_eq!(choose(&zen3, Some("portable")).0, Kernel::Portable);
        // Never BMI2 code on a CPU without it.
        let (kernel, why) = choose(&none, Some("bmi2"));
        assert_eq!(kernel, Kernel::Portable);
        assert!(why.contains("no BMI2"), "{why}");
        // A value it does not know: the usual choice, and it says so.
        let (kernel, why) = choose(&zen3, Some("avx\x1b[2J"));
        assert_eq!(kernel, Kernel::Bmi2);
        assert!(why.contains("ignored") && !why.contains('\x1b'), "{why}");
    }

    #[test]
    fn this_machine_is_read() {
        let cpu = Cpu::detect();
        #[cfg(target_arch = "x86_64")]
        {
            assert!(!cpu.vendor.is_empty());
            assert!(cpu.family > 0);
            assert_eq!(cpu.bmi2, std::arch::is_x86_feature_detected!("bmi2"));
        }
        let (_, kernel, _) = selected();
        assert_eq!(use_bmi2(), *kernel == Kernel::Bmi2);
    }
}
