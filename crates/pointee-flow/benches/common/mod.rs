//! The C programs of the scale benchmark (also analysed, edited, by the
//! reuse tests): `generate` writes `lines / 64` modules (see `scale.rs`),
//! `generate_cycle` one big recursive cycle.

#![allow(dead_code)]

use std::fmt::Write;

/// A small seeded generator (a 64-bit LCG): the same programs on every
/// machine. The random soundness oracle draws from it too.
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// A number below `n`.
    pub fn pick(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub fn generate(lines: usize, seed: u64) -> String {
    let modules = (lines / 64).max(1);
    let mut r = Rng(seed);
    let mut s = String::new();
    s.push_str("#include <stdlib.h>\n");
    for k in 0..modules {
        let ops = 2 + (r.next() % 3) as usize;
        let _ = writeln!(s, "struct node_{k} {{ struct node_{k} *next; int *data; int (*op)(struct node_{k} *); }};");
        let _ = writeln!(
            s,
            "int g{k}_vals[8];\nstruct node_{k} *g{k}_head;\nint g{k}_count;"
        );
        for j in 0..ops {
            match j % 3 {
                0 => {
                    let _ = writeln!(s, "static int op{k}_{j}(struct node_{k} *n) {{\n    int *d;\n    d = n->data;\n    if (d)\n        return *d;\n    return 0;\n}}");
                }
                1 => {
                    let _ = writeln!(s, "static int op{k}_{j}(struct node_{k} *n) {{\n    if (n->next)\n        return 1;\n    return 0;\n}}");
                }
                _ => {
                    let _ = writeln!(s, "static int op{k}_{j}(struct node_{k} *n) {{\n    n->data = &g{k}_vals[1];\n    return 2;\n}}");
                }
            }
        }
        let names: Vec<String> = (0..ops).map(|j| format!("op{k}_{j}")).collect();
        let _ = writeln!(
            s,
            "int (*g{k}_table[{ops}])(struct node_{k} *) = {{ {} }};",
            names.join(", ")
        );
        let _ = writeln!(
            s,
            "struct node_{k} *mk_{k}(int *d, int i) {{
    struct node_{k} *n;
    n = malloc(sizeof(struct node_{k}));
    if (n == 0)
        return 0;
    n->data = d;
    n->next = g{k}_head;
    n->op = g{k}_table[i % {ops}];
    g{k}_head = n;
    g{k}_count++;
    return n;
}}
int sum_{k}(struct node_{k} *n, int depth) {{
    int s;
    if (n == 0 || depth > 20)
        return 0;
    s = n->op(n);
    return s + sum_{k}(n->next, depth + 1);
}}
void swap_{k}(int **a, int **b) {{
    int *t;
    t = *a;
    *a = *b;
    *b = t;
}}
int helper_{k}(int *x) {{
    if (x)
        g{k}_count += *x;
    return g{k}_count;
}}"
        );
        let other = if k == 0 { 0 } else { (r.next() as usize) % k };
        let _ = writeln!(
            s,
            "int drive_{k}(int seed) {{
    int i, s = 0;
    int *p, *q;
    int (*f)(struct node_{k} *);
    struct node_{k} *n;
    p = &g{k}_vals[0];
    q = &g{k}_vals[2];
    for (i = 0; i < 4; i++) {{
        n = mk_{k}(p, i + seed);
        if (n) {{
            f = g{k}_table[i % {ops}];
            s += f(n);
        }}
        swap_{k}(&p, &q);
    }}
    s += sum_{k}(g{k}_head, 0);
    s += helper_{other}(p);
    return s;
}}"
        );
    }
    s.push_str("int main(void) {\n    int total = 0;\n");
    for k in 0..modules {
        let _ = writeln!(s, "    total += drive_{k}({k});");
    }
    s.push_str("    return total == 0;\n}\n");
    s
}

