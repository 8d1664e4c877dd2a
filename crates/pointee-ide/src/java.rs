//! Java requests: lower the workspace's Java files as one program, analyse it
//! with the chosen context sensitivity (default `2-obj`) and answer.
//!
//! An object is named by its allocation site: `new A() at 12`, `new A[] at
//! 12`, `"text" at 12` for a string literal, `string at 12` for a
//! concatenation; its heap context, and a method context, is a list of
//! elements: objects as above, call sites as `call at 12`, types by name.

use crate::{
    AliasCheck, Callee, CheckReport, ContextTargets, Diagnostic, Dump, Hover, InputError, Language,
    Options, Severity, SourceFile, Target, TargetKind, Verdict, Workspace,
};
use pointee_cspta::{
    alias_checks, AliasVerdict, Analysis, CtxId, Elem, PtSet, Variant, ARRAY_FIELD,
};
use pointee_ir::{Base, FunctionSource, Place, Sel, SiteKind};
use pointee_java::JavaProgram;
use std::collections::BTreeSet;

/// A Java program already lowered and analysed, answered in editor terms
/// (the server keeps the analysis between requests and builds one of these
/// per request: it borrows everything).
pub struct JavaAnswers<'w> {
    ws: &'w Workspace,
    jp: &'w JavaProgram,
    a: &'w Analysis,
}

pub(crate) fn variant(opts: &Options) -> Result<Variant, InputError> {
    match &opts.cs {
        Some(s) => Variant::parse(s).map_err(InputError),
        None => Ok(Variant::default()),
    }
}

pub(crate) fn lower(ws: &Workspace) -> JavaProgram {
    let files: Vec<(&str, &str)> = ws
        .files_of(Language::Java)
        .map(|f| (f.name.as_str(), f.text.as_str()))
        .collect();
    pointee_java::lower(&files)
}

/// The roots: every static initialiser, then every `main(String[])` (or the
/// one `--entry` names: a class or a method).
pub(crate) fn roots(jp: &JavaProgram, entry: Option<&str>) -> Result<Vec<String>, InputError> {
    pointee_java::analysis_roots(&jp.mains, &jp.initializers, entry)
        .map(|v| v.iter().map(|n| n.to_string()).collect())
        .map_err(InputError)
}

/// Lowers and analyses the workspace's Java files, then answers `ask`.
fn answer<T>(
    ws: &Workspace,
    opts: &Options,
    ask: impl FnOnce(&JavaAnswers) -> Result<T, InputError>,
) -> Result<T, InputError> {
    let v = variant(opts)?;
    let jp = lower(ws);
    let roots = roots(&jp, opts.entry.as_deref())?;
    let refs: Vec<&str> = roots.iter().map(String::as_str).collect();
    let a = Analysis::run(&jp.program, &refs, v);
    ask(&JavaAnswers::new(ws, &jp, &a))
}

impl<'w> JavaAnswers<'w> {
    /// `jp` is the workspace's Java files lowered together, `a` its analysis
    /// (with the roots [`roots`] chooses).
    pub fn new(ws: &'w Workspace, jp: &'w JavaProgram, a: &'w Analysis) -> Self {
        JavaAnswers { ws, jp, a }
    }

