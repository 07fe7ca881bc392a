//! `memcpy`, `memmove`, `memset`, `memcmp` and `bcmp` for the static musl
//! build of twsrt (`make build`, doc/benchmarks.md).
//!
//! Why: the release binary links musl instead of glibc, because glibc's
//! start-up probes the CPU caches with about a hundred CPUID instructions,
//! and in a virtual machine each one exits to the hypervisor (about 10 us
//! measured here): a millisecond before `main`, more than most twsrt runs
//! take. musl starts without them, but its x86-64 `memcpy` and `memset` are
//! one `rep movs`/`rep stos` per call, about 30 ns even for the 20-byte
//! copies a JSON writer makes by the hundred thousand, and its `memcmp` goes
//! byte by byte. The routines below copy small sizes with two overlapping
//! loads and stores and larger ones in 32-byte steps.
//!
//! The functions are exported under the C names only on musl targets
//! (`cfg(target_env = "musl")`), where the linker takes them before musl's
//! own. Everywhere else they are ordinary functions, which the tests compare
//! with a byte-by-byte model on every size up to a few hundred bytes, every
//! alignment and every overlap.
//!
//! `no_builtins`: the compiler must not turn these loops back into calls to
//! `memcpy` or `memset`, which would call themselves.

#![cfg_attr(not(test), no_std)]
#![no_builtins]

use core::ptr::{read_unaligned, write_unaligned};

/// Loads `T` from `p`, at any alignment.
///
/// # Safety
/// `p..p + size_of::<T>()` must be readable.
#[inline(always)]
unsafe fn load<T>(p: *const u8) -> T {
    // SAFETY: the caller guarantees the bytes are readable; any alignment.
    unsafe { read_unaligned(p.cast::<T>()) }
}

/// Stores `v` at `p`, at any alignment.
///
/// # Safety
/// `p..p + size_of::<T>()` must be writable.
#[inline(always)]
unsafe fn store<T>(p: *mut u8, v: T) {
    // SAFETY: the caller guarantees the bytes are writable; any alignment.
    unsafe { write_unaligned(p.cast::<T>(), v) }
}

/// Copies up to 32 bytes: every load comes before the first store, so the
/// ranges may overlap in any way.
///
/// # Safety
/// `n <= 32`; `src..src + n` readable, `dst..dst + n` writable.
#[inline(always)]
unsafe fn copy_small(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: each access lies inside the first `n` bytes of its range
    // (the second of each pair ends exactly at `n`).
    unsafe {
        if n >= 16 {
            let (a, b) = (load::<u128>(src), load::<u128>(src.add(n - 16)));
            store(dst, a);
            store(dst.add(n - 16), b);
        } else if n >= 8 {
            let (a, b) = (load::<u64>(src), load::<u64>(src.add(n - 8)));
            store(dst, a);
            store(dst.add(n - 8), b);
        } else if n >= 4 {
            let (a, b) = (load::<u32>(src), load::<u32>(src.add(n - 4)));
            store(dst, a);
            store(dst.add(n - 4), b);
        } else if n > 0 {
            let (a, b, c) = (*src, *src.add(n / 2), *src.add(n - 1));
            *dst = a;
            *dst.add(n / 2) = b;
            *dst.add(n - 1) = c;
        }
    }
}

/// Copies `n` bytes from `src` to `dst` front to back. Also correct when
/// the ranges overlap with `dst` below `src`: each 32-byte step is loaded
/// before it is stored, and a store only reaches source bytes already
/// loaded; the last 32 bytes are loaded before anything is stored.
///
/// # Safety
/// `src..src + n` readable, `dst..dst + n` writable, and either no overlap
/// or `dst <= src`.
unsafe fn copy_forward(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: as documented; offsets stay below `n`.
    unsafe {
        if n <= 32 {
            return copy_small(dst, src, n);
        }
        let (last_a, last_b) = (load::<u128>(src.add(n - 32)), load::<u128>(src.add(n - 16)));
        let mut i = 0;
        while i + 32 < n {
            let (a, b) = (load::<u128>(src.add(i)), load::<u128>(src.add(i + 16)));
            store(dst.add(i), a);
            store(dst.add(i + 16), b);
            i += 32;
        }
        store(dst.add(n - 32), last_a);
        store(dst.add(n - 16), last_b);
    }
}

/// Copies `n` bytes from `src` to `dst` back to front, for overlapping
/// ranges with `dst` above `src`: the mirror image of [`copy_forward`].
///
/// # Safety
/// `src..src + n` readable, `dst..dst + n` writable.
unsafe fn copy_backward(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: as documented; offsets stay below `n`.
    unsafe {
        if n <= 32 {
            return copy_small(dst, src, n);
        }
        let (first_a, first_b) = (load::<u128>(src), load::<u128>(src.add(16)));
        let mut end = n;
        while end > 32 {
            end -= 32;
            let (a, b) = (load::<u128>(src.add(end)), load::<u128>(src.add(end + 16)));
            store(dst.add(end), a);
            store(dst.add(end + 16), b);
        }
        store(dst, first_a);
        store(dst.add(16), first_b);
    }
}

