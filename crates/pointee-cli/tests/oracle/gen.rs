//! The generator: small random C programs that gcc compiles, that terminate
//! and whose every path is defined behaviour, with probes that print which
//! object each probed pointer points to.
//!
//! Every object whose address is ever taken lives as long as the program
//! (globals, `main`'s locals, heap objects that are never freed), so the
//! runtime can name any pointer value from a table of addresses printed by
//! the program itself (`O name class address`; an address with several
//! names, such as a struct and its first member or a union's members, is
//! printed once per name). Callees' locals never have their address taken.
//! Every dereference is guarded by `if (p)`, every pointer is initialised,
//! loops run `in[k]` (at most 3) times, and every call in a generated
//! function is guarded by a global depth counter, so recursion (direct, or
//! through function pointers) is bounded.
//!
//! Shapes: fields, arrays and pointer arithmetic, the heap, struct copies,
//! unions (a pointer written through one member, read through another),
//! `memcpy`/`memmove` of arrays of pointers and of structs, casts between
//! a struct and its first member (`struct T { struct S base; .. }`), calls
//! through function pointers and tables, and unknown functions: declared
//! in the program, defined in a second file (`Program::unknown`) that gcc
//! compiles and the analysis never sees.
//!
//! Each call of a generated function is bracketed by `CALLED(__LINE__)` and
//! `RETURNED()`, and each probe is preceded by `CONTEXT()`; for gcc
//! (`-DORACLE_RT`) they keep a stack of call lines and print it (`C line..`)
//! before the probe's `P` line, so the oracle knows the call chain of every
//! observation; for the analysis they expand to nothing.

/// splitmix64: tiny, deterministic, good enough to pick shapes.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// What a pointer points to; also the class of an object in the address
/// table: `int` objects, `int *` objects, `struct S` objects, functions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Class {
    Int,
    IntPtr,
    S,
    Fn,
}

impl Class {
    pub fn of_tag(t: &str) -> Option<Class> {
        Some(match t {
            "int" => Class::Int,
            "ip" => Class::IntPtr,
            "S" => Class::S,
            "fn" => Class::Fn,
            _ => return None,
        })
    }
}

/// A probe: the program prints `P id address` where `expr` (of a pointer
/// type pointing to `class`) is read, on `line`, its last character at
/// `column` (1-based), inside `function`.
#[derive(Clone, Debug)]
pub struct Probe {
    pub line: u32,
    pub column: u32,
    pub expr: String,
    pub class: Class,
    pub function: String,
}

pub struct Program {
    pub text: String,
    /// The unknown functions' definitions: a second file for gcc only.
    pub unknown: String,
    pub probes: Vec<Probe>,
    /// Inputs to run the program with (`argv[1]`).
    pub inputs: Vec<u32>,
}

const FIELDS: [(&str, Class); 5] = [
    ("f", Class::Int),
    ("h", Class::Int),
    ("g", Class::IntPtr),
    ("n", Class::S),
    ("op", Class::Fn),
];

fn fields_of(c: Class) -> Vec<&'static str> {
    FIELDS.iter().filter(|f| f.1 == c).map(|f| f.0).collect()
}

struct Gen {
    rng: Rng,
    lines: Vec<String>,
    probes: Vec<Probe>,
    nfuncs: usize,
    /// Allow back edges in the direct call graph (mutual recursion).
    cycles: bool,
    /// Generate backward walks over arrays and negative indices.
    backward: bool,
    /// Generate casts between a struct pointer and its first member's
    /// pointer when the member is a pointer: loads and stores through
    /// `(int **)sp`, and `((struct S *)&s.f)->h` (they found
    /// `fixtures/c/soundness/first_member_cast.c` and
    /// `memcpy_first_member.c`, since fixed; off by default: they make
    /// some programs much slower, see `oracle.rs`). The struct-to-struct
    /// casts (`struct T` and its `base`) are always on.
    first_member_loads: bool,
    /// The current function: `None` is `main`.
    func: Option<usize>,
    loop_depth: usize,
    counter: usize,
    /// Statements left in the current body (keeps programs small).
    budget: usize,
}

impl Gen {
    fn emit(&mut self, indent: usize, s: impl AsRef<str>) {
        self.lines
            .push(format!("{}{}", "    ".repeat(indent), s.as_ref()));
    }

    fn in_main(&self) -> bool {
        self.func.is_none()
    }

    fn fname(&self) -> String {
        match self.func {
            None => "main".into(),
            Some(k) => format!("f{k}"),
        }
    }

    /// Pointer variables of class `c` in scope (assignable, plain names).
    fn vars(&self, c: Class) -> Vec<String> {
        let mut v: Vec<String> = match c {
            Class::Int => vec!["g_p0".into(), "g_p1".into()],
            Class::IntPtr => vec!["g_q0".into()],
            Class::S => vec!["g_sp0".into()],
            Class::Fn => vec!["g_fp0".into()],
        };
        match (self.func, c) {
            (None, Class::Int) => v.extend(["m_p0".into(), "m_p1".into()]),
            (None, Class::IntPtr) => v.extend(["m_q0".into(), "m_q1".into()]),
            (None, Class::S) => v.push("m_sp0".into()),
            (None, Class::Fn) => v.push("m_fp0".into()),
            (Some(_), Class::Int) => v.extend(["a".into(), "l_p0".into(), "l_st0".into()]),
            (Some(_), Class::IntPtr) => v.extend(["b".into(), "b2".into(), "l_q0".into()]),
            (Some(_), Class::S) => v.extend(["s".into(), "l_s0".into()]),
            (Some(_), Class::Fn) => v.push("l_fp0".into()),
        }
        v
    }

