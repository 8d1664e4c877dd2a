//! Generators of Java programs in the subset: small random ones whose
//! statements mix every rule (for comparing the two solvers), and large
//! structured ones (modules with deep hierarchies, factories and containers)
//! for the benchmark. Deterministic for a seed.

use std::fmt::Write;

/// A small deterministic PRNG (xorshift64*).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// A random program: `classes` classes under one root `Base` (fields f0..f2,
/// methods m0..m2, some overridden), static helpers, a static field, an
/// array, casts and calls of every kind. Not meant to run, only to analyse.
pub fn random(seed: u64, classes: usize, stmts: usize) -> String {
    let mut r = Rng::new(seed);
    let mut s = String::new();
    let locals = ["a", "b", "c", "d"];
    let body = |r: &mut Rng, s: &mut String, n: usize, in_static: bool, classes: usize| {
        for l in locals {
            let _ = writeln!(s, "        Base {l} = null;");
        }
        for _ in 0..n {
            let x = locals[r.below(4)];
            let y = locals[r.below(4)];
            let line = match r.below(14) {
                0 | 1 => format!("{x} = new C{}();", r.below(classes)),
                2 => format!("{x} = {y};"),
                3 => format!("{x} = {y}.f{};", r.below(3)),
                4 => format!("{x}.f{} = {y};", r.below(3)),
                5 => format!("{x} = {y}.m{}({});", r.below(3), locals[r.below(4)]),
                6 => format!("{x} = Main.s{}({y});", r.below(2)),
                7 => format!("{x} = (C{}) {y};", r.below(classes)),
                8 => format!("Main.G = {y};"),
                9 => format!("{x} = Main.G;"),
                10 => format!("Main.ARR[0] = {y};"),
                11 => format!("{x} = Main.ARR[1];"),
                12 if !in_static => format!("{x} = this.f{};", r.below(3)),
                12 => format!("{x} = new Base();"),
                _ if !in_static => format!("this.f{} = {y};", r.below(3)),
                _ => format!("{x} = null;"),
            };
            let _ = writeln!(s, "        {line}");
        }
        let _ = writeln!(s, "        return {};", locals[r.below(4)]);
    };
    let _ = writeln!(s, "public class Main {{");
    let _ = writeln!(s, "    static Base G;");
    let _ = writeln!(s, "    static Base[] ARR = new Base[2];");
    let _ = writeln!(s, "    public static void main(String[] args) {{");
    let _ = writeln!(s, "        Base r = run();");
    let _ = writeln!(s, "    }}");
    let _ = writeln!(s, "    static Base run() {{");
    body(&mut r, &mut s, stmts, true, classes);
    let _ = writeln!(s, "    }}");
    for i in 0..2 {
        let _ = writeln!(s, "    static Base s{i}(Base p) {{");
        let _ = writeln!(s, "        Base q = p;");
        body(&mut r, &mut s, stmts / 2, true, classes);
        let _ = writeln!(s, "    }}");
    }
    let _ = writeln!(s, "}}");
    let _ = writeln!(s, "class Base {{");
    let _ = writeln!(s, "    Base f0; Base f1; Base f2;");
    for m in 0..3 {
        let _ = writeln!(s, "    Base m{m}(Base p) {{");
        body(&mut r, &mut s, stmts / 3, false, classes);
        let _ = writeln!(s, "    }}");
    }
    let _ = writeln!(s, "}}");
    for c in 0..classes {
        let sup = if c == 0 || r.chance(30) {
            "Base".to_string()
        } else {
            format!("C{}", r.below(c))
        };
        let _ = writeln!(s, "class C{c} extends {sup} {{");
        for m in 0..3 {
            if r.chance(40) {
                let _ = writeln!(s, "    Base m{m}(Base p) {{");
                body(&mut r, &mut s, stmts / 3, false, classes);
                let _ = writeln!(s, "    }}");
            }
        }
        let _ = writeln!(s, "}}");
    }
    s
}

