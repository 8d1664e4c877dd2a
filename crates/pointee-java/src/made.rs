//! Functions the front end makes up, run before any entry: each file's
//! literal pool (one object per string literal text, Java interns them),
//! each file's box pool (one object per cached box value) and the
//! library's callbacks root. They are static methods of `String` or
//! `Object`, so that the analysis finds a class for them.

use crate::lower::{self, Pools, LIBRARY};
use crate::JavaProgram;
use pointee_ir::{
    Basic, Callee, Function, FunctionSource, Global, GlobalKind, GlobalSource, Place, Range,
    Rvalue, SiteId, SiteInfo, SiteKind, SourceMap, Stmt, StmtId, Type, Var, VarId, VarKind,
};
use std::collections::{BTreeSet, HashSet};

/// The class of the one object that stands for every object the library
/// makes itself (not a class of the program: calls on it are library calls).
pub const LIBRARY_OBJECT: &str = "<library>";

/// A static function being made: straight-line statements, no parameters.
struct MadeUp {
    f: Function,
    fs: FunctionSource,
}

impl MadeUp {
    fn new(name: &str) -> MadeUp {
        MadeUp {
            f: Function {
                name: name.into(),
                params: Vec::new(),
                ret: Type::Void,
                variadic: false,
                is_static: true,
                vars: Vec::new(),
                ret_var: None,
                body: Vec::new(),
                labels: 0,
                stmt_count: 0,
                site_count: 0,
                overwrites: Vec::new(),
            },
            fs: FunctionSource {
                name: name.into(),
                ..Default::default()
            },
        }
    }

    fn var(&mut self, name: &str, class: &str, at: Range) -> Place {
        let v = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: name.into(),
            ty: Type::Class(class.into()),
            kind: VarKind::Temp,
            restrict: false,
        });
        self.fs.vars.push(at);
        Place::var(v)
    }

    fn site(&mut self, kind: SiteKind, at: Range) -> SiteId {
        let s = SiteId(self.f.site_count);
        self.f.site_count += 1;
        self.fs.sites.push(SiteInfo { range: at, kind });
        s
    }

    fn stmt(&mut self, b: Basic, at: Range) {
        self.f.body.push(Stmt::Basic(StmtId(self.f.stmt_count), b));
        self.f.stmt_count += 1;
        self.fs.stmts.push(at);
    }

    fn assign(&mut self, lhs: Place, rhs: Rvalue, at: Range) {
        self.stmt(Basic::Assign { lhs, rhs }, at);
    }

    /// Adds the function as the static method `signature` of `class`, run
    /// before any entry, its source to `source`.
    fn finish(self, out: &mut JavaProgram, source: &mut SourceMap, class: &str, signature: &str) {
        if let Some(c) = out.program.classes.iter_mut().find(|c| &*c.name == class) {
            c.methods.push(pointee_ir::Method {
                signature: signature.into(),
                function: Some(self.f.name.clone()),
                is_static: true,
            });
        }
        out.initializers.push(self.f.name.clone());
        out.program.functions.push(self.f.into());
        source.functions.push(self.fs);
    }
}

/// The globals declared so far (`Program::global` is a linear search).
fn declared(out: &JavaProgram) -> HashSet<String> {
    out.program
        .globals
        .iter()
        .map(|g| g.name.to_string())
        .collect()
}

/// Declares a static-field global of `class` once (its source in `source`).
fn declare(
    out: &mut JavaProgram,
    done: &mut HashSet<String>,
    source: &mut SourceMap,
    name: &str,
    class: &str,
    at: Range,
) {
    if done.insert(name.to_string()) {
        out.program.globals.push(Global {
            name: name.into(),
            ty: Type::Class(class.into()),
            kind: GlobalKind::StaticField,
            init: Vec::new(),
        });
        source.globals.push(GlobalSource {
            name: name.into(),
            name_range: at,
            sites: Vec::new(),
        });
    }
}

/// One static function per file, `String.<literals FILE>()`: it makes one
/// object per distinct literal text of the file and stores it in the global
/// `String."text"` that every use of the literal reads (Java interns
/// literals, so equal texts are one object).
pub fn literal_pools(out: &mut JavaProgram, sources: &mut [SourceMap], pools: &[Pools]) {
    let mut done = declared(out);
    for (file, pool) in pools.iter().enumerate() {
        if pool.strings.is_empty() {
            continue;
        }
        let signature = format!("<literals {}>()", sources[file].file);
        let mut m = MadeUp::new(&format!("String.{signature}"));
        let mut seen = HashSet::new();
        for (text, at) in &pool.strings {
            if !seen.insert(text.as_str()) {
                continue;
            }
            let k = m.f.vars.len();
            let v = m.var(&format!("s{k}"), "String", *at);
            let site = m.site(SiteKind::String, *at);
            m.assign(v.clone(), Rvalue::String(site), *at);
            let g = lower::literal_global(text);
            m.assign(Place::global(g.as_str().into()), Rvalue::Use(v), *at);
            declare(out, &mut done, &mut sources[file], &g, "String", *at);
        }
        m.finish(out, &mut sources[file], "String", &signature);
    }
}

