//! Structure-aware inputs: a C program built from fuzzer bytes, read through
//! `crate::rand::Bytes`, so that every input is a program the C
//! front end accepts (typed, declared, balanced) and the engine gets to work
//! on pointers: fields, arrays, unions, the heap, function pointers and
//! tables of them, `memcpy`, casts to the first member, recursion (direct,
//! mutual, through pointers) and unknown functions. Byte-level mutation of
//! real files (the other C target) finds the front end's problems; this one
//! reaches the engine's.

use crate::rand::Bytes;
use std::fmt::Write;

/// Lvalues of type `int *` in every function.
const INT_PTRS: &[&str] = &["gp0", "gp1", "ga[0]", "ga[1]", "gs0.f", "gs1.f", "gu.p"];
/// Lvalues of type `int *` in a generated function `fK` (beside the globals).
const LOCAL_INT_PTRS: &[&str] = &["a", "lp0", "lp1", "s->f", "la[0]", "la[1]"];
const STRUCT_PTRS: &[&str] = &["gsp", "gs0.n", "gs1.n"];
const LOCAL_STRUCT_PTRS: &[&str] = &["s", "ls", "s->n"];
const INTS: &[&str] = &["&g0", "&g1", "&li"];
const FN_LVALUES: &[&str] = &["gfp", "gtab[0]", "gtab[1]", "gs0.op", "s->op"];

struct Gen<'a, 'b> {
    u: &'b mut Bytes<'a>,
    out: String,
    funcs: usize,
    /// Statements left in the whole program.
    budget: usize,
    labels: usize,
}

impl Gen<'_, '_> {
    fn pick<'s>(&mut self, v: &[&'s str]) -> &'s str {
        v[self.u.below(v.len())]
    }

    fn below(&mut self, n: usize) -> usize {
        self.u.below(n)
    }

    fn int_ptr_lvalue(&mut self) -> String {
        if self.u.ratio(1, 2) {
            self.pick(LOCAL_INT_PTRS).into()
        } else {
            self.pick(INT_PTRS).into()
        }
    }

    fn struct_ptr_lvalue(&mut self) -> String {
        if self.u.ratio(1, 2) {
            self.pick(LOCAL_STRUCT_PTRS).into()
        } else {
            self.pick(STRUCT_PTRS).into()
        }
    }

    fn int_ptr_rvalue(&mut self) -> String {
        match self.below(12) {
            0..=2 => self.pick(INTS).into(),
            3 => "0".into(),
            4 => "(int *)malloc(sizeof(int))".into(),
            5 => {
                let k = self.below(self.funcs);
                let a = self.int_ptr_lvalue();
                let s = self.struct_ptr_lvalue();
                format!("f{k}({a}, {s}, d - 1)")
            }
            6 => {
                let p = self.int_ptr_lvalue();
                format!("{p} + {}", self.below(3))
            }
            7 => "ext_get()".into(),
            8 => {
                // The first member of a struct, by a cast.
                let s = self.struct_ptr_lvalue();
                format!("(s && {s}) ? *(int **){s} : 0")
            }
            9 => {
                let q = self.pick(&["lq", "gq"]);
                format!("({q} ? *{q} : 0)")
            }
            _ => self.int_ptr_lvalue(),
        }
    }

    fn stmt(&mut self, depth: usize) {
        if self.budget == 0 || self.u.is_empty() {
            return;
        }
        self.budget -= 1;
        let pad = "    ".repeat(depth + 1);
        let limit = if depth < 3 { 24 } else { 16 };
        let line = match self.below(limit) {
            0..=3 => {
                let l = self.int_ptr_lvalue();
                let r = self.int_ptr_rvalue();
                // A field or element through a pointer that may be NULL.
                if l.starts_with("s->") {
                    format!("if (s) {l} = {r};")
                } else {
                    format!("{l} = {r};")
                }
            }
            4 => {
                let q = self.pick(&["lq", "gq"]);
                let p = self.int_ptr_lvalue();
                format!("{q} = &{};", p.trim_start_matches('&'))
            }
            5 => {
                let q = self.pick(&["lq", "gq"]);
                let r = self.int_ptr_rvalue();
                format!("if ({q}) *{q} = {r};")
            }
            6 => {
                let l = self.struct_ptr_lvalue();
                let r = match self.below(5) {
                    0 => "&gs0".to_string(),
                    1 => "&gs1".to_string(),
                    2 => "(struct S *)calloc(1, sizeof(struct S))".to_string(),
                    3 => "0".to_string(),
                    _ => self.struct_ptr_lvalue(),
                };
                if l.starts_with("s->") {
                    format!("if (s) {l} = {r};")
                } else {
                    format!("{l} = {r};")
                }
            }
            7 => {
                let l = self.pick(FN_LVALUES);
                let r = match self.below(4) {
                    0 => "op0",
                    1 => "op1",
                    2 => "0",
                    _ => "ext_op",
                };
                if l.starts_with("s->") {
                    format!("if (s) {l} = {r};")
                } else {
                    format!("{l} = {r};")
                }
            }
            8 => {
                let f = self.pick(FN_LVALUES);
                let p = self.int_ptr_lvalue();
                if f.starts_with("s->") {
                    format!("if (s && {f}) li += {f}({p});")
                } else {
                    format!("if ({f}) li += {f}({p});")
                }
            }
            9 => {
                let k = self.below(self.funcs);
                let l = self.int_ptr_lvalue();
                let a = self.int_ptr_rvalue();
                let s = self.struct_ptr_lvalue();
                if l.starts_with("s->") {
                    format!("if (d > 0) lp0 = f{k}({a}, {s}, d - 1);")
                } else {
                    format!("if (d > 0) {l} = f{k}({a}, {s}, d - 1);")
                }
            }
            10 => {
                let p = self.int_ptr_lvalue();
                match self.below(4) {
                    0 => format!("free({p}); {p} = 0;"),
                    1 => format!(
                        "lp1 = (int *)realloc(lp1, {} * sizeof(int));",
                        1 + self.below(4)
                    ),
                    2 => "memcpy(la, ga, sizeof la);".into(),
                    _ => "memcpy(&gs1, &gs0, sizeof gs0);".into(),
                }
            }
            11 => {
                let p = self.int_ptr_rvalue();
                match self.below(3) {
                    0 => format!("gu.p = {p};"),
                    1 => "gu.l = (long)li;".into(),
                    _ => "lp0 = gu.p;".into(),
                }
            }
            12 => {
                let p = self.int_ptr_lvalue();
                format!(
                    "ext_use({p}, &{});",
                    self.pick(&["gp0", "lp0", "gs0", "ls"])
                )
            }
            13 => {
                let s = self.struct_ptr_lvalue();
                let t = self.struct_ptr_lvalue();
                format!("if ({s} && {t}) *{s} = *{t};")
            }
            14 => {
                let l = self.labels;
                self.labels += 1;
                let p = self.int_ptr_lvalue();
                let r = self.int_ptr_rvalue();
                format!("if (li & 1) goto L{l}; {p} = {r}; L{l}: ;")
            }
            15 => {
                let p = self.int_ptr_lvalue();
                format!("if ({p}) li += *{p};")
            }
            16..=18 => {
                let cond = self.cond();
                self.line(depth, &format!("if ({cond}) {{"));
                self.block(depth + 1);
                if self.u.ratio(1, 2) {
                    self.line(depth, "} else {");
                    self.block(depth + 1);
                }
                "}".into()
            }
            19 | 20 => {
                let cond = self.cond();
                self.line(
                    depth,
                    &format!("for (int i{depth} = 0; i{depth} < 3 && ({cond}); i{depth}++) {{"),
                );
                self.block(depth + 1);
                if self.u.ratio(1, 3) {
                    self.line(depth + 1, "if (li > 7) break;");
                }
                "}".into()
            }
            21 => {
                self.line(depth, "switch (li & 3) {");
                self.line(depth, "case 0:");
                self.block(depth + 1);
                self.line(depth, "case 1:");
                self.block(depth + 1);
                self.line(depth + 1, "break;");
                self.line(depth, "default:");
                self.block(depth + 1);
                "}".into()
            }
            22 => {
                let p = self.int_ptr_rvalue();
                format!("if (li == {}) return {p};", self.below(4))
            }
            _ => {
                self.line(depth, "{");
                self.line(depth + 1, "int *inner = lp0;");
                self.block(depth + 1);
                self.line(depth + 1, "lp1 = inner;");
                "}".into()
            }
        };
        let _ = writeln!(self.out, "{pad}{line}");
    }

    fn line(&mut self, depth: usize, s: &str) {
        let _ = writeln!(self.out, "{}{s}", "    ".repeat(depth + 1));
    }

    fn cond(&mut self) -> String {
        match self.below(5) {
            0 => format!("{} == {}", self.int_ptr_lvalue(), self.int_ptr_lvalue()),
            1 => format!("!{}", self.int_ptr_lvalue()),
            2 => format!("{} != 0", self.struct_ptr_lvalue()),
            3 => "li & 2".into(),
            _ => "d > 1".into(),
        }
    }

    fn block(&mut self, depth: usize) {
        let n = 1 + self.below(4);
        for _ in 0..n {
            self.stmt(depth);
        }
    }

    fn function(&mut self, k: usize) {
        let _ = writeln!(self.out, "int *f{k}(int *a, struct S *s, int d) {{");
        self.out.push_str(
            "    int li = d; int *lp0 = a, *lp1 = &g1; int *la[2] = { &li, a };\n    int **lq = &lp0; struct S *ls = s;\n",
        );
        self.block(0);
        self.block(0);
        let r = self.int_ptr_lvalue();
        let _ = writeln!(self.out, "    return {r};\n}}");
    }
}