    /// Expressions for the address of an object of class `c` in scope.
    fn addrs(&mut self, c: Class) -> Vec<String> {
        let mut v: Vec<String> = match c {
            Class::Int => vec!["&g_i0".into(), "&g_i1".into(), "&g_i2".into()],
            Class::IntPtr => vec![
                "&g_p0".into(),
                "&g_p1".into(),
                "&g_a[0]".into(),
                "&g_a[1]".into(),
                "&g_a[2]".into(),
                "&g_s0.f".into(),
                "&g_s0.h".into(),
                "&g_b[0]".into(),
                "&g_u0.a".into(),
                "&g_u1.b".into(),
                "&g_t0.extra".into(),
            ],
            Class::S => vec![
                "&g_s0".into(),
                "&g_s1".into(),
                "&g_t0.base".into(),
                // a first-member cast: `g_t1` begins with its `base`
                "(struct S *)&g_t1".into(),
            ],
            Class::Fn => (0..self.nfuncs).map(|k| format!("f{k}")).collect(),
        };
        if c == Class::IntPtr && self.first_member_loads {
            // a first-member cast: the struct's address is its `f`'s
            v.push("(int **)&g_s1".into());
        }
        if self.in_main() {
            match c {
                Class::Int => v.extend(["&m_i0".into(), "&m_i1".into()]),
                Class::IntPtr => v.extend([
                    "&m_p0".into(),
                    "&m_a[0]".into(),
                    "&m_a[1]".into(),
                    "&m_s0.f".into(),
                    "&m_h0->h".into(),
                    "m_c0".into(),
                ]),
                Class::S => v.extend(["&m_s0".into(), "m_h0".into()]),
                Class::Fn => {}
            }
        }
        v
    }

    /// An rvalue of pointer class `c` that needs no guard.
    fn rvalue(&mut self, c: Class) -> String {
        match self.rng.below(10) {
            0..=3 => {
                let v = self.addrs(c);
                self.rng.pick(&v).clone()
            }
            4 => "NULL".into(),
            5 if c == Class::Int => {
                let k = self.index(3);
                let from = *self.rng.pick(&["g_a", "g_a", "g_b"]);
                format!("{from}[{k}]")
            }
            5 if c == Class::IntPtr => {
                let k = self.rng.below(2);
                format!("&g_u{k}.{}", self.rng.pick(&["a", "b"]))
            }
            6 if c == Class::IntPtr => {
                // pointer arithmetic (forward only: see `backward`)
                let k = self.index(3);
                format!("g_a + ({k})")
            }
            6 if c == Class::Fn => {
                let k = self.index(3);
                format!("g_tab[{k}]")
            }
            7 => {
                let s = self.struct_var();
                let fs = fields_of(c);
                let f = self.rng.pick(&fs);
                format!("{s}.{f}")
            }
            _ => {
                let v = self.vars(c);
                self.rng.pick(&v).clone()
            }
        }
    }

    fn struct_var(&mut self) -> String {
        if self.in_main() {
            self.rng.pick(&["g_s0", "g_s1", "m_s0"]).to_string()
        } else {
            self.rng.pick(&["g_s0", "g_s1"]).to_string()
        }
    }

    /// An index into an array of `n` elements: constant or from the input.
    fn index(&mut self, n: usize) -> String {
        if self.rng.chance(50) {
            self.rng.below(n).to_string()
        } else {
            format!("in[{}] % {n}", self.rng.below(8))
        }
    }

    fn class(&mut self) -> Class {
        *self.rng.pick(&[
            Class::Int,
            Class::Int,
            Class::Int,
            Class::IntPtr,
            Class::IntPtr,
            Class::S,
            Class::Fn,
        ])
    }

    /// `printf` of `expr` (a pointer to `c`) on its own line.
    fn probe(&mut self, indent: usize, expr: &str, c: Class) {
        let id = self.probes.len();
        // The call chain that reached the probe, printed before it (gcc only).
        self.emit(indent, "CONTEXT();");
        let text = format!("printf(\"P {id} %p\\n\", (void *)({expr}));");
        // The last character of `expr` (the innermost expression there is
        // `expr` itself), or its `*` (at its last character `q` is innermost).
        let column = if expr.starts_with('*') {
            (indent * 4 + text.len() - 3 - expr.len() + 1) as u32
        } else {
            (indent * 4 + text.len() - 3) as u32
        };
        self.emit(indent, text);
        self.probes.push(Probe {
            line: self.lines.len() as u32,
            column,
            expr: expr.to_string(),
            class: c,
            function: self.fname(),
        });
    }

    fn maybe_probe(&mut self, indent: usize, expr: &str, c: Class) {
        if self.rng.chance(60) {
            self.probe(indent, expr, c);
        }
        if self.rng.chance(15) {
            let c2 = self.class();
            let v = self.vars(c2);
            let x = self.rng.pick(&v).clone();
            self.probe(indent, &x, c2);
        }
    }

