//! Graphs for an editor to draw: the call graph (C and Java, with the edges
//! resolved through function pointers and virtual dispatch marked), the C
//! engine's invocation graph (one node per analysed context: entries,
//! recursive and approximate pairs, indirect calls), and the Java
//! analysis's pointer flow graph (variables, fields and objects, contexts
//! merged). Optionally only the part within some steps of the function at a
//! position, so that large programs stay readable.

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::program::Program;
use crate::{Analysis, FileId, FilePosition, FileRange};
use pointee_cspta::{CallKind as JCall, PtSet};
use pointee_db::CallKind;
use pointee_flow::EntryKind;
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Which graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GraphKind {
    /// Functions and who calls whom (C and Java).
    Calls,
    /// The C engine's contexts and their calls.
    Invocations,
    /// The Java analysis's pointer flow graph.
    PointerFlow,
}

/// Where a graph starts: its roots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GraphFocus {
    /// Every node: the whole program.
    Program,
    /// The nodes declared in the request's file.
    File,
    /// The function holding this position (innermost); for the pointer
    /// flow graph, its variables.
    At(FilePosition),
    /// A node by its [`GraphNode::id`] from an earlier answer (an editor
    /// expands a node this way).
    Node(String),
}

/// What to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphRequest {
    /// A file of the program (its language chooses the program).
    pub file: FileId,
    pub kind: GraphKind,
    pub focus: GraphFocus,
    /// Only the nodes within this many steps (either direction) of the
    /// roots; ignored for [`GraphFocus::Program`].
    pub depth: u32,
    /// At most this many nodes, nearest the roots first.
    pub max_nodes: usize,
}