/// A C program from fuzzer bytes: prototypes, globals, 1 to 4 generated
/// functions (which call each other: mutual recursion, bounded at run time
/// by `d`), two small callees for function pointers, and `main`.
pub fn c_program(data: &[u8]) -> String {
    let mut u = Bytes::new(data);
    let funcs = 1 + u.below(4);
    let mut g = Gen {
        u: &mut u,
        out: String::new(),
        funcs,
        budget: 120,
        labels: 0,
    };
    g.out.push_str(
        "#include <stdlib.h>\n#include <string.h>\n\
         struct S { int *f; struct S *n; int (*op)(int *); };\n\
         union U { int *p; long l; };\n\
         int *ext_get(void);\nvoid ext_use(void *, void *);\nint ext_op(int *);\n\
         int g0, g1;\nint *gp0, *gp1 = &g0;\nint *ga[2];\nint **gq;\n\
         struct S gs0, gs1;\nstruct S *gsp = &gs0;\nunion U gu;\n\
         int (*gfp)(int *);\n",
    );
    for k in 0..funcs {
        let _ = writeln!(g.out, "int *f{k}(int *a, struct S *s, int d);");
    }
    g.out.push_str(
        "int op0(int *p) { gp0 = p; return p ? *p : 0; }\n\
         int op1(int *p) { if (p) *p = 1; gp1 = gp0; return 0; }\n\
         int (*gtab[2])(int *) = { op0, op1 };\n",
    );
    for k in 0..funcs {
        g.function(k);
    }
    g.out.push_str(
        "int main(void) {\n    int *r = f0(&g0, &gs0, 3);\n    if (gfp) gfp(r);\n    return r == &g1;\n}\n",
    );
    g.out
}