    /// The source map of a Java file of the program.
    fn source_map(&self, file: &str) -> Result<&'w pointee_ir::SourceMap, InputError> {
        self.jp
            .sources
            .iter()
            .find(|m| &*m.file == file)
            .ok_or_else(|| InputError(format!("{file}: not a Java file of the program")))
    }

    /// (source file, function source) of a method.
    fn source_of(&self, method: &str) -> Option<(&'w SourceFile, &FunctionSource)> {
        for sm in &self.jp.sources {
            if let Some(fs) = sm.function(method) {
                return Some((self.ws.file(&sm.file)?, fs));
            }
        }
        None
    }

    fn site_label(&self, method: u32, site: u32, class: &str) -> (String, Option<crate::Location>) {
        let mname = &self.a.facts.method_names[method as usize];
        let Some((file, fs)) = self.source_of(mname) else {
            return (format!("{class} in {mname}"), None);
        };
        let Some(info) = fs.sites.get(site as usize) else {
            return (format!("{class} in {mname}"), None);
        };
        let loc = file.location(info.range.start);
        let label = match info.kind {
            SiteKind::String => {
                let t = file.text_of(info.range);
                if t.starts_with('"') && !t.contains('\n') && t.chars().count() <= 24 {
                    format!("{t} at {}", loc.line)
                } else {
                    format!("string at {}", loc.line)
                }
            }
            SiteKind::Call => format!("call at {}", loc.line),
            _ => match class.strip_suffix("[]") {
                Some(elem) => format!("new {elem}[] at {}", loc.line),
                None => format!("new {class}() at {}", loc.line),
            },
        };
        (label, Some(loc))
    }

    fn elem_label(&self, e: Elem) -> String {
        match e {
            Elem::Call(m, s) => self.site_label(m, s, "").0,
            Elem::Alloc(al) => {
                let a = &self.a.facts.allocs[al as usize];
                self.site_label(a.method, a.site, &a.class).0
            }
            Elem::Type(t) => self.a.facts.classes[t as usize].clone(),
        }
    }

    fn ctx_labels(&self, c: CtxId) -> Vec<String> {
        self.a
            .ctxs
            .get(c)
            .iter()
            .map(|e| self.elem_label(*e))
            .collect()
    }

    fn target(&self, o: u32) -> Target {
        let (h, al) = self.a.objs[o as usize];
        let a = &self.a.facts.allocs[al as usize];
        let (name, decl) = self.site_label(a.method, a.site, &a.class);
        Target {
            name,
            kind: TargetKind::Object,
            definite: false,
            decl,
            heap_context: Some(format!("[{}]", self.ctx_labels(h).join(", "))),
        }
    }

    fn targets(&self, set: &PtSet) -> Vec<Target> {
        let mut v: Vec<Target> = set.iter().map(|o| self.target(o)).collect();
        sort_targets(&mut v);
        v
    }

    /// The objects a place may hold in one reached method context.
    fn place_pts(&self, mc: u32, place: &Place) -> PtSet {
        let mut out = PtSet::new();
        match (&place.base, place.deref, place.path.as_slice()) {
            (Base::Var(v), false, []) => {
                out.union_with(self.a.var_pts(mc, v.0));
            }
            (Base::Var(v), true, [sel]) => {
                let f = match sel {
                    Sel::Field(f) => &**f,
                    Sel::Index(_) => ARRAY_FIELD,
                };
                for o in self.a.var_pts(mc, v.0).iter() {
                    if let Some(s) = self.a.field_pts(o, f) {
                        out.union_with(s);
                    }
                }
            }
            (Base::Global(g), false, []) => {
                if let Some(s) = self.a.static_pts(g) {
                    out.union_with(s);
                }
            }
            _ => {}
        }
        out
    }
}

fn sort_targets(v: &mut [Target]) {
    v.sort_by(|a, b| (&a.decl, &a.name, &a.heap_context).cmp(&(&b.decl, &b.name, &b.heap_context)));
}