impl GraphRequest {
    /// The whole graph of the program `file` belongs to.
    pub fn program(file: FileId, kind: GraphKind) -> Self {
        GraphRequest {
            file,
            kind,
            focus: GraphFocus::Program,
            depth: 0,
            max_nodes: usize::MAX,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A function or method defined in the program.
    Function,
    /// A function the program calls but does not define.
    Library,
    /// One analysed context of a function (invocation graph).
    Context,
    /// A variable of a method (pointer flow graph).
    Variable,
    /// A field of the objects of one allocation site.
    Field,
    /// A static field.
    Static,
    /// The objects of one allocation site.
    Object,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EdgeKind {
    /// A call that names its callee.
    Direct,
    /// A call through a function pointer (C).
    Indirect,
    /// A virtual call (Java).
    Virtual,
    /// A call to a recursive ancestor whose stored result was used.
    Approximate,
    /// An object flows into a variable where it is allocated.
    New,
    /// A copy between variables (casts included).
    Assign,
    /// A field or static field read into a variable.
    Load,
    /// A variable written into a field or static field.
    Store,
    /// An argument (or the receiver) flows into a parameter.
    Param,
    /// A returned value flows into the call's result.
    Return,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// Names the node while the program does not change (`fn:NAME`,
    /// `ctx:N`, `var:M:V`, `obj:A`, `field:A:F`, `static:S`).
    pub id: String,
    pub label: String,
    pub kind: NodeKind,
    /// Where it is declared or allocated, to open on a click.
    pub at: Option<FileRange>,
    /// `entry`, `extra entry`, `atexit entry`, `recursive`, `never
    /// returns`, `merged` (invocation graph).
    pub tags: Vec<String>,
    /// It has edges to nodes this answer leaves out (past the depth or the
    /// node limit): ask again with it as the root to see them.
    pub more: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphEdge {
    /// Indices into [`Graph::nodes`].
    pub from: usize,
    pub to: usize,
    pub kind: EdgeKind,
    /// The calls (or statements) that make the edge.
    pub at: Vec<FileRange>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
    /// The nodes the answer starts from (indices into `nodes`).
    pub roots: Vec<usize>,
}

/// The key of a node while a graph is built, and its stable id.
trait NodeKey: std::hash::Hash + Eq {
    fn id(&self) -> String;
}

impl NodeKey for String {
    fn id(&self) -> String {
        format!("fn:{self}")
    }
}

/// A context (`true`, its unit number) or a function never analysed.
impl NodeKey for (bool, String) {
    fn id(&self) -> String {
        match self {
            (true, unit) => format!("ctx:{unit}"),
            (false, name) => name.id(),
        }
    }
}

/// A graph being built: nodes by key, edges merged by (from, to, kind).
struct Builder<K> {
    index: HashMap<K, usize>,
    graph: Graph,
    edges: BTreeMap<(usize, usize, EdgeKind), Vec<FileRange>>,
}

impl<K: NodeKey> Builder<K> {
    fn new() -> Self {
        Builder {
            index: HashMap::new(),
            graph: Graph::default(),
            edges: BTreeMap::new(),
        }
    }

    fn node(&mut self, key: K, make: impl FnOnce() -> GraphNode) -> usize {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let mut node = make();
        node.id = key.id();
        self.graph.nodes.push(node);
        let i = self.graph.nodes.len() - 1;
        self.index.insert(key, i);
        i
    }

    fn edge(&mut self, from: usize, to: usize, kind: EdgeKind, at: Option<FileRange>) {
        let e = self.edges.entry((from, to, kind)).or_default();
        if let Some(at) = at {
            if !e.contains(&at) {
                e.push(at);
            }
        }
    }

    fn finish(mut self) -> Graph {
        self.graph.edges = self
            .edges
            .into_iter()
            .map(|((from, to, kind), at)| GraphEdge { from, to, kind, at })
            .collect();
        self.graph
    }
}

pub(crate) fn graph(a: &Analysis, req: &GraphRequest) -> Option<Graph> {
    let p = Program::of(a, req.file)?;
    let (g, focus) = match (req.kind, &p) {
        (GraphKind::Calls, _) => calls(&p, req),
        (GraphKind::Invocations, Program::C(c)) => invocations(c, req)?,
        (GraphKind::PointerFlow, Program::Java(j)) => pointer_flow(j, req)?,
        _ => return None,
    };
    let (roots, depth) = match &req.focus {
        GraphFocus::Program => ((0..g.nodes.len()).collect(), 0),
        GraphFocus::File => {
            let roots = (0..g.nodes.len())
                .filter(|&i| g.nodes[i].at.is_some_and(|at| at.file == req.file))
                .collect();
            (roots, req.depth)
        }
        GraphFocus::At(_) => (focus, req.depth),
        GraphFocus::Node(id) => {
            let roots = g
                .nodes
                .iter()
                .position(|n| &n.id == id)
                .into_iter()
                .collect();
            (roots, req.depth)
        }
    };
    Some(within(g, &roots, depth, req.max_nodes))
}

/// The position a request focuses on, if any.
fn focus_at(req: &GraphRequest) -> Option<FilePosition> {
    match req.focus {
        GraphFocus::At(pos) => Some(pos),
        _ => None,
    }
}

/// The program name of the function holding `pos` (innermost).
fn function_at(p: &Program, pos: FilePosition) -> Option<String> {
    let fs = p
        .source(pos.file)?
        .functions
        .iter()
        .filter(|fs| fs.range.touches(pos.offset))
        .min_by_key(|fs| fs.range.len())?;
    Some(p.program_name(pos.file, &fs.name))
}

/// Where a call statement of `caller` is.
fn call_at(p: &Program, caller: &str, stmt: pointee_ir::StmtId) -> Option<FileRange> {
    let (file, fs) = p.function_source(caller)?;
    let call = fs.calls.iter().find(|c| c.stmt == stmt)?;
    Some(FileRange {
        file,
        range: call.range,
    })
}

fn function_node(p: &Program, name: &str) -> GraphNode {
    let at = p.function_source(name).map(|(file, fs)| FileRange {
        file,
        range: fs.name_range,
    });
    GraphNode {
        label: name.to_string(),
        kind: if at.is_some() {
            NodeKind::Function
        } else {
            NodeKind::Library
        },
        at,
        tags: Vec::new(),
        id: String::new(),
        more: false,
    }
}

fn calls(p: &Program, req: &GraphRequest) -> (Graph, Vec<usize>) {
    let mut b: Builder<String> = Builder::new();
    for e in p.edges() {
        let from = b.node(e.caller.to_string(), || function_node(p, &e.caller));
        let to = b.node(e.callee.to_string(), || function_node(p, &e.callee));
        let kind = match e.kind {
            CallKind::Direct => EdgeKind::Direct,
            CallKind::Indirect => EdgeKind::Indirect,
            CallKind::Virtual => EdgeKind::Virtual,
        };
        b.edge(from, to, kind, call_at(p, &e.caller, e.stmt));
    }
    let roots = focus_at(req)
        .and_then(|pos| function_at(p, pos))
        .map(|f| vec![b.node(f.clone(), || function_node(p, &f))])
        .unwrap_or_default();
    (b.finish(), roots)
}

fn invocations(c: &CProgram, req: &GraphRequest) -> Option<(Graph, Vec<usize>)> {
    let engine = c.engine()?;
    let p = Program::C(c.clone());
    let program = pointee_db::c_program(c.db, c.project)
        .as_ref()
        .ok()?
        .clone();
    let focus = focus_at(req).and_then(|pos| function_at(&p, pos));
    Some(engine.with(|_, a| {
        let mut b: Builder<(bool, String)> = Builder::new();
        let mut roots = Vec::new();
        let mut units = Vec::new();
        for f in &program.functions {
            units.extend(a.units_of(&f.name));
        }
        units.sort_by_key(|&u| a.unit_number(u));
        let unit_node = |u: pointee_flow::UnitId, b: &mut Builder<(bool, String)>| {
            let unit = a.unit(u);
            let name = a.func_name(u).to_string();
            // Keyed by the number users see, stable across edits.
            b.node((true, a.unit_number(u).to_string()), || {
                let mut tags = Vec::new();
                match unit.entry {
                    Some(EntryKind::Main) => tags.push("entry".to_string()),
                    Some(EntryKind::AtExit) => tags.push("atexit entry".to_string()),
                    Some(EntryKind::Extra) => tags.push("extra entry".to_string()),
                    None => {}
                }
                if unit.recursive {
                    tags.push("recursive".into());
                }
                if unit.output.is_none() {
                    tags.push("never returns".into());
                }
                if unit.merged {
                    tags.push("merged".into());
                }
                if unit.in_cycle {
                    tags.push("merged in a recursive cycle".into());
                }
                GraphNode {
                    at: function_node(&p, &name).at,
                    label: format!("#{} {name}", a.unit_number(u)),
                    kind: NodeKind::Context,
                    tags,
                    id: String::new(),
                    more: false,
                }
            })
        };
        for &u in &units {
            let from = unit_node(u, &mut b);
            if focus.as_deref() == Some(&**a.func_name(u)) {
                roots.push(from);
            }
            let caller = a.func_name(u).to_string();
            for ((stmt, callee), e) in &a.unit(u).calls {
                let to = match e.unit {
                    Some(v) => unit_node(v, &mut b),
                    None => b.node((false, callee.to_string()), || function_node(&p, callee)),
                };
                let kind = match (e.approximate, e.indirect) {
                    (true, _) => EdgeKind::Approximate,
                    (false, true) => EdgeKind::Indirect,
                    (false, false) => EdgeKind::Direct,
                };
                b.edge(from, to, kind, call_at(&p, &caller, *stmt));
            }
        }
        (b.finish(), roots)
    }))
}

/// A node of the pointer flow graph, by what names it in the program (not
/// by the analysis' internal ids, which depend on the edits a solve went on
/// from): a variable (method, variable), an allocation (method, site,
/// class), a field of an allocation's objects, a static field.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Flow {
    Var(u32, u32),
    Object(u32, u32, String),
    Field(u32, u32, String, String),
    Static(String),
}

impl NodeKey for Flow {
    fn id(&self) -> String {
        match self {
            Flow::Var(m, v) => format!("var:{m}:{v}"),
            Flow::Object(m, s, c) => format!("obj:{m}:{s}:{c}"),
            Flow::Field(m, s, c, f) => format!("field:{m}:{s}:{c}:{f}"),
            Flow::Static(name) => format!("static:{name}"),
        }
    }
}

fn pointer_flow(j: &JavaProgram, req: &GraphRequest) -> Option<(Graph, Vec<usize>)> {
    let pta = j.pta?;
    let facts = &pta.facts;
    let functions = &j.jp.program.functions;
    let mut b: Builder<Flow> = Builder::new();
    let method_at = |m: u32| j.function_source(&facts.method_names[m as usize]);
    let var = |b: &mut Builder<Flow>, m: u32, v: u32| {
        b.node(Flow::Var(m, v), || {
            let f = &functions[m as usize];
            let (name, at) = match method_at(m) {
                Some((file, fs)) => (
                    f.vars.get(v as usize).map(|x| x.name.to_string()),
                    fs.vars
                        .get(v as usize)
                        .map(|&range| FileRange { file, range }),
                ),
                None => (None, None),
            };
            GraphNode {
                label: format!(
                    "{}: {}",
                    facts.method_names[m as usize],
                    name.unwrap_or_else(|| format!("v{v}"))
                ),
                kind: NodeKind::Variable,
                at,
                tags: Vec::new(),
                id: String::new(),
                more: false,
            }
        })
    };
    let object = |b: &mut Builder<Flow>, al: u32| {
        let alloc = &facts.allocs[al as usize];
        let key = Flow::Object(alloc.method, alloc.site, alloc.class.clone());
        b.node(key, || {
            let (label, at) = j.site_label(alloc.method, alloc.site, &alloc.class);
            GraphNode {
                label,
                kind: NodeKind::Object,
                at,
                tags: Vec::new(),
                id: String::new(),
                more: false,
            }
        })
    };
    let field = |b: &mut Builder<Flow>, al: u32, f: u32| {
        let alloc = &facts.allocs[al as usize];
        let key = Flow::Field(
            alloc.method,
            alloc.site,
            alloc.class.clone(),
            facts.fields[f as usize].clone(),
        );
        b.node(key, || {
            let (site, at) = j.site_label(alloc.method, alloc.site, &alloc.class);
            GraphNode {
                label: format!("{site}.{}", facts.fields[f as usize]),
                kind: NodeKind::Field,
                at,
                tags: Vec::new(),
                id: String::new(),
                more: false,
            }
        })
    };
    // The allocation sites a variable's objects come from, contexts merged.
    let sites = |m: u32, v: u32| -> Vec<u32> {
        let mut set = PtSet::new();
        for &mc in pta.contexts_of(m) {
            set.union_with(pta.var_pts(mc, v));
        }
        let mut out: Vec<u32> = set.iter().map(|o| pta.objs[o as usize].1).collect();
        // In the program's terms, so that the order is a fresh solve's.
        let key = |&al: &u32| {
            let a = &facts.allocs[al as usize];
            (a.method, a.site, a.class.as_str())
        };
        out.sort_by(|a, b| key(a).cmp(&key(b)));
        out.dedup();
        out
    };
    let mut reached: Vec<u32> = pta.reached.iter().map(|r| r.method).collect();
    reached.sort();
    reached.dedup();
    for &m in &reached {
        let mf = &facts.methods[m as usize];
        for &(v, al) in &mf.news {
            let (o, x) = (object(&mut b, al), var(&mut b, m, v));
            b.edge(o, x, EdgeKind::New, None);
        }
        for &(from, to) in &mf.copies {
            let (x, y) = (var(&mut b, m, from), var(&mut b, m, to));
            b.edge(x, y, EdgeKind::Assign, None);
        }
        for &(to, base, f) in &mf.loads {
            for al in sites(m, base) {
                let (x, y) = (field(&mut b, al, f), var(&mut b, m, to));
                b.edge(x, y, EdgeKind::Load, None);
            }
        }
        for &(base, f, from) in &mf.stores {
            for al in sites(m, base) {
                let (x, y) = (var(&mut b, m, from), field(&mut b, al, f));
                b.edge(x, y, EdgeKind::Store, None);
            }
        }
        for &(to, s) in &mf.sloads {
            let st = b.node(Flow::Static(facts.statics[s as usize].clone()), || {
                static_node(j, s)
            });
            let y = var(&mut b, m, to);
            b.edge(st, y, EdgeKind::Load, None);
        }
        for &(s, from) in &mf.sstores {
            let x = var(&mut b, m, from);
            let st = b.node(Flow::Static(facts.statics[s as usize].clone()), || {
                static_node(j, s)
            });
            b.edge(x, st, EdgeKind::Store, None);
        }
    }
    // Calls: arguments and receivers into parameters, results back; in
    // the program's terms (caller, call site, callee), as a fresh solve
    // would order them.
    let mut cg: Vec<&pointee_cspta::CallEdge> = pta.cg.iter().collect();
    cg.sort_by_key(|e| {
        let caller = pta.reached[e.caller as usize].method;
        let site = facts.methods[caller as usize].calls[e.call as usize].site;
        (caller, site, pta.reached[e.callee as usize].method)
    });
    for e in cg {
        let (caller, callee) = (
            pta.reached[e.caller as usize].method,
            pta.reached[e.callee as usize].method,
        );
        let call = &facts.methods[caller as usize].calls[e.call as usize];
        let target = &facts.methods[callee as usize];
        for (arg, param) in call.args.iter().zip(&target.params) {
            if let Some(arg) = arg {
                let (x, y) = (var(&mut b, caller, *arg), var(&mut b, callee, *param));
                b.edge(x, y, EdgeKind::Param, None);
            }
        }
        let receiver = match call.kind {
            JCall::Virtual(recv, _) | JCall::Special(_, recv) => Some(recv),
            JCall::Static(_) => None,
        };
        if let (Some(recv), Some(this)) = (receiver, target.this) {
            let (x, y) = (var(&mut b, caller, recv), var(&mut b, callee, this));
            b.edge(x, y, EdgeKind::Param, None);
        }
        if let (Some(lhs), Some(ret)) = (call.lhs, target.ret) {
            let (x, y) = (var(&mut b, callee, ret), var(&mut b, caller, lhs));
            b.edge(x, y, EdgeKind::Return, None);
        }
    }
    let focus = focus_at(req)
        .and_then(|pos| function_at(&Program::Java(j.clone()), pos))
        .and_then(|f| facts.method_index.get(&f).copied());
    let roots = b
        .index
        .iter()
        .filter(|(k, _)| matches!(k, Flow::Var(m, _) if Some(*m) == focus))
        .map(|(_, &i)| i)
        .collect();
    Some((b.finish(), roots))
}

fn static_node(j: &JavaProgram, s: u32) -> GraphNode {
    let name = j
        .pta
        .map(|p| p.facts.statics[s as usize].clone())
        .unwrap_or_default();
    GraphNode {
        label: name,
        kind: NodeKind::Static,
        at: None,
        tags: Vec::new(),
        id: String::new(),
        more: false,
    }
}

/// The part of `g` within `depth` steps of `roots` (edges in either
/// direction), at most `max_nodes` of them, nearest first; nodes renumbered
/// in their order. A node with a neighbour left out is marked `more`.
fn within(g: Graph, roots: &[usize], depth: u32, max_nodes: usize) -> Graph {
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for e in &g.edges {
        adjacent[e.from].push(e.to);
        adjacent[e.to].push(e.from);
    }
    // Breadth first, so that the limit keeps the nearest nodes.
    let mut kept = vec![false; g.nodes.len()];
    let mut count = 0;
    let mut queue: VecDeque<(usize, u32)> = VecDeque::new();
    for &r in roots {
        if !kept[r] && count < max_nodes {
            kept[r] = true;
            count += 1;
            queue.push_back((r, 0));
        }
    }
    while let Some((n, near)) = queue.pop_front() {
        if near >= depth {
            continue;
        }
        for &m in &adjacent[n] {
            if !kept[m] && count < max_nodes {
                kept[m] = true;
                count += 1;
                queue.push_back((m, near + 1));
            }
        }
    }
    let mut renumber = vec![usize::MAX; g.nodes.len()];
    let mut out = Graph::default();
    for (i, mut n) in g.nodes.into_iter().enumerate() {
        if kept[i] {
            n.more = adjacent[i].iter().any(|&m| !kept[m]);
            renumber[i] = out.nodes.len();
            out.nodes.push(n);
        }
    }
    out.edges = g
        .edges
        .into_iter()
        .filter(|e| kept[e.from] && kept[e.to])
        .map(|e| GraphEdge {
            from: renumber[e.from],
            to: renumber[e.to],
            ..e
        })
        .collect();
    out.roots = roots
        .iter()
        .filter(|&&r| kept[r])
        .map(|&r| renumber[r])
        .collect();
    out
}
