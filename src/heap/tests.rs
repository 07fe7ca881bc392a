//! The heap as an ordinary allocator instance: blocks of every size class
//! and alignment are usable, keep their bytes through growth and shrinking,
//! come back zeroed when asked, and several threads can share the heap.

use std::alloc::{GlobalAlloc, Layout};

use super::Heap;

/// Fills `len` bytes at `p` with a pattern derived from `tag`.
fn paint(p: *mut u8, len: usize, tag: usize) {
    for i in 0..len {
        // SAFETY: the block has at least `len` bytes.
        unsafe { *p.add(i) = (i ^ tag) as u8 };
    }
}

fn painted(p: *const u8, len: usize, tag: usize) -> bool {
    // SAFETY: the block has at least `len` bytes.
    (0..len).all(|i| unsafe { *p.add(i) } == (i ^ tag) as u8)
}

#[test]
fn blocks_are_aligned_and_keep_their_bytes() {
    let heap = Heap::new();
    let mut live = Vec::new();
    for (tag, size) in (1..3000usize)
        .step_by(7)
        .chain([65536, 300_000])
        .enumerate()
    {
        for align in [1usize, 8, 16, 64, 4096] {
            let layout = Layout::from_size_align(size, align).unwrap();
            // SAFETY: non-zero size.
            let p = unsafe { heap.alloc(layout) };
            assert!(!p.is_null(), "size {size} align {align}");
            assert_eq!(p as usize % align, 0, "size {size} align {align}");
            paint(p, size, tag);
            live.push((p, layout, tag));
        }
    }
    for &(p, layout, tag) in &live {
        assert!(painted(p, layout.size(), tag), "{layout:?}");
        // SAFETY: allocated above with this layout.
        unsafe { heap.dealloc(p, layout) };
    }
}

#[test]
fn realloc_keeps_the_common_prefix() {
    let heap = Heap::new();
    let mut layout = Layout::from_size_align(24, 8).unwrap();
    // SAFETY: non-zero size.
    let mut p = unsafe { heap.alloc(layout) };
    paint(p, 24, 5);
    for new_size in [100usize, 5000, 200_000, 48, 16, 1_000_000, 8] {
        let kept = layout.size().min(new_size);
        // SAFETY: `p` came from this heap with `layout`.
        p = unsafe { heap.realloc(p, layout, new_size) };
        assert!(!p.is_null());
        assert!(painted(p, kept, 5), "to {new_size}");
        layout = Layout::from_size_align(new_size, 8).unwrap();
        paint(p, new_size, 5);
    }
    // SAFETY: as above.
    unsafe { heap.dealloc(p, layout) };
}

#[test]
fn zeroed_blocks_are_zero_even_after_reuse() {
    let heap = Heap::new();
    for size in [16usize, 1000, 70_000] {
        let layout = Layout::from_size_align(size, 16).unwrap();
        // SAFETY: non-zero size; the block is freed before its reuse.
        unsafe {
            let dirty = heap.alloc(layout);
            paint(dirty, size, 0xff);
            heap.dealloc(dirty, layout);
            let p = heap.alloc_zeroed(layout);
            assert!((0..size).all(|i| *p.add(i) == 0), "size {size}");
            heap.dealloc(p, layout);
        }
    }
}

#[test]
fn threads_share_one_heap() {
    static HEAP: Heap = Heap::new();
    let workers: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                for round in 0..2000usize {
                    let size = 1 + (round * 37 + t * 11) % 700;
                    let layout = Layout::from_size_align(size, 8).unwrap();
                    // SAFETY: non-zero size; freed with the same layout.
                    unsafe {
                        let p = HEAP.alloc(layout);
                        paint(p, size, t);
                        assert!(painted(p, size, t));
                        HEAP.dealloc(p, layout);
                    }
                }
            })
        })
        .collect();
    for worker in workers {
        worker.join().unwrap();
    }
}