impl JavaAnswers<'_> {
    /// The allocation sites the innermost reference-typed expression at a
    /// 1-based (line, column) of `file` may hold, merged and per context.
    pub fn hover(&self, file: &str, line: u32, column: u32) -> Result<Hover, InputError> {
        let (sf, off) = self.ws.position(file, line, column)?;
        let sm = self.source_map(file)?;
        // The innermost reference-typed expression at the cursor, in every
        // function that holds it (field initialisers are in every constructor).
        let Some(range) = sm.expr_at(off).map(|(_, e)| e.range) else {
            return Err(InputError(format!(
                "{file}:{line}:{column}: no reference-typed expression here"
            )));
        };
        let mut merged = PtSet::new();
        let mut contexts = Vec::new();
        let mut reachable = false;
        let mut seen: BTreeSet<(String, Vec<String>)> = BTreeSet::new();
        for fs in &sm.functions {
            for e in fs.exprs.iter().filter(|e| e.range == range) {
                if let (Base::Global(_), false, true) =
                    (&e.place.base, e.place.deref, e.place.path.is_empty())
                {
                    let set = self.place_pts(0, &e.place);
                    merged.union_with(&set);
                    reachable = true;
                    continue;
                }
                let Some(m) = self.a.method(&fs.name) else {
                    continue;
                };
                for &mc in self.a.contexts_of(m) {
                    reachable = true;
                    let set = self.place_pts(mc, &e.place);
                    merged.union_with(&set);
                    let chain = self.ctx_labels(self.a.reached[mc as usize].ctx);
                    if seen.insert((fs.name.to_string(), chain.clone())) {
                        contexts.push(ContextTargets {
                            chain,
                            targets: self.targets(&set),
                        });
                    }
                }
            }
        }
        contexts.sort_by(|a, b| a.chain.cmp(&b.chain));
        Ok(Hover {
            expr: sf.text_of(range).to_string(),
            span: sf.span(range),
            reachable,
            merged: false,
            extra_entry: false,
            targets: self.targets(&merged),
            contexts,
        })
    }

    /// The methods the call at a 1-based (line, column) of `file` may reach.
    pub fn callees(&self, file: &str, line: u32, column: u32) -> Result<Vec<Callee>, InputError> {
        let (_, off) = self.ws.position(file, line, column)?;
        let sm = self.source_map(file)?;
        let Some((method, site)) = sm.call_at(off).map(|(fs, c)| (&*fs.name, c.site.0)) else {
            return Err(InputError(format!(
                "{file}:{line}:{column}: no call of a program method here"
            )));
        };
        let Some(m) = self.a.method(method) else {
            return Ok(Vec::new());
        };
        let mut out: Vec<Callee> = self
            .a
            .callees(m, site)
            .into_iter()
            .map(|t| {
                let name = self.a.facts.method_names[t as usize].clone();
                let decl = self
                    .source_of(&name)
                    .map(|(f, fs)| f.location(fs.name_range.start));
                Callee { name, decl }
            })
            .collect();
        out.sort_by(|a, b| (&a.decl, &a.name).cmp(&(&b.decl, &b.name)));
        Ok(out)
    }

    /// The alias checks, casts that may fail and figures of the program.
    pub fn check(&self) -> Result<CheckReport, InputError> {
        let mut report = CheckReport::default();
        for c in alias_checks(&self.a, &self.jp.program) {
            let name = &self.jp.program.functions[c.method as usize].name;
            let Some((file, fs)) = self.source_of(name) else {
                continue;
            };
            let at = file.location(fs.stmts[c.stmt as usize].start);
            let verdict = match c.verdict {
                AliasVerdict::No => Verdict::No,
                AliasVerdict::May => Verdict::May,
                AliasVerdict::Unreachable => Verdict::Unreachable,
            };
            report.alias_checks.push(AliasCheck {
                at,
                check: c.kind.name().to_string(),
                verdict,
                ok: c.ok(),
            });
        }
        for (m, cast, fails) in self.a.casts() {
            if !fails {
                continue;
            }
            let name = &self.a.facts.method_names[m as usize];
            let Some((file, fs)) = self.source_of(name) else {
                continue;
            };
            report.diagnostics.push(Diagnostic {
                span: file.span(fs.stmts[cast.stmt as usize]),
                severity: Severity::Warning,
                code: "cast-may-fail".into(),
                message: format!("the cast to {} may fail", cast.target),
            });
        }
        report.alias_checks.sort();
        report.diagnostics.sort();
        report.stats = self.a.stats().named();
        Ok(report)
    }
}

pub(crate) fn hover(
    ws: &Workspace,
    file: &str,
    line: u32,
    column: u32,
    opts: &Options,
) -> Result<Hover, InputError> {
    answer(ws, opts, |s| s.hover(file, line, column))
}

pub(crate) fn callees(
    ws: &Workspace,
    file: &str,
    line: u32,
    column: u32,
    opts: &Options,
) -> Result<Vec<Callee>, InputError> {
    answer(ws, opts, |s| s.callees(file, line, column))
}

pub(crate) fn check(ws: &Workspace, opts: &Options) -> Result<CheckReport, InputError> {
    answer(ws, opts, |s| s.check())
}

pub(crate) fn dump(ws: &Workspace, opts: &Options) -> Result<Dump, InputError> {
    answer(ws, opts, |s| Ok(dump_answers(ws, s, opts)))
}

