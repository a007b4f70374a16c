//! Work counters, for tests that prove a pass over user text linear: a pass
//! calls [`add`] with the units it reads (bytes scanned, words visited), and
//! a test bounds the total by a multiple of the input's length. Outside
//! `cargo test` they compile to nothing.

#[cfg(test)]
thread_local! {
    static UNITS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts `units` of work done on this thread.
#[inline(always)]
pub(crate) fn add(units: usize) {
    #[cfg(test)]
    UNITS.with(|u| u.set(u.get().saturating_add(units)));
    #[cfg(not(test))]
    let _ = units;
}

/// The units of work `f` counted.
#[cfg(test)]
pub(crate) fn counted(f: impl FnOnce()) -> usize {
    let before = UNITS.with(std::cell::Cell::get);
    f();
    UNITS.with(std::cell::Cell::get) - before
}
