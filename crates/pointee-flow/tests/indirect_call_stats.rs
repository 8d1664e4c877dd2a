//! `check`'s figures count the indirect call sites and those with at least
//! one callee (what `callees` lists there): the real-program table's
//! "indirect call sites resolved" column (`docs/benchmarks.md`).

fn stat(stats: &[(String, u64)], name: &str) -> u64 {
    stats
        .iter()
        .find(|(k, _)| k == name)
        .unwrap_or_else(|| panic!("no figure {name:?} in {stats:?}"))
        .1
}

#[test]
fn indirect_call_sites_and_those_with_a_callee_are_counted() {
    // A table call (two callees), a call through a pointer that is only
    // NULL (none), a call through what `dlsym` returned (unknown code: it
    // may call the escaped `one` and `two`), and one in a function no
    // entry reaches, analysed as an extra entry (its parameter may point
    // to any address-taken function of its type).
    let text = r#"
        #include <dlfcn.h>
        static int one(void) { return 1; }
        static int two(void) { return 2; }
        int (*table[2])(void) = {one, two};
        static int apply(int (*f)(void)) { return f(); }
        int main(int argc, char **argv) {
            int (*none)(void) = 0;
            int r = table[argc & 1]();
            if (argc > 5)
                r += none();
            int (*loaded)(void) = (int (*)(void))dlsym(0, "f");
            if (loaded)
                r += loaded();
            return r;
        }
    "#;
    let lowered = pointee_c::lower(&[("calls.c", text)]).unwrap();
    let a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
    let stats = a.stats();
    assert_eq!(stat(&stats, "indirect call sites"), 4);
    assert_eq!(stat(&stats, "indirect call sites with a callee"), 3);
}