    /// A call expression of the generated signature, or None (no callee).
    fn call(&mut self, indent: usize, lhs: Option<&str>) {
        let a = self.rvalue(Class::Int);
        let b = self.rvalue(Class::IntPtr);
        let b2 = self.rvalue(Class::IntPtr);
        let s = self.rvalue(Class::S);
        let args = format!("({a}, {b}, {b2}, {s})");
        let assign = lhs.map(|l| format!("{l} = ")).unwrap_or_default();
        let guard = !self.in_main();
        let i = if guard {
            self.emit(indent, "if (dep < 3) {");
            self.emit(indent + 1, "dep++;");
            indent + 1
        } else {
            indent
        };
        // Generated functions call mostly later functions directly, and the
        // last one itself (a bounded recursion), with a few back edges
        // (mutual recursion) when `cycles` is on (`ORACLE_CYCLES=1`; the
        // analysis of such cycles is much slower in debug builds). Indirect calls
        // (function pointers in variables, tables and structs) are in main.
        let direct = match self.func {
            None => 0..self.nfuncs,
            // Now and then a back edge: mutual recursion.
            Some(_) if self.cycles && self.rng.chance(8) => 0..self.nfuncs,
            Some(k) if k + 1 == self.nfuncs => k..self.nfuncs,
            Some(k) => k + 1..self.nfuncs,
        };
        let choice = if self.in_main() || self.rng.chance(5) {
            self.rng.below(6)
        } else {
            0
        };
        match choice {
            0..=2 => {
                let k = direct.start + self.rng.below(direct.len());
                self.emit(
                    i,
                    format!("CALLED(__LINE__); {assign}f{k}{args}; RETURNED();"),
                );
            }
            3 => {
                let v = self.vars(Class::Fn);
                let fp = self.rng.pick(&v).clone();
                self.emit(
                    i,
                    format!("if ({fp}) {{ CALLED(__LINE__); {assign}{fp}{args}; RETURNED(); }}"),
                );
            }
            4 => {
                let k = self.index(3);
                self.emit(
                    i,
                    format!(
                        "if (g_tab[{k}]) {{ CALLED(__LINE__); {assign}g_tab[{k}]{args}; RETURNED(); }}"
                    ),
                );
            }
            _ => {
                let v = self.vars(Class::S);
                let sp = self.rng.pick(&v).clone();
                self.emit(
                    i,
                    format!(
                        "if ({sp} && {sp}->op) {{ CALLED(__LINE__); {assign}{sp}->op{args}; RETURNED(); }}"
                    ),
                );
            }
        }
        if guard {
            self.emit(indent + 1, "dep--;");
            self.emit(indent, "}");
        }
        if let Some(l) = lhs {
            self.maybe_probe(indent, l, Class::Int);
        }
    }