/// A large structured program: `modules` modules, each a hierarchy of
/// `depth` classes with a factory, a container (a linked list of nodes made
/// inside it), wrappers and a driver called from main; every driver also uses
/// the shared library classes `SharedList` and `SharedBox` (with a static
/// factory), where short contexts merge all modules' objects.
pub fn large(modules: usize, depth: usize, seed: u64) -> String {
    large_files(modules, depth, seed)
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

/// The program of [`large`] as a Java project lays it out: `Main.java`
/// (`Main` and the shared classes), then one file per module,
/// `Module0000.java`, ... (path order is module order); `large` is their
/// texts joined.
pub fn large_files(modules: usize, depth: usize, seed: u64) -> Vec<(String, String)> {
    let mut r = Rng::new(seed);
    let mut files = Vec::new();
    let mut s = String::new();
    let _ = writeln!(s, "public class Main {{");
    let _ = writeln!(s, "    static Object SHARED;");
    let _ = writeln!(s, "    public static void main(String[] args) {{");
    for m in 0..modules {
        let _ = writeln!(s, "        new Driver{m}().run();");
    }
    let _ = writeln!(s, "    }}");
    let _ = writeln!(s, "    static Object id(Object o) {{ return o; }}");
    let _ = writeln!(s, "}}");
    // Library classes every module uses: where ci and short contexts merge.
    let _ = writeln!(s, "class SNode {{ Object val; SNode next; SNode(Object v, SNode n) {{ val = v; next = n; }} }}");
    let _ = writeln!(s, "class SharedList {{");
    let _ = writeln!(s, "    SNode head;");
    let _ = writeln!(s, "    void add(Object o) {{ head = new SNode(o, head); }}");
    let _ = writeln!(s, "    Object get() {{ return head.val; }}");
    let _ = writeln!(s, "}}");
    let _ = writeln!(s, "class SharedBox {{");
    let _ = writeln!(s, "    Object v;");
    let _ = writeln!(s, "    void set(Object o) {{ this.v = o; }}");
    let _ = writeln!(s, "    Object get() {{ return this.v; }}");
    let _ = writeln!(s, "    static SharedBox of(Object o) {{ SharedBox b = new SharedBox(); b.set(o); return b; }}");
    let _ = writeln!(s, "}}");
    files.push(("Main.java".to_string(), std::mem::take(&mut s)));
    for m in 0..modules {
        // A hierarchy K{m}_0 <- K{m}_1 <- ... with overridden methods.
        let _ = writeln!(s, "abstract class K{m}_0 {{");
        let _ = writeln!(s, "    Object data;");
        let _ = writeln!(s, "    abstract Object get();");
        let _ = writeln!(s, "    void set(Object o) {{ this.data = o; }}");
        let _ = writeln!(s, "    Object self() {{ return this; }}");
        let _ = writeln!(s, "}}");
        for d in 1..depth {
            let _ = writeln!(s, "class K{m}_{d} extends K{m}_{} {{", d - 1);
            let _ = writeln!(s, "    Object extra{d};");
            let _ = writeln!(s, "    Object get() {{");
            let _ = writeln!(s, "        Object t = this.data;");
            let _ = writeln!(s, "        this.extra{d} = t;");
            let _ = writeln!(s, "        return t;");
            let _ = writeln!(s, "    }}");
            if r.chance(50) {
                let _ = writeln!(
                    s,
                    "    void set(Object o) {{ super.set(o); this.extra{d} = o; }}"
                );
            }
            let _ = writeln!(s, "}}");
        }
        // A factory.
        let _ = writeln!(s, "class Factory{m} {{");
        let _ = writeln!(s, "    K{m}_0 make(int k) {{");
        for d in 1..depth {
            let _ = writeln!(s, "        if (k == {d}) return new K{m}_{d}();");
        }
        let _ = writeln!(s, "        return new K{m}_{}();", depth - 1);
        let _ = writeln!(s, "    }}");
        let _ = writeln!(
            s,
            "    static Factory{m} create() {{ return new Factory{m}(); }}"
        );
        let _ = writeln!(s, "}}");
        // A container: a linked list with nodes made inside add().
        let _ = writeln!(s, "class Node{m} {{ Object val; Node{m} next; Node{m}(Object v, Node{m} n) {{ val = v; next = n; }} }}");
        let _ = writeln!(s, "class List{m} {{");
        let _ = writeln!(s, "    Node{m} head;");
        let _ = writeln!(s, "    Object[] cache = new Object[8];");
        let _ = writeln!(
            s,
            "    void add(Object o) {{ head = new Node{m}(o, head); cache[0] = o; }}"
        );
        let _ = writeln!(s, "    Object first() {{ return head.val; }}");
        let _ = writeln!(s, "    Object any() {{ Node{m} n = head; while (n != null) {{ n = n.next; }} return cache[1]; }}");
        let _ = writeln!(s, "}}");
        // A wrapper around the container.
        let _ = writeln!(s, "class Wrap{m} {{");
        let _ = writeln!(s, "    List{m} inner = new List{m}();");
        let _ = writeln!(s, "    void put(Object o) {{ this.inner.add(o); }}");
        let _ = writeln!(s, "    Object take() {{ return this.inner.first(); }}");
        let _ = writeln!(s, "}}");
        // The driver.
        let _ = writeln!(s, "class Driver{m} {{");
        let _ = writeln!(s, "    void run() {{");
        let _ = writeln!(s, "        Factory{m} f = Factory{m}.create();");
        let _ = writeln!(s, "        Wrap{m} w1 = new Wrap{m}();");
        let _ = writeln!(s, "        Wrap{m} w2 = new Wrap{m}();");
        for i in 0..depth {
            let _ = writeln!(s, "        K{m}_0 o{i} = f.make({});", r.below(depth));
            let _ = writeln!(s, "        o{i}.set(new Object());");
            let _ = writeln!(s, "        Object g{i} = o{i}.get();");
            let _ = writeln!(s, "        K{m}_0 s{i} = (K{m}_0) o{i}.self();");
            let _ = writeln!(
                s,
                "        if ({i} % 2 == 0) w1.put(g{i}); else w2.put(Main.id(s{i}));"
            );
        }
        let _ = writeln!(s, "        SharedList sl = new SharedList();");
        let _ = writeln!(s, "        sl.add(g0);");
        let _ = writeln!(s, "        sl.add(s{});", depth - 1);
        let _ = writeln!(s, "        SharedBox sb = SharedBox.of(sl.get());");
        let _ = writeln!(s, "        Object z = sb.get();");
        let _ = writeln!(s, "        Object x = w1.take();");
        let _ = writeln!(s, "        Object y = w2.take();");
        if r.chance(10) {
            let _ = writeln!(s, "        Main.SHARED = x;");
        }
        let _ = writeln!(s, "        K{m}_0 back = (K{m}_0) y;");
        let _ = writeln!(s, "    }}");
        let _ = writeln!(s, "}}");
        files.push((format!("Module{m:04}.java"), std::mem::take(&mut s)));
    }
    files
}