/// C `memcpy`.
///
/// # Safety
/// `src..src + n` readable, `dst..dst + n` writable, no overlap.
pub unsafe fn copy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded from the caller.
    unsafe { copy_forward(dst, src, n) }
}

/// C `memmove`.
///
/// # Safety
/// `src..src + n` readable, `dst..dst + n` writable; may overlap.
pub unsafe fn copy_overlapping(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded; the direction keeps overlapping copies correct.
    unsafe {
        if (dst as usize).wrapping_sub(src as usize) >= n {
            // `dst` below `src`, or no overlap at all.
            copy_forward(dst, src, n)
        } else {
            copy_backward(dst, src, n)
        }
    }
}

/// C `memset`.
///
/// # Safety
/// `dst..dst + n` writable.
pub unsafe fn fill(dst: *mut u8, byte: u8, n: usize) {
    let word = u64::from_ne_bytes([byte; 8]);
    let wide = u128::from(word) << 64 | u128::from(word);
    // SAFETY: every store lies inside `dst..dst + n`.
    unsafe {
        if n >= 16 {
            let mut i = 0;
            while i + 16 < n {
                store(dst.add(i), wide);
                i += 16;
            }
            store(dst.add(n - 16), wide);
        } else if n >= 8 {
            store(dst, word);
            store(dst.add(n - 8), word);
        } else {
            let mut i = 0;
            while i < n {
                *dst.add(i) = byte;
                i += 1;
            }
        }
    }
}

/// C `memcmp`: negative, zero or positive as the first differing byte of
/// `a` is below, equal to or above that of `b`.
///
/// # Safety
/// `a..a + n` and `b..b + n` readable.
pub unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: every load lies inside the first `n` bytes of each range.
    unsafe {
        // Big-endian words order like their bytes.
        let word = |i: usize| {
            (
                u64::from_be_bytes(load::<[u8; 8]>(a.add(i))),
                u64::from_be_bytes(load::<[u8; 8]>(b.add(i))),
            )
        };
        let order = |x: u64, y: u64| if x < y { -1 } else { 1 };
        if n >= 8 {
            let mut i = 0;
            while i + 8 <= n {
                let (x, y) = word(i);
                if x != y {
                    return order(x, y);
                }
                i += 8;
            }
            // The rest as the last eight bytes: the ones they share with
            // the words before are equal, so the first difference in them
            // is the first difference of all.
            if i < n {
                let (x, y) = word(n - 8);
                if x != y {
                    return order(x, y);
                }
            }
            return 0;
        }
        if n >= 4 {
            // The same with two overlapping four-byte words.
            for i in [0, n - 4] {
                let x = u32::from_be_bytes(load::<[u8; 4]>(a.add(i)));
                let y = u32::from_be_bytes(load::<[u8; 4]>(b.add(i)));
                if x != y {
                    return if x < y { -1 } else { 1 };
                }
            }
            return 0;
        }
        let mut i = 0;
        while i < n {
            let (x, y) = (*a.add(i), *b.add(i));
            if x != y {
                return i32::from(x) - i32::from(y);
            }
            i += 1;
        }
        0
    }
}

/// The C names, on musl only (see the crate documentation).
#[cfg(target_env = "musl")]
mod exported {
    use core::ffi::{c_int, c_void};

    /// # Safety
    /// As C `memcpy`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
        // SAFETY: the C contract is the Rust one.
        unsafe { super::copy(dst.cast(), src.cast(), n) };
        dst
    }

    /// # Safety
    /// As C `memmove`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memmove(
        dst: *mut c_void,
        src: *const c_void,
        n: usize,
    ) -> *mut c_void {
        // SAFETY: the C contract is the Rust one.
        unsafe { super::copy_overlapping(dst.cast(), src.cast(), n) };
        dst
    }

    /// # Safety
    /// As C `memset`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memset(dst: *mut c_void, byte: c_int, n: usize) -> *mut c_void {
        // SAFETY: the C contract is the Rust one; C passes the byte as an int.
        unsafe { super::fill(dst.cast(), byte as u8, n) };
        dst
    }

    /// # Safety
    /// As C `memcmp`.
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn memcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
        // SAFETY: the C contract is the Rust one.
        unsafe { super::compare(a.cast(), b.cast(), n) }
    }

    /// # Safety
    /// As C `bcmp` (zero when equal).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn bcmp(a: *const c_void, b: *const c_void, n: usize) -> c_int {
        // SAFETY: the C contract is the Rust one.
        unsafe { super::compare(a.cast(), b.cast(), n) }
    }
}

#[cfg(test)]
mod tests;
