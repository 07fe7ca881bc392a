//! Each routine against a byte-by-byte model: every size up to 300 bytes,
//! every alignment of both ends within 16 bytes, and (for the move) every
//! overlap of up to 40 bytes either way. The bytes around the destination
//! are checked too: nothing outside `dst..dst + n` may change.

use super::{compare, copy, copy_overlapping, fill};

const SIZES: usize = 300;
const ROOM: usize = SIZES + 128;

/// Deterministic bytes, different at every position (a xorshift).
fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[test]
fn copy_matches_the_model() {
    let src = noise(1, ROOM);
    for n in 0..=SIZES {
        for s in 0..16 {
            for d in 0..16 {
                let mut got = noise(2, ROOM);
                let mut want = got.clone();
                want[d..d + n].copy_from_slice(&src[s..s + n]);
                // SAFETY: both ranges lie inside their buffers.
                unsafe { copy(got.as_mut_ptr().add(d), src.as_ptr().add(s), n) };
                assert_eq!(got, want, "n={n} src+{s} dst+{d}");
            }
        }
    }
}

#[test]
fn overlapping_copy_matches_the_model() {
    for n in 0..=SIZES {
        for shift in -40i32..=40 {
            for base in [40usize, 47] {
                let mut got = noise(3, ROOM);
                let src = base;
                let dst = (base as i32 + shift) as usize;
                let mut want = got.clone();
                want.copy_within(src..src + n, dst);
                let p = got.as_mut_ptr();
                // SAFETY: both ranges lie inside the one buffer.
                unsafe { copy_overlapping(p.add(dst), p.add(src), n) };
                assert_eq!(got, want, "n={n} shift={shift} base={base}");
            }
        }
    }
}

#[test]
fn fill_matches_the_model() {
    for n in 0..=SIZES {
        for d in 0..16 {
            for byte in [0u8, 0x5a, 0xff] {
                let mut got = noise(4, ROOM);
                let mut want = got.clone();
                want[d..d + n].fill(byte);
                // SAFETY: the range lies inside the buffer.
                unsafe { fill(got.as_mut_ptr().add(d), byte, n) };
                assert_eq!(got, want, "n={n} dst+{d} byte={byte}");
            }
        }
    }
}

#[test]
fn compare_orders_like_slices() {
    let a = noise(5, ROOM);
    for n in 0..=SIZES {
        for s in 0..8 {
            // Equal, then one byte raised or lowered at every position.
            let mut b = a.clone();
            // SAFETY: both ranges lie inside their buffers.
            let same = unsafe { compare(a.as_ptr().add(s), b.as_ptr().add(s), n) };
            assert_eq!(same, 0, "n={n} equal");
            for at in 0..n {
                for delta in [1u8, 255] {
                    b[s + at] = a[s + at].wrapping_add(delta);
                    let want = a[s..s + n].cmp(&b[s..s + n]) as i32;
                    // SAFETY: as above.
                    let got = unsafe { compare(a.as_ptr().add(s), b.as_ptr().add(s), n) };
                    assert_eq!(got.signum(), want, "n={n} at={at} delta={delta}");
                    b[s + at] = a[s + at];
                }
            }
        }
    }
}

#[test]
fn the_first_of_two_differences_decides_the_order() {
    let a = noise(7, ROOM);
    for n in 2..=40 {
        let mut b = a.clone();
        for first in 0..n {
            for second in first + 1..n {
                // The first difference one way, a later one the other way.
                b[first] = a[first].wrapping_add(1);
                b[second] = a[second].wrapping_sub(1);
                let want = a[..n].cmp(&b[..n]) as i32;
                // SAFETY: both ranges lie inside their buffers.
                let got = unsafe { compare(a.as_ptr(), b.as_ptr(), n) };
                assert_eq!(got.signum(), want, "n={n} first={first} second={second}");
                b[first] = a[first];
                b[second] = a[second];
            }
        }
    }
}
