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