/// One static function per file that boxes, `Object.<boxes FILE>()`: per
/// box class, one object standing for the cached values the program never
/// names, and one object per cached value it boxes, stored in the globals
/// `Integer.<cache 5>` (that value's) and `Integer.<cache>` (every cached
/// one); when the program talks to the library, in the library heap too
/// (the library may box values itself).
pub fn box_pools(out: &mut JavaProgram, sources: &mut [SourceMap], pools: &[Pools]) {
    let library = out.program.global(LIBRARY).is_some();
    let mut done = declared(out);
    for (file, pool) in pools.iter().enumerate() {
        if pool.boxes.is_empty() {
            continue;
        }
        let signature = format!("<boxes {}>()", sources[file].file);
        let mut m = MadeUp::new(&format!("Object.{signature}"));
        // The objects: (class, cached value or None for the rest), at the
        // first box of each.
        let mut seen: BTreeSet<(&str, Option<i64>)> = BTreeSet::new();
        let mut made: Vec<(&str, Option<i64>, Range)> = Vec::new();
        for (class, value, at) in &pool.boxes {
            for key in [(class.as_str(), None), (class.as_str(), *value)] {
                if seen.insert(key) {
                    made.push((key.0, key.1, *at));
                }
            }
        }
        for (class, value, at) in made {
            let k = m.f.vars.len();
            let v = m.var(&format!("b{k}"), class, at);
            let site = m.site(SiteKind::New, at);
            m.assign(v.clone(), Rvalue::New(site, class.into()), at);
            let all = lower::cache_global(class, None);
            declare(out, &mut done, &mut sources[file], &all, class, at);
            m.assign(
                Place::global(all.as_str().into()),
                Rvalue::Use(v.clone()),
                at,
            );
            if value.is_some() {
                let one = lower::cache_global(class, value);
                declare(out, &mut done, &mut sources[file], &one, class, at);
                m.assign(
                    Place::global(one.as_str().into()),
                    Rvalue::Use(v.clone()),
                    at,
                );
            }
            if library {
                m.assign(Place::global(LIBRARY.into()), Rvalue::Use(v), at);
            }
        }
        m.finish(out, &mut sources[file], "Object", &signature);
    }
}

/// When the program talks to the library: a root `Library.<callbacks>()`
/// that puts the object standing for the library's own objects into the
/// library heap, and through which the library calls back every method it
/// could know of on the objects it was given: the methods of program
/// classes with a library supertype (`run()` of a `Runnable`, `compare` of a
/// `Comparator`, ...) and `toString()`, `equals(Object)`, `hashCode()`; the
/// library heap is each argument, and each result goes back into it.
pub fn library_callbacks(out: &mut JavaProgram, sources: &mut [SourceMap]) {
    if out.program.global(LIBRARY).is_none() || sources.is_empty() {
        return;
    }
    let known: HashSet<&str> = out.program.classes.iter().map(|c| &*c.name).collect();
    let mut sigs: BTreeSet<String> = ["toString()", "equals(Object)", "hashCode()"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for c in &out.program.classes {
        let library_super = c
            .superclass
            .iter()
            .chain(&c.interfaces)
            .any(|s| !known.contains(&**s));
        if library_super {
            sigs.extend(
                c.methods
                    .iter()
                    .filter(|m| !m.is_static && !m.signature.starts_with('<'))
                    .map(|m| m.signature.to_string()),
            );
        }
    }
    let at = Range::default();
    let mut m = MadeUp::new("Library.<callbacks>()");
    let lib = m.var("lib", "Object", at);
    let r = m.var("r", "Object", at);
    let heap = Place::global(LIBRARY.into());
    let site = m.site(SiteKind::New, at);
    m.assign(r.clone(), Rvalue::New(site, LIBRARY_OBJECT.into()), at);
    m.assign(heap.clone(), Rvalue::Use(r.clone()), at);
    m.assign(lib.clone(), Rvalue::Use(heap.clone()), at);
    for sig in sigs {
        let arity = sig.split_once('(').map_or(0, |(_, a)| {
            a.trim_end_matches(')')
                .split(',')
                .filter(|x| !x.is_empty())
                .count()
        });
        let site = m.site(SiteKind::Call, at);
        let callee = Callee::Virtual {
            receiver: lib.clone(),
            signature: sig.as_str().into(),
        };
        m.stmt(
            Basic::Call {
                site,
                lhs: Some(r.clone()),
                callee,
                args: vec![Rvalue::Use(lib.clone()); arity + 1],
            },
            at,
        );
    }
    m.assign(heap, Rvalue::Use(r), at);
    m.finish(out, &mut sources[0], "Object", "<callbacks>()");
}