    fn stmt(&mut self, indent: usize) {
        if self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let c = self.class();
        let vars = self.vars(c);
        let v = self.rng.pick(&vars).clone();
        match self.rng.below(35) {
            0..=4 => {
                let r = self.rvalue(c);
                self.emit(indent, format!("{v} = {r};"));
                self.maybe_probe(indent, &v, c);
            }
            5 => {
                // *q = p
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                let r = self.rvalue(Class::Int);
                self.emit(indent, format!("if ({q}) *{q} = {r};"));
                if self.rng.chance(50) {
                    self.emit(indent, format!("if ({q}) {{"));
                    self.probe(indent + 1, &format!("*{q}"), Class::Int);
                    self.emit(indent, "}");
                }
            }
            6 => {
                // p = *q
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                self.emit(indent, format!("if ({q}) {p} = *{q};"));
                self.maybe_probe(indent, &p, Class::Int);
            }
            7 => {
                // s.f = p / sp->f = p
                let fs = fields_of(c);
                let f = self.rng.pick(&fs).to_string();
                let r = self.rvalue(c);
                if self.rng.chance(50) {
                    let s = self.struct_var();
                    self.emit(indent, format!("{s}.{f} = {r};"));
                    self.maybe_probe(indent, &format!("{s}.{f}"), c);
                } else {
                    let ss = self.vars(Class::S);
                    let sp = self.rng.pick(&ss).clone();
                    self.emit(indent, format!("if ({sp}) {{"));
                    self.emit(indent + 1, format!("{sp}->{f} = {r};"));
                    self.maybe_probe(indent + 1, &format!("{sp}->{f}"), c);
                    self.emit(indent, "}");
                }
            }
            8 => {
                // p = sp->f
                let fs = fields_of(c);
                let f = self.rng.pick(&fs).to_string();
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                self.emit(indent, format!("if ({sp}) {v} = {sp}->{f};"));
                self.maybe_probe(indent, &v, c);
            }
            9 => {
                // arrays of pointers
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                if self.in_main() && self.rng.chance(40) {
                    let k = self.index(2);
                    if self.rng.chance(50) {
                        self.emit(indent, format!("m_a[{k}] = {p};"));
                    } else {
                        self.emit(indent, format!("{p} = m_a[{k}];"));
                        self.maybe_probe(indent, &p, Class::Int);
                    }
                } else {
                    let k = self.index(3);
                    if self.rng.chance(50) {
                        self.emit(indent, format!("g_a[{k}] = {p};"));
                    } else {
                        self.emit(indent, format!("{p} = g_a[{k}];"));
                        self.maybe_probe(indent, &p, Class::Int);
                    }
                }
            }
            10 => {
                let k = self.index(3);
                let f = self.rvalue(Class::Fn);
                self.emit(indent, format!("g_tab[{k}] = {f};"));
            }
            11 | 12 => {
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                self.call(indent, Some(&p));
            }
            13 | 14 => {
                let cond = if self.rng.chance(70) {
                    format!("in[{}]", self.rng.below(8))
                } else {
                    v.clone()
                };
                self.emit(indent, format!("if ({cond}) {{"));
                self.block(indent + 1, 3);
                if self.rng.chance(60) {
                    self.emit(indent, "} else {");
                    self.block(indent + 1, 3);
                }
                self.emit(indent, "}");
            }
            15 if self.loop_depth < 2 => {
                let c = self.counter;
                self.counter += 1;
                self.loop_depth += 1;
                let k = self.rng.below(8);
                self.emit(
                    indent,
                    format!("for (int c{c} = 0; c{c} < in[{k}]; c{c}++) {{"),
                );
                self.block(indent + 1, 3);
                self.emit(indent, "}");
                self.loop_depth -= 1;
            }
            16 if self.func == Some(self.nfuncs - 1) => {
                // the heap, allocated in a callee (one site, many objects)
                self.emit(indent, "{");
                self.emit(indent + 1, "struct S *n = malloc(sizeof(struct S));");
                let line = self.lines.len();
                self.emit(indent + 1, "if (n) {");
                self.emit(
                    indent + 2,
                    "n->f = a; n->h = NULL; n->g = b; n->n = s; n->op = NULL;",
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line} S %p\\n\", (void *)n);"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line}.f ip %p\\n\", (void *)&n->f);"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line} ip %p same\\n\", (void *)n);"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line}.h ip %p\\n\", (void *)&n->h);"),
                );
                self.emit(indent + 2, "l_s0 = n;");
                self.probe(indent + 2, "l_s0", Class::S);
                self.emit(indent + 1, "}");
                self.emit(indent, "}");
            }
            17 => self.union_stmt(indent),
            18 => self.copy_stmt(indent),
            19 => self.first_member_stmt(indent),
            // Rare: the engine's clobbering of what unknown code reaches is
            // slow in loops (a program with a few in loops took minutes).
            32 => self.unknown_call(indent),
            20 => {
                // struct copies
                let a = self.struct_var();
                let b = self.struct_var();
                if a != b {
                    self.emit(indent, format!("{a} = {b};"));
                    self.maybe_probe(indent, &format!("{a}.f"), Class::Int);
                } else {
                    let ss = self.vars(Class::S);
                    let sp = self.rng.pick(&ss).clone();
                    self.emit(indent, format!("if ({sp}) {a} = *{sp};"));
                    self.maybe_probe(indent, &format!("{a}.n"), Class::S);
                }
            }
            21 => {
                // two levels: sp->n->f, *sp->g
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                if self.rng.chance(50) {
                    let fs = fields_of(c);
                    let f = self.rng.pick(&fs).to_string();
                    self.emit(indent, format!("if ({sp} && {sp}->n) {v} = {sp}->n->{f};"));
                    self.maybe_probe(indent, &v, c);
                } else {
                    let r = self.rvalue(Class::Int);
                    self.emit(indent, format!("if ({sp} && {sp}->g) *{sp}->g = {r};"));
                    self.emit(indent, format!("if ({sp} && {sp}->g) {{"));
                    self.probe(indent + 1, &format!("*{sp}->g"), Class::Int);
                    self.emit(indent, "}");
                }
            }
            22 if self.loop_depth < 2 => {
                // walk an array of pointers with pointer arithmetic
                let (arr, n) = if self.in_main() && self.rng.chance(40) {
                    ("m_a", 2)
                } else {
                    ("g_a", 3)
                };
                let c = self.counter;
                self.counter += 1;
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                self.emit(
                    indent,
                    format!("for (int **e{c} = &{arr}[0]; e{c} < &{arr}[{n}]; e{c}++) {{"),
                );
                self.probe(indent + 1, &format!("e{c}"), Class::IntPtr);
                let j = self.rng.below(8);
                self.emit(indent + 1, format!("if (*e{c} && in[{}]) {p} = *e{c};", j));
                if self.rng.chance(50) {
                    let r = self.rvalue(Class::Int);
                    let j = self.rng.below(8);
                    self.emit(indent + 1, format!("if (in[{}]) *e{c} = {r};", j));
                }
                self.emit(indent, "}");
                self.maybe_probe(indent, &p, Class::Int);
            }
            23 => {
                // switch with a fall-through
                let j = self.rng.below(8);
                self.emit(indent, format!("switch (in[{}]) {{", j));
                self.emit(indent, "case 0:");
                self.block(indent + 1, 2);
                self.emit(indent, "case 1:");
                self.block(indent + 1, 2);
                self.emit(indent + 1, "break;");
                self.emit(indent, "default:");
                self.block(indent + 1, 2);
                self.emit(indent, "}");
            }
            24 if self.loop_depth < 2 => {
                // while with break and continue
                let c = self.counter;
                self.counter += 1;
                self.loop_depth += 1;
                self.emit(indent, format!("for (int w{c} = 0; ; w{c}++) {{"));
                let j = self.rng.below(8);
                self.emit(indent + 1, format!("if (w{c} >= in[{}]) break;", j));
                self.block(indent + 1, 2);
                let j = self.rng.below(8);
                self.emit(indent + 1, format!("if (in[{}]) continue;", j));
                self.block(indent + 1, 2);
                self.emit(indent, "}");
                self.loop_depth -= 1;
            }
            25 => {
                // null tests
                let r = self.rvalue(c);
                if self.rng.chance(50) {
                    self.emit(indent, format!("if (!{v}) {v} = {r};"));
                } else {
                    self.emit(indent, format!("if ({v} == NULL) {{"));
                    self.maybe_probe(indent + 1, &v, c);
                    self.emit(indent + 1, format!("{v} = {r};"));
                    self.emit(indent, "} else {");
                    self.maybe_probe(indent + 1, &v, c);
                    self.emit(indent, "}");
                }
                self.maybe_probe(indent, &v, c);
            }
            26 => {
                // a conditional expression; a chained assignment
                let r1 = self.rvalue(c);
                let r2 = self.rvalue(c);
                if self.rng.chance(50) {
                    let j = self.rng.below(8);
                    self.emit(indent, format!("{v} = in[{}] ? {r1} : {r2};", j));
                    self.maybe_probe(indent, &v, c);
                } else {
                    let w = self.rng.pick(&vars).clone();
                    self.emit(indent, format!("{v} = {w} = {r1};"));
                    self.maybe_probe(indent, &v, c);
                    self.maybe_probe(indent, &w, c);
                }
            }
            27 => {
                // the address of a field through a pointer
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                let f = self.rng.pick(&["f", "h"]).to_string();
                self.emit(indent, format!("if ({sp}) {q} = &{sp}->{f};"));
                self.maybe_probe(indent, &q, Class::IntPtr);
            }
            28 => {
                // a forward goto
                let k = self.counter;
                self.counter += 1;
                let j = self.rng.below(8);
                self.emit(indent, format!("if (in[{}]) goto skip{k};", j));
                self.block(indent, 2);
                self.emit(indent, format!("skip{k}: ;"));
                self.maybe_probe(indent, &v, c);
            }
            29 => {
                // a struct on the heap, anywhere (in loops: many objects)
                self.emit(indent, "{");
                self.emit(indent + 1, "struct S *n = malloc(sizeof(struct S));");
                let line = self.lines.len();
                self.emit(indent + 1, "if (n) {");
                let r = self.rvalue(Class::Int);
                let ss = self.vars(Class::S);
                let link = self.rng.pick(&ss).clone();
                self.emit(
                    indent + 2,
                    format!("n->f = {r}; n->h = NULL; n->g = NULL; n->n = {link}; n->op = NULL;"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line} S %p\\n\", (void *)n);"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line}.f ip %p\\n\", (void *)&n->f);"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line} ip %p same\\n\", (void *)n);"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line}.h ip %p\\n\", (void *)&n->h);"),
                );
                if self.rng.chance(50) {
                    let qs = self.vars(Class::IntPtr);
                    let q = self.rng.pick(&qs).clone();
                    self.emit(indent + 2, format!("n->g = {q};"));
                    self.emit(indent + 2, "if (n->g) *n->g = n->f;");
                }
                let sp = self.rng.pick(&ss).clone();
                self.emit(indent + 2, format!("{sp} = n;"));
                self.maybe_probe(indent + 2, &format!("{sp}->f"), Class::Int);
                self.maybe_probe(indent + 2, &sp, Class::S);
                self.emit(indent + 1, "}");
                self.emit(indent, "}");
            }
            30 => {
                // an array of pointers on the heap (one location per site)
                self.emit(indent, "{");
                self.emit(indent + 1, "int **n = malloc(3 * sizeof(int *));");
                let line = self.lines.len();
                self.emit(indent + 1, "if (n) {");
                let r0 = self.rvalue(Class::Int);
                let r1 = self.rvalue(Class::Int);
                self.emit(
                    indent + 2,
                    format!("n[0] = {r0}; n[1] = {r1}; n[2] = NULL;"),
                );
                self.emit(
                    indent + 2,
                    format!("printf(\"O heap@{line} ip %p\\n\", (void *)&n[0]);"),
                );
                for i in 1..3 {
                    self.emit(
                        indent + 2,
                        format!("printf(\"O heap@{line} ip %p same\\n\", (void *)&n[{i}]);"),
                    );
                }
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                let k = self.index(3);
                self.emit(indent + 2, format!("{p} = n[{k}];"));
                self.maybe_probe(indent + 2, &p, Class::Int);
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                let k = self.index(3);
                self.emit(indent + 2, format!("{q} = &n[{k}];"));
                self.maybe_probe(indent + 2, &q, Class::IntPtr);
                self.emit(indent + 2, format!("if ({q}) {p} = *{q};"));
                self.maybe_probe(indent + 2, &p, Class::Int);
                self.emit(indent + 1, "}");
                self.emit(indent, "}");
            }
            31 if self.backward && self.loop_depth < 2 => {
                // a walk back from the end of an array, a negative index
                // (fixtures/c/soundness/negative_index.c was found so)
                let c = self.counter;
                self.counter += 1;
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                if self.rng.chance(50) {
                    let j = self.rng.below(8);
                    self.emit(
                        indent,
                        format!("for (int **e{c} = &g_a[3]; e{c} > &g_a[0]; ) {{"),
                    );
                    self.emit(indent + 1, format!("e{c}--;"));
                    self.probe(indent + 1, &format!("e{c}"), Class::IntPtr);
                    self.emit(indent + 1, format!("if (*e{c} && in[{j}]) {p} = *e{c};"));
                    self.emit(indent, "}");
                } else {
                    let k = 1 + self.rng.below(2);
                    self.emit(
                        indent,
                        format!("{{ int **e{c} = &g_a[2]; {p} = e{c}[-{k}]; }}"),
                    );
                }
                self.maybe_probe(indent, &p, Class::Int);
            }
            _ => {
                // a field of a struct variable, read
                let s = self.struct_var();
                let fs = fields_of(c);
                let f = self.rng.pick(&fs).to_string();
                self.emit(indent, format!("{v} = {s}.{f};"));
                self.maybe_probe(indent, &v, c);
            }
        }
    }

    /// A pointer written through one member of a union, read through
    /// another; a member's address; a union copied whole.
    fn union_stmt(&mut self, indent: usize) {
        let ps = self.vars(Class::Int);
        let p = self.rng.pick(&ps).clone();
        let (k, j) = (self.rng.below(2), self.rng.below(2));
        match self.rng.below(3) {
            0 => {
                let r = self.rvalue(Class::Int);
                self.emit(indent, format!("g_u{k}.a = {r};"));
                self.emit(indent, format!("{p} = g_u{j}.b;"));
                self.maybe_probe(indent, &p, Class::Int);
            }
            1 => {
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                let m = *self.rng.pick(&["a", "b"]);
                self.emit(indent, format!("{q} = &g_u{k}.{m};"));
                self.maybe_probe(indent, &q, Class::IntPtr);
                self.emit(indent, format!("if ({q}) {p} = *{q};"));
                self.maybe_probe(indent, &p, Class::Int);
            }
            _ => {
                self.emit(indent, format!("g_u{k} = g_u{};", 1 - k));
                self.emit(indent, format!("{p} = g_u{k}.a;"));
                self.maybe_probe(indent, &p, Class::Int);
            }
        }
    }

    /// `memcpy`/`memmove` of arrays of pointers (whole, or a part at an
    /// offset) and of structs; then an element or a field read.
    fn copy_stmt(&mut self, indent: usize) {
        let ps = self.vars(Class::Int);
        let p = self.rng.pick(&ps).clone();
        match self.rng.below(5) {
            0 => self.emit(indent, "memcpy(g_b, g_a, sizeof g_a);"),
            1 => self.emit(indent, "memcpy(&g_b[1], &g_a[0], 2 * sizeof(int *));"),
            2 => self.emit(indent, "memmove(g_a, &g_b[1], 2 * sizeof(int *));"),
            3 if self.in_main() => {
                let k = self.rng.below(2);
                self.emit(indent, format!("memcpy(m_a, &g_b[{k}], sizeof m_a);"));
                let k = self.index(2);
                self.emit(indent, format!("{p} = m_a[{k}];"));
                self.maybe_probe(indent, &p, Class::Int);
                return;
            }
            _ => {
                let s = self.struct_var();
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                self.emit(
                    indent,
                    format!("if ({sp}) memmove(&{s}, {sp}, sizeof(struct S));"),
                );
                self.emit(indent, format!("{p} = {s}.f;"));
                self.maybe_probe(indent, &p, Class::Int);
                return;
            }
        }
        let k = self.index(3);
        let from = *self.rng.pick(&["g_a", "g_b"]);
        self.emit(indent, format!("{p} = {from}[{k}];"));
        self.maybe_probe(indent, &p, Class::Int);
    }

    /// Casts between a struct and its first member: a `struct S *` read as
    /// the `int **` of its `f`, a first member's address as the struct's,
    /// and a `struct T *` taken back from the `struct S *` of its `base`.
    fn first_member_stmt(&mut self, indent: usize) {
        let ps = self.vars(Class::Int);
        let p = self.rng.pick(&ps).clone();
        match self.rng.below(3) {
            0 if self.first_member_loads => {
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                self.emit(indent, format!("if ({sp}) {q} = (int **){sp};"));
                self.maybe_probe(indent, &q, Class::IntPtr);
                self.emit(indent, format!("if ({q}) {p} = *{q};"));
                self.maybe_probe(indent, &p, Class::Int);
            }
            1 if self.first_member_loads => {
                let s = self.struct_var();
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                self.emit(indent, format!("{sp} = (struct S *)&{s}.f;"));
                self.maybe_probe(indent, &sp, Class::S);
            }
            _ => {
                let c = self.counter;
                self.counter += 1;
                let j = self.rng.below(8);
                let r = self.rvalue(Class::Int);
                self.emit(indent, "{");
                self.emit(
                    indent + 1,
                    format!("struct S *b{c} = in[{j}] ? &g_t0.base : (struct S *)&g_t1;"),
                );
                self.emit(indent + 1, format!("struct T *t{c} = (struct T *)b{c};"));
                self.emit(
                    indent + 1,
                    format!("if (in[{}]) t{c}->extra = {r};", (j + 1) % 8),
                );
                self.emit(indent + 1, format!("{p} = t{c}->extra;"));
                self.maybe_probe(indent + 1, &p, Class::Int);
                self.maybe_probe(indent + 1, &format!("b{c}"), Class::S);
                self.emit(indent + 1, format!("{p} = t{c}->base.f;"));
                self.maybe_probe(indent + 1, &p, Class::Int);
                self.emit(indent, "}");
            }
        }
    }

    /// A call of an unknown function (`UNKNOWN_FUNCTIONS`: defined in the
    /// file only gcc compiles): it stores its arguments into globals and
    /// through pointers, returns globals or what it was given.
    fn unknown_call(&mut self, indent: usize) {
        match self.rng.below(4) {
            0 => {
                let ps = self.vars(Class::Int);
                let p = self.rng.pick(&ps).clone();
                let r = self.rvalue(Class::Int);
                self.emit(indent, format!("{p} = u_keep({r});"));
                self.maybe_probe(indent, &p, Class::Int);
                self.maybe_probe(indent, "g_p1", Class::Int);
            }
            1 => {
                let qs = self.vars(Class::IntPtr);
                let q = self.rng.pick(&qs).clone();
                let r = self.rvalue(Class::Int);
                self.emit(indent, format!("u_store({q}, {r});"));
                self.emit(indent, format!("if ({q}) {{"));
                self.probe(indent + 1, &format!("*{q}"), Class::Int);
                self.emit(indent, "}");
            }
            2 => {
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                let s = self.rvalue(Class::S);
                self.emit(indent, format!("{sp} = u_link({s});"));
                self.maybe_probe(indent, &sp, Class::S);
            }
            _ => {
                let ss = self.vars(Class::S);
                let sp = self.rng.pick(&ss).clone();
                self.emit(indent, format!("u_swap({sp});"));
                self.emit(indent, format!("if ({sp}) {{"));
                self.probe(indent + 1, &format!("{sp}->f"), Class::Int);
                self.emit(indent, "}");
            }
        }
    }

    fn block(&mut self, indent: usize, n: usize) {
        let n = 1 + self.rng.below(n);
        for _ in 0..n {
            self.stmt(indent);
        }
    }

    fn function(&mut self, k: usize) {
        self.func = Some(k);
        self.budget = 6 + self.rng.below(8);
        self.emit(
            0,
            format!("int *f{k}(int *a, int **b, int **b2, struct S *s) {{"),
        );
        self.emit(1, "static int *l_st0;");
        self.emit(1, "int *l_p0 = a;");
        self.emit(1, "int **l_q0 = b;");
        self.emit(1, "struct S *l_s0 = s;");
        self.emit(1, "fn_t l_fp0 = NULL;");
        while self.budget > 0 {
            self.stmt(1);
        }
        let ps = self.vars(Class::Int);
        let r = self.rng.pick(&ps).clone();
        self.probe(1, &r, Class::Int);
        self.emit(1, format!("return {r};"));
        self.emit(0, "}");
    }

    fn main(&mut self) {
        self.func = None;
        self.budget = 14 + self.rng.below(14);
        self.emit(0, "int main(int argc, char **argv) {");
        self.emit(1, "int seed = argc > 1 ? atoi(argv[1]) : 0;");
        self.emit(
            1,
            "for (int i = 0; i < 8; i++) in[i] = (seed >> (2 * i)) & 3;",
        );
        self.emit(1, "int m_i0 = 0, m_i1 = 1;");
        self.emit(1, "int *m_p0 = NULL, *m_p1 = &g_i0;");
        self.emit(1, "int **m_q0 = NULL, **m_q1 = &g_p0;");
        self.emit(1, "int *m_a[2] = { NULL, &m_i0 };");
        self.emit(1, "struct S m_s0 = { NULL, &g_i1, NULL, NULL, NULL };");
        self.emit(1, "struct S *m_sp0 = &g_s0;");
        self.emit(1, "fn_t m_fp0 = f0;");
        self.emit(1, "struct S *m_h0 = malloc(sizeof(struct S));");
        let h = self.lines.len();
        self.emit(1, "if (!m_h0) return 0;");
        self.emit(
            1,
            "m_h0->f = &m_i1; m_h0->h = NULL; m_h0->g = &g_p1; m_h0->n = &m_s0; m_h0->op = f0;",
        );
        self.emit(1, "int **m_c0 = malloc(sizeof(int *));");
        let c = self.lines.len();
        self.emit(1, "if (!m_c0) return 0;");
        self.emit(1, "*m_c0 = &g_i2;");
        let mut objs: Vec<(String, &str, String)> = Vec::new();
        for x in ["g_i0", "g_i1", "g_i2", "m_i0", "m_i1"] {
            objs.push((x.into(), "int", format!("&{x}")));
        }
        for x in ["g_p0", "g_p1", "m_p0", "m_p1"] {
            objs.push((x.into(), "ip", format!("&{x}")));
        }
        objs.push(("g_a[0]".into(), "ip", "&g_a[0]".into()));
        objs.push(("g_a[+]".into(), "ip", "&g_a[1]".into()));
        objs.push(("g_a[+]".into(), "ip", "&g_a[2]".into()));
        objs.push(("m_a[0]".into(), "ip", "&m_a[0]".into()));
        objs.push(("m_a[+]".into(), "ip", "&m_a[1]".into()));
        objs.push(("g_b[0]".into(), "ip", "&g_b[0]".into()));
        objs.push(("g_b[+]".into(), "ip", "&g_b[1]".into()));
        objs.push(("g_b[+]".into(), "ip", "&g_b[2]".into()));
        // A union's members share its address: one object, three names.
        for u in ["g_u0", "g_u1"] {
            for name in [u.to_string(), format!("{u}.a"), format!("{u}.b")] {
                objs.push((name, "ip", format!("&{u}")));
            }
        }
        // A struct and its first member share an address: as a `struct S`
        // and as the `int *` of `f`, each is named both ways.
        for s in ["g_s0", "g_s1", "m_s0", "g_t0.base", "g_t1.base"] {
            let mut names = vec![s.to_string(), format!("{s}.f")];
            if let Some(t) = s.strip_suffix(".base") {
                names.push(t.to_string());
            }
            for n in &names {
                objs.push((n.clone(), "S", format!("&{s}")));
                objs.push((n.clone(), "ip", format!("&{s}")));
            }
            objs.push((format!("{s}.h"), "ip", format!("&{s}.h")));
        }
        for t in ["g_t0", "g_t1"] {
            objs.push((format!("{t}.extra"), "ip", format!("&{t}.extra")));
        }
        objs.push((format!("heap@{h}"), "S", "m_h0".into()));
        objs.push((format!("heap@{h}.f"), "ip", "&m_h0->f".into()));
        // (its first member's other name; the same address as `heap@{h}`,
        // so it stays the site's newest object)
        objs.push((format!("heap@{h}"), "ip", "m_h0".into()));
        objs.push((format!("heap@{h}.h"), "ip", "&m_h0->h".into()));
        objs.push((format!("heap@{c}"), "ip", "m_c0".into()));
        for k in 0..self.nfuncs {
            objs.push((format!("f{k}"), "fn", format!("f{k}")));
        }
        for (name, class, e) in objs {
            self.emit(
                1,
                format!("printf(\"O {name} {class} %p\\n\", (void *)({e}));"),
            );
        }
        while self.budget > 0 {
            self.stmt(1);
        }
        for c in [Class::Int, Class::IntPtr, Class::S, Class::Fn] {
            let v = self.vars(c);
            let x = self.rng.pick(&v).clone();
            self.probe(1, &x, c);
        }
        self.emit(1, "return 0;");
        self.emit(0, "}");
    }
}

