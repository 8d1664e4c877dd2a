//! Work on the machine's cores: files and units are independent once the
//! class table is built, so they are parsed and lowered in parallel.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack of each worker: lowering recurses over the syntax tree.
const STACK: usize = 64 << 20;

/// `f(i, item)` for every item, on up to as many threads as the machine
/// has cores (the items taken in order, one at a time, by whichever thread
/// is free); the results in the items' order, whatever thread made them.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().enumerate().map(|(i, x)| f(i, x)).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(x) = items.get(i) else { break };
            done.push((i, f(i, x)));
        }
        done
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, work)
                    .expect("spawning a lowering thread")
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_keep_the_items_order() {
        let items: Vec<u32> = (0..1000).collect();
        let out = super::par_map(&items, |i, x| (i as u32) * 2 + x);
        assert_eq!(out, (0..1000).map(|x| x * 3).collect::<Vec<u32>>());
        assert!(super::par_map(&[] as &[u32], |_, x| *x).is_empty());
    }
}
