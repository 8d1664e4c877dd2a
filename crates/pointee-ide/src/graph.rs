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

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphRequest {
    /// A file of the program (its language chooses the program).
    pub file: FileId,
    pub kind: GraphKind,
    /// Only the nodes within `depth` steps (either direction) of the
    /// function holding this position; `None`: the whole program.
    pub around: Option<(FilePosition, u32)>,
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
    pub label: String,
    pub kind: NodeKind,
    /// Where it is declared or allocated, to open on a click.
    pub at: Option<FileRange>,
    /// `entry`, `extra entry`, `atexit entry`, `recursive`, `never
    /// returns`, `merged` (invocation graph).
    pub tags: Vec<String>,
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
}

/// A graph being built: nodes by key, edges merged by (from, to, kind).
struct Builder<K> {
    index: HashMap<K, usize>,
    graph: Graph,
    edges: BTreeMap<(usize, usize, EdgeKind), Vec<FileRange>>,
}

impl<K: std::hash::Hash + Eq> Builder<K> {
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
        self.graph.nodes.push(make());
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
    let (g, roots) = match (req.kind, &p) {
        (GraphKind::Calls, _) => calls(&p, req),
        (GraphKind::Invocations, Program::C(c)) => invocations(c, req)?,
        (GraphKind::PointerFlow, Program::Java(j)) => pointer_flow(j, req)?,
        _ => return None,
    };
    Some(match req.around {
        Some((_, depth)) => within(g, &roots, depth),
        None => g,
    })
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
    let roots = req
        .around
        .and_then(|(pos, _)| function_at(p, pos))
        .map(|f| vec![b.node(f.clone(), || function_node(p, &f))])
        .unwrap_or_default();
    (b.finish(), roots)
}

fn invocations(c: &CProgram, req: &GraphRequest) -> Option<(Graph, Vec<usize>)> {
    let engine = c.engine()?;
    let p = Program::C(c.clone());
    let program = pointee_db::c_program(c.db, c.project).as_ref().ok()?.clone();
    let focus = req.around.and_then(|(pos, _)| function_at(&p, pos));
    Some(engine.with(|_, a| {
        let mut b: Builder<(bool, String)> = Builder::new();
        let mut roots = Vec::new();
        let mut units = Vec::new();
        for f in &program.functions {
            units.extend(a.units_of(&f.name));
        }
        units.sort();
        let unit_node = |u: pointee_flow::UnitId, b: &mut Builder<(bool, String)>| {
            let unit = a.unit(u);
            let name = a.func_name(u).to_string();
            b.node((true, u.to_string()), || {
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
                    label: format!("#{u} {name}"),
                    kind: NodeKind::Context,
                    tags,
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

/// A node of the pointer flow graph.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Flow {
    Var(u32, u32),
    Object(u32),
    Field(u32, u32),
    Static(u32),
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
                    fs.vars.get(v as usize).map(|&range| FileRange { file, range }),
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
            }
        })
    };
    let object = |b: &mut Builder<Flow>, al: u32| {
        b.node(Flow::Object(al), || {
            let alloc = &facts.allocs[al as usize];
            let (label, at) = j.site_label(alloc.method, alloc.site, &alloc.class);
            GraphNode {
                label,
                kind: NodeKind::Object,
                at,
                tags: Vec::new(),
            }
        })
    };
    let field = |b: &mut Builder<Flow>, al: u32, f: u32| {
        b.node(Flow::Field(al, f), || {
            let alloc = &facts.allocs[al as usize];
            let (site, at) = j.site_label(alloc.method, alloc.site, &alloc.class);
            GraphNode {
                label: format!("{site}.{}", facts.fields[f as usize]),
                kind: NodeKind::Field,
                at,
                tags: Vec::new(),
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
        out.sort();
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
            let st = b.node(Flow::Static(s), || static_node(j, s));
            let y = var(&mut b, m, to);
            b.edge(st, y, EdgeKind::Load, None);
        }
        for &(s, from) in &mf.sstores {
            let x = var(&mut b, m, from);
            let st = b.node(Flow::Static(s), || static_node(j, s));
            b.edge(x, st, EdgeKind::Store, None);
        }
    }
    // Calls: arguments and receivers into parameters, results back.
    for e in &pta.cg {
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
    let focus = req
        .around
        .and_then(|(pos, _)| function_at(&Program::Java(j.clone()), pos))
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
    let name = j.pta.map(|p| p.facts.statics[s as usize].clone()).unwrap_or_default();
    GraphNode {
        label: name,
        kind: NodeKind::Static,
        at: None,
        tags: Vec::new(),
    }
}

/// The part of `g` within `depth` steps of `roots` (edges in either
/// direction); nodes renumbered in their order.
fn within(g: Graph, roots: &[usize], depth: u32) -> Graph {
    let mut near = vec![u32::MAX; g.nodes.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &r in roots {
        near[r] = 0;
        queue.push_back(r);
    }
    let mut adjacent: Vec<Vec<usize>> = vec![Vec::new(); g.nodes.len()];
    for e in &g.edges {
        adjacent[e.from].push(e.to);
        adjacent[e.to].push(e.from);
    }
    while let Some(n) = queue.pop_front() {
        if near[n] >= depth {
            continue;
        }
        for &m in &adjacent[n] {
            if near[m] == u32::MAX {
                near[m] = near[n] + 1;
                queue.push_back(m);
            }
        }
    }
    let mut renumber = vec![usize::MAX; g.nodes.len()];
    let mut out = Graph::default();
    for (i, n) in g.nodes.into_iter().enumerate() {
        if near[i] != u32::MAX {
            renumber[i] = out.nodes.len();
            out.nodes.push(n);
        }
    }
    out.edges = g
        .edges
        .into_iter()
        .filter(|e| renumber[e.from] != usize::MAX && renumber[e.to] != usize::MAX)
        .map(|e| GraphEdge {
            from: renumber[e.from],
            to: renumber[e.to],
            ..e
        })
        .collect();
    out
}
