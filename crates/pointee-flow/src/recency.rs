//! The newest object of an allocation site, kept apart from the site's
//! summary (a recency abstraction, limited to one body between calls).
//!
//! `p = malloc(..)` makes `p` point to `Fresh(site)`, one object, so that
//! `p->next = head` is a strong update. The next allocation at the site, any
//! call to a function with a body, and the function's exit *demote* it:
//! its facts merge (possibly) into the site's summary and pointers to it
//! point to the summary. Callees and callers therefore never see a fresh
//! object, and map/unmap need not know about it.

use crate::facts::{Fact, Facts};
use crate::fxhash::FxHashMap as HashMap;
use crate::loc::{LocId, Locs, Root, NULL};

/// Demotes the fresh object of `only` (a fresh root), or every fresh
/// object.
pub fn demote(locs: &mut Locs, st: &mut Facts, only: Option<LocId>) {
    let fresh = |locs: &Locs, l: LocId| {
        let r = locs.get(l).root_id;
        matches!(locs.get(r).root, Root::Fresh(..)) && only.is_none_or(|o| o == r)
    };
    let touched: Vec<LocId> = st
        .iter()
        .flat_map(|f| [f.src, f.dst])
        .filter(|&l| fresh(locs, l))
        .collect();
    if touched.is_empty() {
        return;
    }
    let mut old: HashMap<LocId, LocId> = HashMap::default();
    for l in touched {
        if old.contains_key(&l) {
            continue;
        }
        let d = locs.get(l);
        let (root, path) = (d.root_id, d.path.clone());
        let Root::Fresh(o, s) = locs.get(root).root.clone() else {
            continue;
        };
        let summary = locs.root(Root::Heap(o, s));
        if locs.zeroed.contains(&root) {
            locs.zeroed.insert(summary);
        }
        old.insert(l, locs.with_path(summary, &path));
    }
    let mut out: Vec<Fact> = Vec::with_capacity(st.len());
    for f in st.iter() {
        let src = old.get(&f.src).copied().unwrap_or(f.src);
        let dst = old.get(&f.dst).copied().unwrap_or(f.dst);
        let moved = src != f.src;
        out.push(Fact {
            src,
            dst,
            def: f.def && !moved && !locs.is_summary(src),
        });
        // A zeroed site's other objects may still hold NULL there.
        if moved && locs.zeroed.contains(&locs.get(src).root_id) {
            out.push(Fact {
                src,
                dst: NULL,
                def: false,
            });
        }
    }
    *st = Facts::from_unsorted(out);
}
