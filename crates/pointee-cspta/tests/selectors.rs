//! The selectors of every variant, on hand-made contexts: k-limiting of
//! method contexts to k elements and of heap contexts to k-1 (seed 003),
//! static calls (k-call appends the site, k-obj and k-type keep the caller's
//! context), and parsing of variant names.

use pointee_cspta::{Contexts, Elem, Receiver, Selector, Variant, EMPTY};

fn v(s: &str) -> Variant {
    Variant::parse(s).unwrap()
}

fn elems(c: &Contexts, id: u32) -> Vec<Elem> {
    c.get(id).to_vec()
}

const L1: Elem = Elem::Call(0, 1);
const L2: Elem = Elem::Call(0, 2);
const L3: Elem = Elem::Call(1, 7);

#[test]
fn call_site_sensitivity_appends_and_limits() {
    let mut c = Contexts::default();
    let sel = v("2-call");
    let a = sel.callee_context(&mut c, EMPTY, L1, None);
    assert_eq!(elems(&c, a), vec![L1]);
    let b = sel.callee_context(&mut c, a, L2, None);
    assert_eq!(elems(&c, b), vec![L1, L2]);
    let d = sel.callee_context(&mut c, b, L3, None);
    assert_eq!(elems(&c, d), vec![L2, L3], "the last k call sites");
    let hd = sel.heap_context(&mut c, d);
    assert_eq!(elems(&c, hd), vec![L3], "heap contexts keep k-1");
    let one = v("1-call");
    let o = one.callee_context(&mut c, d, L1, None);
    assert_eq!(elems(&c, o), vec![L1]);
    assert_eq!(one.heap_context(&mut c, d), EMPTY);
    let three = v("3-call");
    let e = three.callee_context(&mut c, b, L3, None);
    assert_eq!(elems(&c, e), vec![L1, L2, L3]);
    let he = three.heap_context(&mut c, e);
    assert_eq!(elems(&c, he), vec![L2, L3]);
}

#[test]
fn object_sensitivity_uses_the_receiver_and_keeps_static_contexts() {
    let mut c = Contexts::default();
    let sel = v("2-obj");
    let r1 = Receiver {
        heap_ctx: EMPTY,
        alloc: 4,
        in_type: 0,
    };
    let a = sel.callee_context(&mut c, EMPTY, L1, Some(r1));
    assert_eq!(elems(&c, a), vec![Elem::Alloc(4)]);
    let h = sel.heap_context(&mut c, a);
    assert_eq!(elems(&c, h), vec![Elem::Alloc(4)]);
    let r2 = Receiver {
        heap_ctx: h,
        alloc: 9,
        in_type: 1,
    };
    let b = sel.callee_context(&mut c, a, L2, Some(r2));
    assert_eq!(
        elems(&c, b),
        vec![Elem::Alloc(4), Elem::Alloc(9)],
        "[heap context of o] ++ [o]"
    );
    assert_eq!(
        sel.callee_context(&mut c, b, L3, None),
        b,
        "a static call keeps the caller's context"
    );
    assert_eq!(v("1-obj").heap_context(&mut c, b), EMPTY);
}

#[test]
fn type_sensitivity_uses_the_class_of_the_allocation_site() {
    let mut c = Contexts::default();
    let sel = v("2-type");
    let r = Receiver {
        heap_ctx: EMPTY,
        alloc: 4,
        in_type: 3,
    };
    let a = sel.callee_context(&mut c, EMPTY, L1, Some(r));
    assert_eq!(elems(&c, a), vec![Elem::Type(3)]);
    let r2 = Receiver {
        heap_ctx: sel.heap_context(&mut c, a),
        alloc: 5,
        in_type: 3,
    };
    let b = sel.callee_context(&mut c, a, L2, Some(r2));
    assert_eq!(elems(&c, b), vec![Elem::Type(3), Elem::Type(3)]);
    assert_eq!(sel.callee_context(&mut c, b, L3, None), b);
}

#[test]
fn context_insensitivity_is_one_context() {
    let mut c = Contexts::default();
    let sel = v("ci");
    let r = Receiver {
        heap_ctx: EMPTY,
        alloc: 4,
        in_type: 3,
    };
    assert_eq!(sel.callee_context(&mut c, EMPTY, L1, Some(r)), EMPTY);
    assert_eq!(sel.callee_context(&mut c, EMPTY, L1, None), EMPTY);
    assert_eq!(sel.heap_context(&mut c, EMPTY), EMPTY);
}

#[test]
fn variant_names() {
    for name in Variant::ALL {
        assert_eq!(v(name).name(), name);
    }
    assert_eq!(Variant::default().name(), "2-obj");
    for bad in ["", "obj", "0-obj", "4-call", "2-foo", "x-type", "2obj"] {
        assert!(Variant::parse(bad).is_err(), "{bad}");
    }
}
