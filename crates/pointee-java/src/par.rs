//! Work on the machine's cores: files and units are independent once the
//! class table is built, so they are parsed and lowered in parallel (here,
//! and in the editor's database, which outlines Java files in parallel).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack of each worker: lowering recurses over the syntax tree.
const STACK: usize = 64 << 20;

/// How many threads to spread `items` items over: the machine's cores,
/// at most one per item, at least one.
pub fn threads_for(items: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, items.max(1))
}

/// `f(i, item)` for every item, on up to as many threads as the machine
/// has cores (the items taken in order, one at a time, by whichever thread
/// is free); the results in the items' order, whatever thread made them.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(usize, &T) -> R + Sync) -> Vec<R> {
    let threads = threads_for(items.len());
    par_map_with(vec![(); threads], items, |_, i, x| f(i, x))
}

/// As [`par_map`], on one thread per element of `states`, each thread
/// handing its own state to `f` (what cannot be shared between threads,
/// such as a database handle, made once per thread by the caller).
pub fn par_map_with<S: Send, T: Sync, R: Send>(
    mut states: Vec<S>,
    items: &[T],
    f: impl Fn(&mut S, usize, &T) -> R + Sync,
) -> Vec<R> {
    if states.len() <= 1 {
        let Some(state) = states.first_mut() else {
            return Vec::new();
        };
        return items
            .iter()
            .enumerate()
            .map(|(i, x)| f(state, i, x))
            .collect();
    }
    let next = AtomicUsize::new(0);
    let (next, f) = (&next, &f);
    let mut all: Vec<(usize, R)> = std::thread::scope(|s| {
        let workers: Vec<_> = states
            .into_iter()
            .map(|mut state| {
                std::thread::Builder::new()
                    .stack_size(STACK)
                    .spawn_scoped(s, move || {
                        let mut done = Vec::new();
                        loop {
                            let i = next.fetch_add(1, Ordering::Relaxed);
                            let Some(x) = items.get(i) else { break };
                            done.push((i, f(&mut state, i, x)));
                        }
                        done
                    })
                    .expect("spawning a worker thread")
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
        // Each thread counts the items it took in its own state.
        let doubled = super::par_map_with(vec![0u32; 2], &items, |n, _, x| {
            *n += 1;
            x * 2
        });
        assert_eq!(doubled, (0..1000).map(|x| x * 2).collect::<Vec<u32>>());
    }
}
