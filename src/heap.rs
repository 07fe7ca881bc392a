//! The global allocator of the static musl release build (`make build`).
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
