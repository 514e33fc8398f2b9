//! Work split over threads: a slice cut into one contiguous part a thread, each part mapped by
//! the same function on a scoped thread, the results back in the parts' order.

/// `f` applied to each of up to `threads` contiguous parts of `items` (none for no items), each
/// on a thread of its own.
pub fn map_parts<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    f: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    if items.is_empty() {
        return Vec::new();
    }
    let part = items.len().div_ceil(threads.max(1));
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(part)
            .map(|chunk| scope.spawn(move || f(chunk)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker thread"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::map_parts;

    #[test]
    fn every_item_is_mapped_once_in_order() {
        let items: Vec<u32> = (1..=10).collect();
        for threads in [1, 3, 4, 16] {
            let parts = map_parts(&items, threads, <[u32]>::to_vec);
            assert!(parts.len() <= threads.min(10), "{threads}: {parts:?}");
            assert_eq!(parts.concat(), items, "{threads}");
        }
        assert!(map_parts(&[] as &[u32], 2, |p| p.len()).is_empty());
    }
}
