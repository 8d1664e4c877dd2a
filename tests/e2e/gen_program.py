"""A generated C program of about N lines for the soak test: modules of
structs with pointer fields, a pool of them, static tables of function
pointers called indirectly, heap nodes, pointer arithmetic on arrays, and
a `main` that calls every module. Deterministic (no randomness): the
soak's edits supply the variety.

    python3 gen_program.py LINES > prog.c
"""

import sys

MODULE = """\
/* module {i} */
struct node{i} {{ int v; struct node{i} *next; int *data; }};
static int g{i}[4];
static int h{i};
static struct node{i} pool{i}[8];
typedef int (*op{i}_t)(struct node{i} *);

static int op{i}_get(struct node{i} *n) {{
    int *p = n->data;
    return *p;
}}

static int op{i}_set(struct node{i} *n) {{
    n->data = &g{i}[1];
    return 0;
}}

static int op{i}_link(struct node{i} *n) {{
    struct node{i} *m = n->next;
    if (m) {{
        m->data = &h{i};
    }}
    return 1;
}}

static op{i}_t table{i}[3] = {{ op{i}_get, op{i}_set, op{i}_link }};

static struct node{i} *make{i}(int k) {{
    struct node{i} *n = &pool{i}[k & 7];
    n->data = &g{i}[0];
    n->next = 0;
    if (k > 3) {{
        n->next = &pool{i}[(k + 1) & 7];
    }}
    return n;
}}

int run{i}(int k) {{
    struct node{i} *n = make{i}(k);
    struct node{i} *heap = malloc(sizeof *heap);
    int *q = &g{i}[2];
    int r = 0;
    if (!heap) {{
        return 0;
    }}
    heap->data = q;
    heap->next = n;
    r = table{i}[k % 3](n);
    r = r + table{i}[(k + 1) % 3](heap);
    q = heap->data;
    free(heap);
    return r + *q;
}}

"""


def program(lines: int) -> str:
    per = MODULE.count("\n")
    modules = max(1, (lines - 10) // (per + 1))
    out = ["#include <stdlib.h>\n", "\n"]
    for i in range(modules):
        out.append(MODULE.format(i=i))
    out.append("int main(int argc, char **argv) {\n")
    out.append("    int total = 0;\n")
    out.append("    (void)argv;\n")
    for i in range(modules):
        out.append(f"    total = total + run{i}(argc + {i});\n")
    out.append("    return total & 1;\n}\n")
    return "".join(out)


if __name__ == "__main__":
    sys.stdout.write(program(int(sys.argv[1]) if len(sys.argv) > 1 else 10000))
