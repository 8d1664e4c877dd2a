//! Symbolic names in the user's terms: a function not called from `main`
//! is analysed as an extra entry, and what its pointers point to on entry
//! is shown as what it stands for ("what callers of `f` pass as `p`", the
//! C expression on entry), not only as the engine's `1_p`.

use pointee_ide::{AnalysisHost, Config, FilePosition};

const TEXT: &str = "\
struct node { struct node *next; int v; };
int *gp;
void (*handler)(int);
void walk(int *p, struct node *s, int **pp, void (*fp)(int)) {
    int *a = p;
    struct node *n = s->next;
    int *b = *pp;
    int *c = gp;
    void (*h)(int) = fp;
    if (a && n && b && c && h ) h(1);
}
int main(void) { return 0; }
";

/// The symbolic hover targets of the variable `name` where it is read in
/// the last `if`: (name, meaning).
fn meanings(name: &str) -> Vec<(String, Option<String>)> {
    let host = AnalysisHost::with_files([("walk.c", TEXT)], Config::default());
    let a = host.analysis();
    let file = a.file_id("walk.c").unwrap();
    let last_if = TEXT.find("if (a").unwrap();
    let offset = (last_if + TEXT[last_if..].find(&format!("{name} ")).unwrap()) as u32;
    let hover = a.hover(FilePosition { file, offset }).unwrap().unwrap();
    assert_eq!(hover.expr, name);
    hover
        .targets
        .into_iter()
        .filter(|t| t.kind == pointee_ide::TargetKind::Symbolic)
        .map(|t| (t.name, t.meaning))
        .collect()
}

fn expect(pairs: &[(&str, &str)]) -> Vec<(String, Option<String>)> {
    pairs
        .iter()
        .map(|(n, m)| (n.to_string(), Some(m.to_string())))
        .collect()
}

// As an extra entry, `walk`'s parameters may point to one another's
// targets (nothing says its callers pass unrelated objects).
const PARAMS: [(&str, &str); 3] = [
    ("1_p", "what callers of `walk` pass as `p`"),
    ("1_pp", "what callers of `walk` pass as `pp`"),
    ("1_s", "what callers of `walk` pass as `s`"),
];

#[test]
fn a_parameters_target_is_what_callers_pass() {
    assert_eq!(meanings("a"), expect(&PARAMS));
}

#[test]
fn deeper_names_are_the_c_expression_on_entry() {
    // `s` may point to what `pp` points to (an extra entry's parameters
    // may share targets): `s->next` then reads that object's first
    // pointer slot, `*pp`, whose target is `2_pp`.
    let mut n = PARAMS.to_vec();
    n.push(("2_pp", "`**pp` on entry"));
    n.push(("2_s.next", "`*s->next` on entry"));
    assert_eq!(meanings("n"), expect(&n));
    // And the other way: `*pp` may be `s->next`.
    let mut b = PARAMS.to_vec();
    b.push(("2_pp", "`**pp` on entry"));
    b.push(("2_s.next", "`*s->next` on entry"));
    assert_eq!(meanings("b"), expect(&b));
}
