//! The global allocator of the static musl release build (`make build`).
//!
//! The release binary links musl rather than glibc: glibc's start-up asks
//! the CPU about its caches with about a hundred CPUID instructions, and in
//! a virtual machine each one exits to the hypervisor (about 10 us measured
//! on the benchmark machine, doc/benchmarks.md), a millisecond before `main`.
//! musl's own allocator, though, is about twice as slow as glibc's on the
//! many small strings a large policy makes, so that build allocates with
//! dlmalloc instead, behind a `std` mutex: uncontended, that is an inline
//! compare-and-swap to lock and a swap to unlock, where dlmalloc's own global
//! lock calls musl's `pthread_mutex_lock` and `pthread_mutex_unlock` (about
//! 6 % of a large `generate`). Other builds keep the system allocator; this
//! type is compiled and tested everywhere.

use std::alloc::{GlobalAlloc, Layout};
use std::sync::{Mutex, MutexGuard, PoisonError};

pub struct Heap(Mutex<dlmalloc::Dlmalloc>);

impl Heap {
    pub const fn new() -> Self {
        Heap(Mutex::new(dlmalloc::Dlmalloc::new()))
    }

    fn lock(&self) -> MutexGuard<'_, dlmalloc::Dlmalloc> {
        // Nothing panics while the lock is held; should a panic ever poison
        // it, the heap itself is still consistent.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Default for Heap {
    fn default() -> Self {
        Self::new()
    }
}

// SAFETY: every call forwards to dlmalloc, whose functions have the
// `GlobalAlloc` contracts, under one lock, so no two threads use the
// allocator state at once.
unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { self.lock().malloc(layout.size(), layout.align()) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: see the impl.
        unsafe { self.lock().calloc(layout.size(), layout.align()) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: see the impl; `ptr` came from this allocator with `layout`.
        unsafe { self.lock().free(ptr, layout.size(), layout.align()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: see the impl; `ptr` came from this allocator with `layout`.
        unsafe {
            self.lock()
                .realloc(ptr, layout.size(), layout.align(), new_size)
        }
    }
}

#[cfg(test)]
mod tests;
