//! The Java program of a project as answers see it: the lowered files, the
//! analysis kept by the database (pointee-cspta, with the configured
//! context sensitivity), and objects and contexts named in the user's terms.
//!
//! An object is named by its allocation site: `new A() at 12`, `new A[] at
//! 12`, `"text" at 12` for a string literal, `string at 12` for a
//! concatenation; its heap context, and a method context, is a list of
//! elements: objects as above, call sites as `call at 12`, types by name.

use crate::{Analysis, FileId, FileRange, Target, TargetKind};
use pointee_cspta::{CtxId, Elem, PtSet, ARRAY_FIELD};
use pointee_db::{Lang, Project};
use pointee_ir::{Base, FunctionSource, Place, Range, Sel, SiteKind, SourceMap};
use pointee_java::JavaProgram as Lowered;

#[derive(Clone)]
pub(crate) struct JavaProgram<'a> {
    a: &'a Analysis,
    pub project: Project,
    pub jp: &'a Lowered,
    /// The analysis, when one ran (see `Analysis::program_error`).
    pub pta: Option<&'a pointee_cspta::Analysis>,
}

impl<'a> JavaProgram<'a> {
    pub fn new(a: &'a Analysis, project: Project) -> JavaProgram<'a> {
        let db = a.db();
        JavaProgram {
            a,
            project,
            jp: &pointee_db::java_program(db, project).0,
            pta: pointee_db::java_engine(db, project).0.analysis().ok(),
        }
    }

    /// The Java program `file` belongs to.
    pub fn of(a: &'a Analysis, file: FileId) -> Option<JavaProgram<'a>> {
        (a.lang(file) == Some(Lang::Java)).then(|| JavaProgram::new(a, a.project_of(file)))
    }

    pub fn db(&self) -> &'a pointee_db::Database {
        self.a.db()
    }

    /// The id of a file of the program, by its path.
    pub fn file_id(&self, path: &str) -> Option<FileId> {
        self.a.file_id(path)
    }

    /// The source map of a file of the program.
    pub fn source_map(&self, file: FileId) -> Option<&'a SourceMap> {
        let path = self.a.file_path(file);
        self.jp.sources.iter().find(|m| &*m.file == path)
    }

    /// Where a method is defined.
    pub fn function_source(&self, method: &str) -> Option<(FileId, &'a FunctionSource)> {
        self.jp.sources.iter().find_map(|sm| {
            let fs = sm.function(method)?;
            Some((self.a.file_id(&sm.file)?, fs))
        })
    }

    pub fn text(&self, file: FileId, range: Range) -> String {
        self.a
            .file_text(file)
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
            .to_string()
    }

    /// The 1-based line of an offset (objects are named by line).
    pub fn line(&self, file: FileId, offset: u32) -> u32 {
        pointee_db::line_index(self.a.db(), file).line_of(offset) as u32 + 1
    }

    /// The label of a site of a method (`new A() at 12`, `call at 12`) and
    /// where it is.
    pub fn site_label(&self, method: u32, site: u32, class: &str) -> (String, Option<FileRange>) {
        let Some(pta) = self.pta else {
            return (class.to_string(), None);
        };
        let mname = &pta.facts.method_names[method as usize];
        let Some((file, fs)) = self.function_source(mname) else {
            return (format!("{class} in {mname}"), None);
        };
        let Some(info) = fs.sites.get(site as usize) else {
            return (format!("{class} in {mname}"), None);
        };
        let line = self.line(file, info.range.start);
        let label = match info.kind {
            SiteKind::String => {
                let t = self.text(file, info.range);
                if t.starts_with('"') && !t.contains('\n') && t.chars().count() <= 24 {
                    format!("{t} at {line}")
                } else {
                    format!("string at {line}")
                }
            }
            SiteKind::Call => format!("call at {line}"),
            _ => match class.strip_suffix("[]") {
                Some(elem) => format!("new {elem}[] at {line}"),
                None => format!("new {class}() at {line}"),
            },
        };
        let at = FileRange {
            file,
            range: info.range,
        };
        (label, Some(at))
    }

    fn elem_label(&self, pta: &pointee_cspta::Analysis, e: Elem) -> String {
        match e {
            Elem::Call(m, s) => self.site_label(m, s, "").0,
            Elem::Alloc(al) => {
                let a = &pta.facts.allocs[al as usize];
                self.site_label(a.method, a.site, &a.class).0
            }
            Elem::Type(t) => pta.facts.classes[t as usize].clone(),
        }
    }

    /// A context's elements, labelled.
    pub fn ctx_labels(&self, c: CtxId) -> Vec<String> {
        let Some(pta) = self.pta else {
            return Vec::new();
        };
        pta.ctxs
            .get(c)
            .iter()
            .map(|e| self.elem_label(pta, *e))
            .collect()
    }

    /// An abstract object as a target: its allocation site and heap context.
    pub fn target(&self, o: u32) -> Target {
        let pta = self.pta.expect("objects come from an analysis");
        let (h, al) = pta.objs[o as usize];
        let a = &pta.facts.allocs[al as usize];
        let (name, decl) = self.site_label(a.method, a.site, &a.class);
        Target {
            name,
            kind: TargetKind::Object,
            definite: false,
            decl,
            heap_context: Some(format!("[{}]", self.ctx_labels(h).join(", "))),
            meaning: None,
        }
    }

    /// A set's targets, sorted by where they are allocated.
    pub fn targets(&self, set: &PtSet) -> Vec<Target> {
        let mut v: Vec<Target> = set.iter().map(|o| self.target(o)).collect();
        self.sort_targets(&mut v);
        v
    }

    /// By allocation site (file path, offset), then name and heap context.
    pub fn sort_targets(&self, v: &mut [Target]) {
        let key = |t: &Target| {
            t.decl
                .map(|d| (self.a.file_path(d.file).to_string(), d.range.start))
        };
        v.sort_by(|a, b| {
            (key(a), &a.name, &a.heap_context).cmp(&(key(b), &b.name, &b.heap_context))
        });
    }

    /// The objects a place may denote or hold in one method context: the
    /// base's objects, then each field selected in turn.
    pub fn place_pts(&self, mc: u32, place: &Place) -> PtSet {
        let mut set = PtSet::new();
        let Some(pta) = self.pta else { return set };
        match &place.base {
            Base::Var(v) => {
                set.union_with(pta.var_pts(mc, v.0));
            }
            Base::Global(g) => {
                if let Some(s) = pta.static_pts(g) {
                    set.union_with(s);
                }
            }
        }
        for sel in &place.path {
            let field = match sel {
                Sel::Field(f) => &**f,
                Sel::Index(_) => ARRAY_FIELD,
            };
            let mut next = PtSet::new();
            for o in set.iter() {
                if let Some(s) = pta.field_pts(o, field) {
                    next.union_with(s);
                }
            }
            set = next;
        }
        set
    }

    /// The objects a place of `function` may hold over every context of the
    /// method; `None` when the method is not reached.
    pub fn objects(&self, function: &str, place: &Place) -> Option<PtSet> {
        let pta = self.pta?;
        if let Base::Global(_) = place.base {
            return Some(self.place_pts(0, place));
        }
        let ctxs = pta.contexts_of(pta.method(function)?);
        if ctxs.is_empty() {
            return None;
        }
        let mut set = PtSet::new();
        for &mc in ctxs {
            set.union_with(&self.place_pts(mc, place));
        }
        Some(set)
    }
}