/// The run-time side of the call chains: a stack of call lines, printed
/// before each probe (`C line..`); nothing for the analysis.
const CONTEXT_MACROS: &str = "\
#ifdef ORACLE_RT
int cs_line[64], cs_n;
#define CALLED(l) (cs_line[cs_n++] = (l))
#define RETURNED() (cs_n--)
#define CONTEXT() do { printf(\"C\"); for (int i_ = 0; i_ < cs_n; i_++) printf(\" %d\", cs_line[i_]); printf(\"\\n\"); } while (0)
#else
#define CALLED(l)
#define RETURNED()
#define CONTEXT()
#endif
";

/// The types both files share.
const TYPES: &str = "\
struct S;
typedef int *(*fn_t)(int *, int **, int **, struct S *);
struct S { int *f; int *h; int **g; struct S *n; fn_t op; };
struct T { struct S base; int *extra; };
union U { int *a; int *b; };
";

/// What the unknown functions use of the program.
const UNKNOWN_GLOBALS: &str = "\
extern int *g_p0, *g_p1;
extern struct S g_s1;
";

/// Functions the analysis sees declared only (each line ending in ` {` is
/// a definition's first line: the program declares it).
const UNKNOWN_FUNCTIONS: &str = "\
int *u_keep(int *a) {
    if (a) g_p1 = a;
    return g_p0;
}
void u_store(int **q, int *v) {
    if (q) *q = v;
}
struct S *u_link(struct S *s) {
    if (s && s->n) return s->n;
    return &g_s1;
}
void u_swap(struct S *s) {
    if (s) { int *t = s->f; s->f = s->h; s->h = t; }
}
";

