//! The global allocator of the static musl release build (`make build`).
//!
//! The release binary links musl rather than glibc: glibc's start-up asks
//! the CPU about its caches with about a hundred CPUID instructions, and in
//! a virtual machine each one exits to the hypervisor (doc/benchmarks.md), a
//! millisecond before `main`. musl's own allocator, though, hands memory
//! back to the kernel eagerly and maps it again (at 16,000 entries 145
//! `mmap` and 113 `munmap` calls, dlmalloc 13 and 4): twice the page faults,
//! and each fresh page costs over a microsecond in that VM. Measured on the musl release build, musl's malloc against
//! dlmalloc (wall-clock medians of 30 alternating runs; callgrind
//! instructions): example `generate` 2.02 / 1.37 ms (1.34M / 1.20M),
//! 16,000 entries `generate claude` 9.72 / 7.19 ms (19.69M / 19.51M; 510 /
//! 242 minor faults), 64,000 entries 28.0 / 23.9 ms (74.2M / 74.2M).
//!
//! So that build allocates with the dlmalloc crate's own global allocator
//! (its `global` feature: one process-wide dlmalloc behind a pthread mutex,
//! so `twsrt test`'s threads can share it), and no code of ours is unsafe.
//! Other builds keep the system allocator.

#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOC: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;