/// The shapes of real code (`--shapes`): besides the list modules of
/// [`generate`] (whose `drive_k` now also fills a table of function
/// pointers at run time and calls through it), every third module is a
/// recursive-descent parser: about ten functions (statement, block, if,
/// while, assignment, expression, term, unary, primary) calling each other,
/// sharing a parser state struct passed by pointer, with expression nodes
/// on the stack linked to their callers'. With `unknown`, every module
/// calls a library function the program does not define (`ext_note`).
pub fn generate_real(lines: usize, seed: u64, unknown: bool) -> String {
    let mut r = Rng(seed);
    let mut s = String::new();
    s.push_str("#include <stdlib.h>\n");
    if unknown {
        s.push_str("void ext_note(void *p);\n");
    }
    let note = |s: &mut String, what: &str| {
        if unknown {
            let _ = writeln!(s, "    ext_note({what});");
        }
    };
    let mut k = 0;
    let mut drivers: Vec<String> = Vec::new();
    let mut helpers: Vec<usize> = Vec::new();
    while s.lines().count() < lines || k == 0 {
        if k % 3 == 2 {
            parser_module(&mut s, k, &note);
            drivers.push(format!("run_parser_{k}"));
            k += 1;
            continue;
        }
        let ops = 2 + (r.next() % 3) as usize;
        let _ = writeln!(s, "struct node_{k} {{ struct node_{k} *next; int *data; int (*op)(struct node_{k} *); }};");
        let _ = writeln!(
            s,
            "int g{k}_vals[8];\nstruct node_{k} *g{k}_head;\nint g{k}_count;\nint (*g{k}_rt[{ops}])(struct node_{k} *);"
        );
        for j in 0..ops {
            match j % 3 {
                0 => {
                    let _ = writeln!(s, "static int op{k}_{j}(struct node_{k} *n) {{\n    int *d;\n    d = n->data;\n    if (d)\n        return *d;\n    return 0;\n}}");
                }
                1 => {
                    let _ = writeln!(s, "static int op{k}_{j}(struct node_{k} *n) {{\n    if (n->next)\n        return 1;\n    return 0;\n}}");
                }
                _ => {
                    let _ = writeln!(s, "static int op{k}_{j}(struct node_{k} *n) {{\n    n->data = &g{k}_vals[1];\n    return 2;\n}}");
                }
            }
        }
        // The table is filled at run time.
        let _ = writeln!(s, "void init_{k}(void) {{");
        for j in 0..ops {
            let _ = writeln!(s, "    g{k}_rt[{j}] = op{k}_{j};");
        }
        s.push_str("}\n");
        let _ = writeln!(
            s,
            "struct node_{k} *mk_{k}(int *d, int i) {{
    struct node_{k} *n;
    n = malloc(sizeof(struct node_{k}));
    if (n == 0)
        return 0;
    n->data = d;
    n->next = g{k}_head;
    n->op = g{k}_rt[i % {ops}];
    g{k}_head = n;
    g{k}_count++;
    return n;
}}
int sum_{k}(struct node_{k} *n, int depth) {{
    int s;
    if (n == 0 || depth > 20)
        return 0;
    s = n->op(n);
    return s + sum_{k}(n->next, depth + 1);
}}
void swap_{k}(int **a, int **b) {{
    int *t;
    t = *a;
    *a = *b;
    *b = t;
}}
int helper_{k}(int *x) {{"
        );
        note(&mut s, "x");
        let _ = writeln!(
            s,
            "    if (x)
        g{k}_count += *x;
    return g{k}_count;
}}"
        );
        let other = match helpers.len() {
            0 => k,
            n => helpers[(r.next() as usize) % n],
        };
        let _ = writeln!(
            s,
            "int drive_{k}(int seed) {{
    int i, s = 0;
    int *p, *q;
    int (*f)(struct node_{k} *);
    struct node_{k} *n;
    init_{k}();
    p = &g{k}_vals[0];
    q = &g{k}_vals[2];
    for (i = 0; i < 4; i++) {{
        n = mk_{k}(p, i + seed);
        if (n) {{
            f = g{k}_rt[i % {ops}];
            s += f(n);
        }}
        swap_{k}(&p, &q);
    }}
    s += sum_{k}(g{k}_head, 0);
    s += helper_{other}(p);
    return s;
}}"
        );
        helpers.push(k);
        drivers.push(format!("drive_{k}"));
        k += 1;
    }
    s.push_str("int main(void) {\n    int total = 0;\n");
    for (i, d) in drivers.iter().enumerate() {
        let _ = writeln!(s, "    total += {d}({i});");
    }
    s.push_str("    return total == 0;\n}\n");
    s
}

