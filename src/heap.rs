//! The process heap: the global allocator of the static musl release build
//! (`make build`), and [`forget_until_exit`] for the one large value a
//! command leaves to the process's exit.
//!
//! musl's own allocator hands memory back to the kernel eagerly and maps it
//! again, so a run of many small strings pays for fresh pages over and over;
//! that build allocates with the dlmalloc crate's own global allocator
//! instead (its `global` feature: one process-wide heap behind a mutex, so
//! `twsrt test`'s threads can share it). No code of ours is unsafe. Other
//! builds keep the system allocator. The measurements behind this choice
//! are in doc/benchmarks.md ("What the simplification cost").

#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOC: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

/// Leave `value` to the process's exit instead of dropping it: the caller's
/// command is over and the process exits next, and freeing a compiled
/// policy allocation by allocation costs more than the rest of a preview
/// (tens of thousands of strings for a large policy) and gains nothing.
/// Only for a value that owns no resource other than memory (no file, no
/// lock, no buffered output): its destructor never runs.
pub fn forget_until_exit<T>(value: T) {
    std::mem::forget(value);
}
