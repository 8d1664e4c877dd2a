//! Graph data (call graph, invocation graph, pointer flow graph), on small
//! programs whose graphs are known, whole and around a function.

mod expect;

use pointee_ide::{
    Analysis, Config, EdgeKind, FilePosition, Graph, GraphFocus, GraphKind, GraphRequest, NodeKind,
};

/// `from -kind-> to` per edge, sorted; nodes as `label [tags]`.
fn render(g: &Graph) -> (Vec<String>, Vec<String>) {
    let mut nodes: Vec<String> = g
        .nodes
        .iter()
        .map(|n| {
            let tags = if n.tags.is_empty() {
                String::new()
            } else {
                format!(" [{}]", n.tags.join(", "))
            };
            format!("{:?} {}{tags}", n.kind, n.label)
        })
        .collect();
    nodes.sort();
    let mut edges: Vec<String> = g
        .edges
        .iter()
        .map(|e| {
            format!(
                "{} -{:?}-> {}",
                g.nodes[e.from].label, e.kind, g.nodes[e.to].label
            )
        })
        .collect();
    edges.sort();
    (nodes, edges)
}

fn graph(a: &Analysis, file: &str, kind: GraphKind, around: Option<(&str, u32)>) -> Option<Graph> {
    let f = a.file_id(file).unwrap();
    let request = match around {
        None => GraphRequest::program(f, kind),
        Some((needle, depth)) => {
            let offset = a
                .file_text(f)
                .find(needle)
                .expect("the needle is in the file") as u32;
            GraphRequest {
                focus: GraphFocus::At(FilePosition { file: f, offset }),
                depth,
                ..GraphRequest::program(f, kind)
            }
        }
    };
    a.graph(&request).unwrap()
}

const OPS: &str = "\
struct file { int fd; };
struct ops { int (*open)(struct file *); };
int disk_open(struct file *f) { f->fd = 3; return 0; }
int tty_open(struct file *f) { f->fd = 1; return 0; }
struct ops disk_ops = { disk_open };
struct ops tty_ops = { tty_open };
struct file console;
int start(struct ops *o) {
    return o->open(&console);
}
int main(void) {
    start(&disk_ops);
    start(&tty_ops);
    return 0;
}
";