/// One recursive-descent parser module of [`generate_real`].
fn parser_module(s: &mut String, k: usize, note: &dyn Fn(&mut String, &str)) {
    let _ = writeln!(
        s,
        "struct tok_{k} {{ int kind; struct tok_{k} *next; }};
struct expn_{k} {{ int *val; struct expn_{k} *up; }};
struct pst_{k} {{ struct tok_{k} *cur; struct expn_{k} *last; int *slot; struct pst_{k} *outer; int depth; }};
static int pv_{k}[4];
static int expr_{k}(struct pst_{k} *ps, struct expn_{k} *e);
static int stmt_{k}(struct pst_{k} *ps);
static int kind_{k}(struct pst_{k} *ps) {{
    if (ps->cur)
        return ps->cur->kind;
    return 0;
}}
static void next_{k}(struct pst_{k} *ps) {{
    if (ps->cur)
        ps->cur = ps->cur->next;
}}
static int primary_{k}(struct pst_{k} *ps, struct expn_{k} *e) {{
    struct expn_{k} sub;
    if (kind_{k}(ps) == 1) {{
        sub.val = 0;
        sub.up = e;
        next_{k}(ps);
        expr_{k}(ps, &sub);
        e->val = sub.val;
        return 1;
    }}
    e->val = &pv_{k}[kind_{k}(ps) & 3];
    next_{k}(ps);
    return 0;
}}
static int unary_{k}(struct pst_{k} *ps, struct expn_{k} *e) {{
    if (kind_{k}(ps) == 2) {{
        next_{k}(ps);
        return unary_{k}(ps, e) + 1;
    }}
    return primary_{k}(ps, e);
}}
static int term_{k}(struct pst_{k} *ps, struct expn_{k} *e) {{
    struct expn_{k} rhs;
    int r;
    r = unary_{k}(ps, e);
    while (kind_{k}(ps) == 3) {{
        rhs.val = 0;
        rhs.up = e;
        next_{k}(ps);
        r += unary_{k}(ps, &rhs);
        if (rhs.val)
            e->val = rhs.val;
    }}
    return r;
}}
static int expr_{k}(struct pst_{k} *ps, struct expn_{k} *e) {{
    int r;
    r = term_{k}(ps, e);
    ps->last = e;"
    );
    note(s, "e->val");
    let _ = writeln!(
        s,
        "    return r;
}}
static int block_{k}(struct pst_{k} *ps) {{
    struct pst_{k} inner;
    inner.cur = ps->cur;
    inner.last = 0;
    inner.slot = ps->slot;
    inner.outer = ps;
    inner.depth = ps->depth + 1;
    while (inner.cur && kind_{k}(&inner) != 9 && inner.depth < 8)
        stmt_{k}(&inner);
    ps->cur = inner.cur;
    next_{k}(ps);
    return inner.depth;
}}
static int ifstat_{k}(struct pst_{k} *ps) {{
    struct expn_{k} c;
    c.val = 0;
    c.up = 0;
    next_{k}(ps);
    expr_{k}(ps, &c);
    if (c.val)
        ps->slot = c.val;
    return block_{k}(ps);
}}
static int whilestat_{k}(struct pst_{k} *ps) {{
    struct expn_{k} c;
    int n = 0;
    c.val = 0;
    c.up = 0;
    next_{k}(ps);
    expr_{k}(ps, &c);
    while (c.val && n < 2) {{
        n += block_{k}(ps);
        c.val = 0;
    }}
    return n;
}}
static int assign_{k}(struct pst_{k} *ps) {{
    struct expn_{k} lhs, rhs;
    lhs.val = 0;
    lhs.up = 0;
    rhs.val = 0;
    rhs.up = &lhs;
    expr_{k}(ps, &lhs);
    expr_{k}(ps, &rhs);
    if (lhs.val && rhs.val)
        *lhs.val = *rhs.val;
    return 0;
}}
static int stmt_{k}(struct pst_{k} *ps) {{
    switch (kind_{k}(ps)) {{
    case 0:
        next_{k}(ps);
        return 0;
    case 4:
        return ifstat_{k}(ps);
    case 5:
        return whilestat_{k}(ps);
    case 6:
        next_{k}(ps);
        return block_{k}(ps);
    default:
        return assign_{k}(ps);
    }}
}}
int run_parser_{k}(int seed) {{
    struct tok_{k} toks[12];
    struct pst_{k} ps;
    int i;
    for (i = 0; i < 12; i++) {{
        toks[i].kind = (seed + i * 7) % 10;
        toks[i].next = i < 11 ? &toks[i + 1] : 0;
    }}
    ps.cur = &toks[0];
    ps.last = 0;
    ps.slot = &pv_{k}[0];
    ps.outer = 0;
    ps.depth = 0;
    while (ps.cur)
        stmt_{k}(&ps);
    return ps.slot == &pv_{k}[0];
}}"
    );
}

/// A recursion stress shape: `n` functions in one big cycle with nested
/// back edges, each linking a stack node to its caller's (`--cycle N`).
pub fn generate_cycle(n: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "int g_vals[{n}];\nint *gp[{n}];\nstruct node {{ struct node *next; int *v; }};"
    );
    for i in 0..n {
        let _ = writeln!(s, "int f{i}(struct node *n, int d);");
    }
    for i in 0..n {
        let (j, k) = ((i + 1) % n, (i * 7 + 3) % n);
        let _ = writeln!(
            s,
            "int f{i}(struct node *n, int d) {{
    struct node local;
    int *t;
    if (d <= 0)
        return 0;
    gp[{i}] = &g_vals[{i}];
    t = gp[{k}];
    local.next = n;
    local.v = t;
    if (d & 1)
        return f{j}(&local, d - 1);
    return f{k}(n, d - 2);
}}"
        );
    }
    s.push_str("int main(void) {\n    struct node r;\n    r.next = 0;\n    r.v = 0;\n    return f0(&r, 100);\n}\n");
    s
}