fn dump_answers(ws: &Workspace, s: &JavaAnswers, opts: &Options) -> Dump {
    let mut dump = Dump::of_program(ws, &s.jp.program, &s.jp.sources, opts, |_, _| Vec::new());
    let show = |set: &PtSet| -> String {
        let t = s.targets(set);
        let parts: Vec<String> = t
            .iter()
            .map(|t| format!("{} {}", t.name, t.heap_context.as_deref().unwrap_or("[]")))
            .collect();
        format!("{{{}}}", parts.join(", "))
    };
    let ctx = |c: CtxId| format!("[{}]", s.ctx_labels(c).join(", "));
    let mut pts = Vec::new();
    for (mc, r) in s.a.reached.iter().enumerate() {
        let func = &s.jp.program.functions[r.method as usize];
        for (vi, v) in func.vars.iter().enumerate() {
            let set = s.a.var_pts(mc as u32, vi as u32);
            if !set.is_empty() {
                pts.push(format!(
                    "{} {}: {} -> {}",
                    func.name,
                    ctx(r.ctx),
                    v.name,
                    show(set)
                ));
            }
        }
    }
    pts.sort();
    let mut fields: Vec<String> =
        s.a.all_fields()
            .map(|(o, f, set)| {
                let t = s.target(o);
                format!(
                    "{} {}.{f} -> {}",
                    t.name,
                    t.heap_context.unwrap_or_default(),
                    show(set)
                )
            })
            .collect();
    fields.sort();
    let mut statics: Vec<String> =
        s.a.facts
            .statics
            .iter()
            .filter_map(|g| {
                s.a.static_pts(g)
                    .filter(|p| !p.is_empty())
                    .map(|p| format!("{g} -> {}", show(p)))
            })
            .collect();
    statics.sort();
    let mut cg: Vec<(String, String, u32, String)> =
        s.a.cg
            .iter()
            .map(|e| {
                let (a, b) = (
                    s.a.reached[e.caller as usize],
                    s.a.reached[e.callee as usize],
                );
                let call = &s.a.facts.methods[a.method as usize].calls[e.call as usize];
                let (site, loc) = s.site_label(a.method, call.site, "");
                let caller = format!(
                    "{} {}",
                    s.a.facts.method_names[a.method as usize],
                    ctx(a.ctx)
                );
                let callee = format!(
                    "{} {}",
                    s.a.facts.method_names[b.method as usize],
                    ctx(b.ctx)
                );
                (caller, site, loc.map_or(0, |l| l.line), callee)
            })
            .collect();
    cg.sort_by(|x, y| (&x.0, x.2, &x.3).cmp(&(&y.0, y.2, &y.3)));
    let cg: Vec<String> = cg
        .into_iter()
        .map(|(a, site, _, b)| format!("{a} {site} -> {b}"))
        .collect();
    let figures =
        s.a.stats()
            .named()
            .into_iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
    dump.sections
        .push((format!("points-to sets ({})", s.a.variant.name()), pts));
    dump.sections.push(("field points-to sets".into(), fields));
    dump.sections.push(("static fields".into(), statics));
    dump.sections.push(("call graph".into(), cg));
    dump.sections.push(("figures".into(), figures));
    dump
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(text: &str) -> Workspace {
        Workspace::new(vec![SourceFile::new("Main.java", text)])
    }

    const PROG: &str = "public class Main {
    public static void main(String[] args) {
        A a1 = new A();
        A a2 = new A();
        B b1 = new B();
        B b2 = new B();
        a1.set(b1);
        a2.set(b2);
        B x = a1.get();
        NOALIAS(x, b2);
    }
    static void NOALIAS(Object a, Object b) {}
}
class A {
    B f;
    void set(B b) { this.doSet(b); }
    void doSet(B p) { this.f = p; }
    B get() { return this.f; }
}
class B {}
";

    #[test]
    fn hover_names_allocation_sites_with_heap_contexts() {
        let w = ws(PROG);
        let h = hover(&w, "Main.java", 9, 11, &Options::default()).unwrap();
        assert_eq!(h.expr, "x");
        let names: Vec<String> = h
            .targets
            .iter()
            .map(|t| format!("{} {}", t.name, t.heap_context.clone().unwrap()))
            .collect();
        assert_eq!(names, vec!["new B() at 5 []"]);
        assert!(h.reachable);
        let ci = Options {
            cs: Some("ci".into()),
            ..Default::default()
        };
        let h = hover(&w, "Main.java", 9, 11, &ci).unwrap();
        let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, vec!["new B() at 5", "new B() at 6"]);
    }

    #[test]
    fn hover_on_a_field_lists_each_receiver_context() {
        let w = ws(PROG);
        // `this.f` in doSet, under 2-obj: one context per receiver object.
        let h = hover(&w, "Main.java", 17, 28, &Options::default()).unwrap();
        assert_eq!(h.expr, "this.f");
        assert_eq!(h.contexts.len(), 2);
        assert_eq!(h.contexts[0].chain, vec!["new A() at 3"]);
        assert_eq!(h.contexts[1].chain, vec!["new A() at 4"]);
        assert_eq!(h.contexts[1].targets[0].name, "new B() at 6");
        assert_eq!(h.contexts[0].targets.len(), 1);
        assert_eq!(h.contexts[0].targets[0].name, "new B() at 5");
    }

    #[test]
    fn hover_on_declarations_of_parameters_and_fields() {
        let w = ws(PROG);
        // `B p` of doSet: one context per receiver under 2-obj.
        let h = hover(&w, "Main.java", 17, 18, &Options::default()).unwrap();
        assert_eq!(h.expr, "p");
        let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, vec!["new B() at 5", "new B() at 6"]);
        assert_eq!(h.contexts.len(), 2);
        // The field `f` of A: what every A object's f may hold.
        let h = hover(&w, "Main.java", 15, 7, &Options::default()).unwrap();
        assert_eq!(h.expr, "f");
        let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, vec!["new B() at 5", "new B() at 6"]);
        assert_eq!(
            h.contexts
                .iter()
                .map(|c| c.chain.clone())
                .collect::<Vec<_>>(),
            vec![vec!["new A() at 3"], vec!["new A() at 4"]]
        );
    }

    #[test]
    fn hover_and_callees_never_panic_anywhere_in_some_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
        for name in ["Constructors.java", "NotModelled.java", "StaticInit.java"] {
            let text = std::fs::read_to_string(dir.join(name)).unwrap();
            let w = Workspace::new(vec![SourceFile::new(name, text.clone())]);
            for (li, line) in text.lines().enumerate() {
                for col in (1..=line.chars().count() as u32 + 1).step_by(3) {
                    let _ = hover(&w, name, li as u32 + 1, col, &Options::default());
                    let _ = callees(&w, name, li as u32 + 1, col, &Options::default());
                }
            }
        }
    }

    fn section(d: &Dump, name: &str) -> Vec<String> {
        d.sections
            .iter()
            .find(|s| s.0.starts_with(name))
            .map(|s| s.1.clone())
            .unwrap_or_default()
    }

    /// Seed 001, "C.I. vs. C.S. (1-call-site)": the program of the slide, line
    /// for line, and its call graph (constructors left out, as on the slide).
    #[test]
    fn seed_slide_call_graph_under_ci_and_1_call() {
        let src = "class C {
    public static void main(String[] args) {
        C c = new C();
        c.m();
    }
    Number id(Number n) {
        return n;
    }

    void m() {
        Number n1, n2, x, y;
        n1 = new One();
        n2 = new Two();
        x = this.id(n1);
        y = this.id(n2);
        x.get();
    }
}
interface Number { int get(); }
class One implements Number { public int get() { return 1; } }
class Two implements Number { public int get() { return 2; } }
";
        let w = Workspace::new(vec![SourceFile::new("C.java", src)]);
        let cg = |cs: &str| -> Vec<String> {
            let d = dump(
                &w,
                &Options {
                    cs: Some(cs.into()),
                    ..Default::default()
                },
            )
            .unwrap();
            section(&d, "call graph")
                .into_iter()
                .filter(|l| !l.contains("<init>"))
                .collect()
        };
        assert_eq!(
            cg("1-call"),
            vec![
                "C.m() [call at 4] call at 14 -> C.id(Number) [call at 14]",
                "C.m() [call at 4] call at 15 -> C.id(Number) [call at 15]",
                "C.m() [call at 4] call at 16 -> One.get() [call at 16]",
                "C.main(String[]) [] call at 4 -> C.m() [call at 4]",
            ]
        );
        assert_eq!(
            cg("ci"),
            vec![
                "C.m() [] call at 14 -> C.id(Number) []",
                "C.m() [] call at 15 -> C.id(Number) []",
                "C.m() [] call at 16 -> One.get() []",
                "C.m() [] call at 16 -> Two.get() []",
                "C.main(String[]) [] call at 4 -> C.m() []",
            ]
        );
    }

    /// Seed 001, "Type vs. object sensitivity": the contexts of foo().
    #[test]
    fn seed_slide_contexts_of_foo_under_obj_and_type() {
        let src = "class X {
    void main2() {
        Y y1 = new Y();
        y1.foo();
        Y y2 = new Y();
        y2.foo();
        Y y3 = new Y();
        y3.foo();
    }
    public static void main(String[] args) { new X().main2(); }
}
class Y {
    void foo() {}
}
";
        let w = Workspace::new(vec![SourceFile::new("X.java", src)]);
        let contexts = |cs: &str| -> Vec<String> {
            let d = dump(
                &w,
                &Options {
                    cs: Some(cs.into()),
                    ..Default::default()
                },
            )
            .unwrap();
            section(&d, "call graph")
                .into_iter()
                .filter_map(|l| l.split_once("-> Y.foo() ").map(|(_, c)| c.to_string()))
                .collect()
        };
        assert_eq!(
            contexts("1-obj"),
            vec!["[new Y() at 3]", "[new Y() at 5]", "[new Y() at 7]"]
        );
        assert_eq!(contexts("1-type"), vec!["[X]", "[X]", "[X]"]);
        let d = dump(
            &w,
            &Options {
                cs: Some("1-type".into()),
                ..Default::default()
            },
        )
        .unwrap();
        let figures = section(&d, "figures");
        assert!(
            figures.contains(&"method contexts: 5".to_string()),
            "{figures:?}"
        );
    }

    #[test]
    fn every_fixture_checks_and_dumps() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let files: Vec<std::path::PathBuf> = if p.is_dir() {
                let mut v: Vec<_> = std::fs::read_dir(&p)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .collect();
                v.sort();
                v
            } else {
                vec![p.clone()]
            };
            let sources = files
                .iter()
                .filter(|f| f.extension().is_some_and(|e| e == "java"))
                .map(|f| SourceFile::new(f.to_string_lossy(), std::fs::read_to_string(f).unwrap()))
                .collect();
            let w = Workspace::new(sources);
            for cs in ["ci", "2-obj", "1-type"] {
                let opts = Options {
                    cs: Some(cs.into()),
                    verbose: true,
                    ..Default::default()
                };
                let r = check(&w, &opts).unwrap();
                assert!(
                    r.stats
                        .iter()
                        .any(|(k, v)| k == "reachable methods" && *v > 0),
                    "{}",
                    p.display()
                );
                let d = dump(&w, &opts).unwrap();
                assert!(
                    d.sections
                        .iter()
                        .any(|s| s.0 == "call graph" && !s.1.is_empty()),
                    "{}",
                    p.display()
                );
            }
        }
    }

    #[test]
    fn callees_and_check() {
        let w = ws(PROG);
        let c = callees(&w, "Main.java", 7, 12, &Options::default()).unwrap();
        assert_eq!(
            c.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            vec!["A.set(B)"]
        );
        assert_eq!(c[0].decl.as_ref().unwrap().line, 16);
        let r = check(&w, &Options::default()).unwrap();
        assert_eq!(r.alias_checks.len(), 1);
        assert_eq!(r.alias_checks[0].verdict, Verdict::No);
        assert!(r.all_ok());
        let r = check(
            &w,
            &Options {
                cs: Some("ci".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(r.alias_checks[0].verdict, Verdict::May);
        assert!(!r.all_ok());
        assert!(
            r.stats
                .iter()
                .any(|(k, v)| k == "reachable methods" && *v == 7),
            "{:?}",
            r.stats
        );
    }

    #[test]
    fn bad_variant_and_entry_are_input_errors() {
        let w = ws(PROG);
        assert!(check(
            &w,
            &Options {
                cs: Some("5-obj".into()),
                ..Default::default()
            }
        )
        .is_err());
        assert!(check(
            &w,
            &Options {
                entry: Some("Nope".into()),
                ..Default::default()
            }
        )
        .is_err());
        assert!(check(
            &w,
            &Options {
                entry: Some("Main".into()),
                ..Default::default()
            }
        )
        .is_ok());
    }

    #[test]
    fn dump_has_facts_and_call_graph() {
        let d = dump(&ws(PROG), &Options::default()).unwrap();
        let cg = &d.sections.iter().find(|s| s.0 == "call graph").unwrap().1;
        assert!(
            cg.iter().any(|l| l
                .starts_with("A.set(B) [new A() at 3] call at 16 -> A.doSet(B) [new A() at 3]")),
            "{cg:#?}"
        );
    }
}