#[test]
fn c_call_and_invocation_graphs() {
    let a = expect::analyse(&[("ops.c".into(), OPS.into())], Config::default());
    let g = graph(&a, "ops.c", GraphKind::Calls, None).unwrap();
    let (nodes, edges) = render(&g);
    assert_eq!(
        nodes,
        [
            "Function disk_open",
            "Function main",
            "Function start",
            "Function tty_open"
        ]
    );
    assert_eq!(
        edges,
        [
            "main -Direct-> start",
            "start -Indirect-> disk_open",
            "start -Indirect-> tty_open"
        ]
    );
    // Two calls of `start` from `main`: one edge, both calls.
    let main_start = g
        .edges
        .iter()
        .find(|e| g.nodes[e.to].label == "start")
        .unwrap();
    assert_eq!(main_start.at.len(), 2);
    // Where to go on a click: the definition's name.
    let start = g.nodes.iter().find(|n| n.label == "start").unwrap();
    let at = start.at.unwrap();
    assert_eq!(
        &OPS[at.range.start as usize..at.range.end as usize],
        "start"
    );

    // One context of `start` per ops table, each calling its own open.
    let g = graph(&a, "ops.c", GraphKind::Invocations, None).unwrap();
    let (nodes, edges) = render(&g);
    assert_eq!(
        nodes,
        [
            "Context #0 main [entry]",
            "Context #1 start",
            "Context #2 disk_open",
            "Context #3 start",
            "Context #4 tty_open"
        ]
    );
    assert_eq!(
        edges,
        [
            "#0 main -Direct-> #1 start",
            "#0 main -Direct-> #3 start",
            "#1 start -Indirect-> #2 disk_open",
            "#3 start -Indirect-> #4 tty_open"
        ]
    );
    // Around `disk_open`, one step: its caller only.
    let g = graph(&a, "ops.c", GraphKind::Calls, Some(("f->fd = 3", 1))).unwrap();
    let (nodes, _) = render(&g);
    assert_eq!(nodes, ["Function disk_open", "Function start"]);
    // The root is the function at the position; `start` has a caller the
    // answer leaves out (`main`), so it is marked as having more.
    let by_label = |g: &Graph, l: &str| g.nodes.iter().position(|n| n.label == l).unwrap();
    assert_eq!(g.roots, [by_label(&g, "disk_open")]);
    assert_eq!(g.nodes[by_label(&g, "start")].id, "fn:start");
    assert!(g.nodes[by_label(&g, "start")].more);
    assert!(!g.nodes[by_label(&g, "disk_open")].more);
    // Expanding `start` by its id: it and its neighbours.
    let f = a.file_id("ops.c").unwrap();
    let expand = |id: &str, depth, max_nodes| {
        a.graph(&GraphRequest {
            focus: GraphFocus::Node(id.into()),
            depth,
            max_nodes,
            ..GraphRequest::program(f, GraphKind::Calls)
        })
        .unwrap()
        .unwrap()
    };
    let g = expand("fn:start", 1, 100);
    assert_eq!(
        render(&g).0,
        [
            "Function disk_open",
            "Function main",
            "Function start",
            "Function tty_open"
        ]
    );
    assert!(g.nodes.iter().all(|n| !n.more), "nothing is left out");
    // At most two nodes: the root and its nearest neighbour (first in
    // edge order); the root is marked as having more.
    let g = expand("fn:start", 1, 2);
    assert_eq!(g.nodes.len(), 2);
    assert!(g.nodes[g.roots[0]].more);
    // An id the program does not have: an empty graph, not an error.
    assert_eq!(expand("fn:nowhere", 1, 100).nodes, []);
    // The file's functions: every function here is declared in ops.c.
    let g = a
        .graph(&GraphRequest {
            focus: GraphFocus::File,
            ..GraphRequest::program(f, GraphKind::Calls)
        })
        .unwrap()
        .unwrap();
    assert_eq!(g.roots.len(), 4);
    // No pointer flow graph for C.
    assert!(graph(&a, "ops.c", GraphKind::PointerFlow, None).is_none());
}

const PROG: &str = "public class Main {
    public static void main(String[] args) {
        A a1 = new A();
        B b1 = new B();
        a1.set(b1);
        B x = a1.get();
    }
}
class A {
    B f;
    void set(B b) { this.f = b; }
    B get() { return this.f; }
}
class B {}
";

#[test]
fn java_pointer_flow_and_call_graphs() {
    let a = expect::analyse(
        &[("Main.java".into(), PROG.into())],
        Config {
            java_cs: Some("ci".into()),
            ..Default::default()
        },
    );
    let g = graph(&a, "Main.java", GraphKind::PointerFlow, None).unwrap();
    let (_, edges) = render(&g);
    // b1's object reaches x through the field f of the A object (a new
    // object is made in a temporary, then assigned).
    for want in [
        "new B() at 4 -New-> Main.main(String[]): t3",
        "Main.main(String[]): t3 -Assign-> Main.main(String[]): b1",
        "Main.main(String[]): b1 -Param-> A.set(B): b",
        "Main.main(String[]): a1 -Param-> A.set(B): this",
        "A.set(B): b -Store-> new A() at 3.f",
        "new A() at 3.f -Load-> A.get(): ret",
        "A.get(): ret -Return-> Main.main(String[]): x",
    ] {
        assert!(
            edges.iter().any(|e| e == want),
            "{want} missing from {edges:#?}"
        );
    }
    assert!(g.nodes.iter().any(|n| n.kind == NodeKind::Object));
    let g = graph(&a, "Main.java", GraphKind::Calls, None).unwrap();
    let (_, edges) = render(&g);
    assert!(
        edges
            .iter()
            .any(|e| e == "Main.main(String[]) -Virtual-> A.set(B)"),
        "{edges:#?}"
    );
    assert!(graph(&a, "Main.java", GraphKind::Invocations, None).is_none());
    let _ = EdgeKind::Load;
}