pub fn generate(seed: u64, cycles: bool, backward: bool, first_member_loads: bool) -> Program {
    let mut rng = Rng::new(seed);
    let nfuncs = 2 + rng.below(3);
    let inputs = (0..8).map(|_| rng.below(1 << 16) as u32).collect();
    let mut g = Gen {
        rng,
        lines: Vec::new(),
        probes: Vec::new(),
        nfuncs,
        cycles,
        backward,
        first_member_loads,
        func: None,
        loop_depth: 0,
        counter: 0,
        budget: 0,
    };
    g.emit(0, "#include <stdio.h>");
    g.emit(0, "#include <stdlib.h>");
    g.emit(0, "#include <string.h>");
    for line in CONTEXT_MACROS.lines().chain(TYPES.lines()) {
        g.emit(0, line);
    }
    for line in UNKNOWN_FUNCTIONS.lines().filter(|l| l.ends_with(" {")) {
        // The prototype only: the body is in the file the analysis never sees.
        g.emit(0, format!("{};", line.trim_end_matches(" {")));
    }
    for k in 0..nfuncs {
        g.emit(
            0,
            format!("int *f{k}(int *a, int **b, int **b2, struct S *s);"),
        );
    }
    g.emit(0, "int in[8];");
    g.emit(0, "int dep;");
    g.emit(0, "int g_i0, g_i1, g_i2;");
    g.emit(0, "int *g_p0, *g_p1 = &g_i1;");
    g.emit(0, "int **g_q0;");
    g.emit(0, "int *g_a[3] = { &g_i0 }, *g_b[3];");
    g.emit(0, "union U g_u0, g_u1 = { &g_i2 };");
    g.emit(0, "struct T g_t0, g_t1 = { { &g_i0, &g_i1 }, &g_i2 };");
    g.emit(
        0,
        "struct S g_s0, g_s1 = { &g_i2, NULL, &g_p0, &g_s0, f0 };",
    );
    g.emit(0, "struct S *g_sp0 = &g_s1;");
    g.emit(0, "fn_t g_fp0;");
    let tab: Vec<String> = (0..3).map(|i| format!("f{}", i % nfuncs)).collect();
    g.emit(0, format!("fn_t g_tab[3] = {{ {} }};", tab.join(", ")));
    for k in 0..nfuncs {
        g.function(k);
    }
    g.main();
    let mut text = g.lines.join("\n");
    text.push('\n');
    let unknown = format!("{TYPES}{UNKNOWN_GLOBALS}{UNKNOWN_FUNCTIONS}");
    Program {
        text,
        unknown,
        probes: g.probes,
        inputs,
    }
}
