//! The table's memory: one zeroed allocation, aligned to 2 MiB when it is that large and, on
//! Linux, marked for transparent huge pages before any of it is touched.
//!
//! Design note: a probe lands anywhere in tens of megabytes, so with 4 KiB pages almost every
//! probe misses the TLB as well as the cache, and the page walk costs as much again. Linux's
//! usual setting (`transparent_hugepage=madvise`) gives 2 MiB pages only to memory that asks
//! for them, with `madvise(MADV_HUGEPAGE)` on an aligned range. Where the kernel says no, the
//! memory works as before; nothing depends on the pages being huge.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// The size of a transparent huge page on x86-64 and most of aarch64's Linux kernels.
const HUGE_PAGE: usize = 2 << 20;

/// A fixed-length slice of `T` whose bytes start as zero, in memory of its own.
pub(super) struct ZeroedSlice<T> {
    ptr: NonNull<T>,
    len: usize,
}

/// The layout of `len` values of `T`: 2 MiB-aligned from one huge page up. `None` when the
/// size is zero (nothing is allocated) or too large.
fn layout_of<T>(len: usize) -> Option<Layout> {
    let size = len.checked_mul(size_of::<T>()).filter(|&size| size > 0)?;
    let align = if size >= HUGE_PAGE {
        HUGE_PAGE.max(align_of::<T>())
    } else {
        align_of::<T>()
    };
    Layout::from_size_align(size, align).ok()
}

// SAFETY: the slice owns its values like a `Box<[T]>` does.
unsafe impl<T: Send> Send for ZeroedSlice<T> {}
// SAFETY: shared access only hands out `&[T]`, as a `Box<[T]>` would.
unsafe impl<T: Sync> Sync for ZeroedSlice<T> {}

impl<T> ZeroedSlice<T> {
    /// An empty slice, which owns no memory.
    pub(super) fn empty() -> Self {
        ZeroedSlice {
            ptr: NonNull::dangling(),
            len: 0,
        }
    }

    /// `len` values of `T`, every byte zero, or `None` when the memory cannot be had.
    /// `before_touching` runs once the memory is reserved and before any page of it is
    /// written, so a caller can free what the new slice replaces without holding both.
    ///
    /// # Safety
    /// A value of `T` whose bytes are all zero must be valid.
    pub(super) unsafe fn new(len: usize, before_touching: impl FnOnce()) -> Option<Self> {
        if len.checked_mul(size_of::<T>())? == 0 {
            before_touching();
            return Some(ZeroedSlice {
                ptr: NonNull::dangling(),
                len,
            });
        }
        let layout = layout_of::<T>(len)?;
        // SAFETY: the layout has a non-zero size.
        let ptr = NonNull::new(unsafe { alloc::alloc(layout) })?.cast::<T>();
        advise_huge_pages(ptr.as_ptr().cast(), layout.size());
        before_touching();
        // SAFETY: the allocation is `layout.size()` bytes long and ours alone; zero bytes make
        // valid values of `T` by the caller's promise.
        unsafe { ptr.as_ptr().cast::<u8>().write_bytes(0, layout.size()) };
        Some(ZeroedSlice { ptr, len })
    }
}

/// Asks Linux to back `[ptr, ptr + size)` with huge pages; a refusal is harmless.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut u8, size: usize) {
    if (ptr as usize).is_multiple_of(HUGE_PAGE) {
        // SAFETY: the range is one live allocation of ours; the advice changes no contents.
        unsafe { libc::madvise(ptr.cast(), size, libc::MADV_HUGEPAGE) };
    }
}

/// Other systems choose their page sizes themselves.
#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_ptr: *mut u8, _size: usize) {}

impl<T> Deref for ZeroedSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values (or is dangling with `len` 0).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for ZeroedSlice<T> {
    fn drop(&mut self) {
        // SAFETY: the values are initialised and dropped once; the memory is freed with the
        // layout it was allocated with (the same `len`), and only when something was allocated.
        unsafe {
            std::ptr::drop_in_place(&mut **self as *mut [T]);
            if let Some(layout) = layout_of::<T>(self.len) {
                alloc::dealloc(self.ptr.as_ptr().cast(), layout);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_and_aligned_when_large() {
        // SAFETY: zero is a valid u64.
        let big = unsafe { ZeroedSlice::<u64>::new(HUGE_PAGE / 8 + 1, || {}) }.unwrap();
        assert_eq!(big.len(), HUGE_PAGE / 8 + 1);
        assert!((big.as_ptr() as usize).is_multiple_of(HUGE_PAGE));
        assert!(big.iter().all(|&v| v == 0));
        // SAFETY: as above.
        let small = unsafe { ZeroedSlice::<u64>::new(3, || {}) }.unwrap();
        assert_eq!(&*small, &[0, 0, 0]);
    }

    #[test]
    fn impossible_sizes_are_refused_and_the_hook_runs_before_zeroing() {
        let mut ran = false;
        // SAFETY: zero is a valid u64 and a valid u8.
        assert!(unsafe { ZeroedSlice::<u64>::new(usize::MAX / 4, || ran = true) }.is_none());
        // SAFETY: as above.
        assert!(unsafe { ZeroedSlice::<u8>::new(1 << 60, || ran = true) }.is_none());
        assert!(!ran, "nothing is freed for an allocation that fails");
        // SAFETY: as above.
        let mut one = unsafe { ZeroedSlice::<u64>::new(1, || ran = true) }.unwrap();
        assert!(ran);
        one[0] = 7;
        assert_eq!(one[0], 7);
        assert!(ZeroedSlice::<u64>::empty().is_empty());
    }
}
