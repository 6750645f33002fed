//! When the searches check their invariants at every node.
//!
//! Always in this crate's unit tests and with the `check-invariants` feature (which the fuzz
//! targets turn on). In any other build with debug assertions (the dev profile, in which the
//! workspace's tests are built) when the environment variable `DANCECARD_CHECK_INVARIANTS` is
//! set to anything but `0` or nothing, read once: so `./scripts/test` runs the engine's suite
//! and the cross test again, checked, on the build it has, without building the engine a
//! second time. A build without debug assertions (release, benches) compiles no check at all:
//! the searches' loops carry no test of this.

/// Whether the searches check their invariants at every node now: (I1)-(I3), (A1)-(A3),
/// (B1)-(B3), (S1)-(S3), (N1)-(N3), (D1)-(D3), (M1) and (M4).
#[inline(always)]
pub(crate) fn every_node() -> bool {
    made(cfg!(any(test, feature = "check-invariants")) || asked())
}

/// Whether the cost kernels check theirs, (K1) with (I1)-(I3): with the feature or when
/// asked (not in every unit test: they are slow there).
#[cfg(any(feature = "check-invariants", debug_assertions))]
#[inline(always)]
pub(crate) fn costs() -> bool {
    made(cfg!(feature = "check-invariants") || asked())
}

/// Whether this build checks the invariants at every node of every search (the
/// `check-invariants` feature, or `DANCECARD_CHECK_INVARIANTS` in a build with debug
/// assertions): the tests size their longest searches by it.
pub fn checks_invariants() -> bool {
    cfg!(any(test, feature = "check-invariants")) || asked()
}

/// How many times the searches of this process have checked their invariants at a node (in
/// builds with debug assertions; 0 in others): the tests see from it that every kernel checks
/// when asked.
pub fn checks_made() -> u64 {
    #[cfg(debug_assertions)]
    return MADE.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(debug_assertions))]
    0
}

#[cfg(debug_assertions)]
static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts a check about to be made (`on`), in builds with debug assertions.
#[inline(always)]
fn made(on: bool) -> bool {
    #[cfg(debug_assertions)]
    if on {
        let _ = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
    on
}

#[cfg(debug_assertions)]
fn asked() -> bool {
    static ASKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ASKED.get_or_init(|| {
        std::env::var_os("DANCECARD_CHECK_INVARIANTS").is_some_and(|v| !v.is_empty() && v != "0")
    })
}

#[cfg(not(debug_assertions))]
fn asked() -> bool {
    false
}
