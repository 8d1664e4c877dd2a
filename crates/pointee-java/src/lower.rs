//! The second pass: method bodies to IR statements. Nested expressions get
//! temporaries so that each side of a statement has at most one dereference.

use crate::constant;
use crate::decl::{text, ClassDecl, Constant, FieldDecl, Hierarchy, MethodDecl};
use crate::syntax::Fields;
use crate::types::{assignable, box_class, promote, read_type, unboxed, wrap_array, JType};
use pointee_ir::{
    Base, Basic, Block, CallInfo, Callee, Cond, ExprInfo, Function, FunctionSource, Index, Note,
    NoteKind, Place, Point, Range, Rvalue, SiteId, SiteInfo, SiteKind, Stmt, StmtId, Var, VarId,
    VarKind,
};
use tree_sitter::Node;

mod boxing;
mod call;
mod cond;
mod expr;
mod int;
mod lambda;
mod methodref;
mod stmt;

pub use boxing::cache_global;

/// A lowered expression: a place that holds its value, or an rvalue.
#[derive(Clone, Debug)]
pub struct Ev {
    pub kind: EvK,
    pub ty: JType,
}

#[derive(Clone, Debug)]
pub enum EvK {
    Place(Place),
    Rv(Rvalue),
}

impl Ev {
    fn rv(rv: Rvalue, ty: JType) -> Ev {
        Ev {
            kind: EvK::Rv(rv),
            ty,
        }
    }
    fn place(p: Place, ty: JType) -> Ev {
        Ev {
            kind: EvK::Place(p),
            ty,
        }
    }
    fn scalar() -> Ev {
        Ev::rv(Rvalue::Scalar, JType::int())
    }
    /// A value of the primitive type `p` (no object).
    fn prim(p: &'static str) -> Ev {
        Ev::rv(Rvalue::Scalar, JType::Prim(p))
    }
    fn unknown() -> Ev {
        Ev::rv(Rvalue::Unknown, JType::Unknown)
    }
    fn var(v: VarId, ty: JType) -> Ev {
        Ev::place(Place::var(v), ty)
    }
}

/// The constants a body uses, which its file's pool functions make (see
/// `lib.rs`): string literals (interned: one object per text) and boxes
/// (cached: one object per small value).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pools {
    /// (text with quotes, where).
    pub strings: Vec<(String, Range)>,
    /// (box class, the cached value when it is one, where).
    pub boxes: Vec<(String, Option<i64>, Range)>,
}

impl Pools {
    pub fn append(&mut self, other: &mut Pools) {
        self.strings.append(&mut other.strings);
        self.boxes.append(&mut other.boxes);
    }

    /// Moves every range `delta` bytes later (earlier when negative).
    pub fn shift(&mut self, delta: i64) {
        let moved = |r: Range| Range {
            start: (i64::from(r.start) + delta) as u32,
            end: (i64::from(r.end) + delta) as u32,
        };
        for (_, r) in &mut self.strings {
            *r = moved(*r);
        }
        for (_, _, r) in &mut self.boxes {
            *r = moved(*r);
        }
    }
}

/// A lowered call argument.
#[derive(Clone, Debug)]
pub struct Arg {
    /// A variable or a constant.
    pub rv: Rvalue,
    pub ty: JType,
    /// A primitive argument's value, when a constant (for boxing).
    pub value: Option<i64>,
}

impl Arg {
    fn new(rv: Rvalue, ty: JType) -> Arg {
        Arg {
            rv,
            ty,
            value: None,
        }
    }
}

/// What one method body is lowered against.
pub struct Method<'m> {
    pub class: &'m str,
    pub function: &'m str,
    pub is_static: bool,
    pub type_vars: &'m [String],
}

/// Builds one function.
pub struct Fb<'a, 'h> {
    pub h: &'h Hierarchy<'a>,
    pub src: &'h str,
    pub notes: &'h mut Vec<Note>,
    class: String,
    type_vars: Vec<String>,
    vars: Vec<Var>,
    var_ty: Vec<JType>,
    scopes: Vec<Vec<(String, VarId)>>,
    blocks: Vec<Block>,
    stmt_count: u32,
    site_count: u32,
    temps: u32,
    this: Option<VarId>,
    ret_var: Option<VarId>,
    pub fs: FunctionSource,
    /// The string literals and boxes used here, made by the file's pools.
    pub pools: Pools,
    /// The body throws or catches: the program needs the global [`THROWN`].
    pub uses_thrown: bool,
    /// The body talks to the library: the program needs [`LIBRARY`].
    pub uses_library: bool,
    /// Lambdas made here: their classes and methods.
    pub lambdas: Vec<(pointee_ir::Class, Function, FunctionSource)>,
    /// The type the next expression is assigned to (a lambda's target).
    expected: Option<JType>,
    /// Enclosing switch expressions: the variable each one's value goes to,
    /// and the type of its first reference-typed arm.
    yields: Vec<(VarId, JType, usize)>,
    ret_ty: JType,
}

/// The one location of every thrown object (a static field of Throwable).
pub const THROWN: &str = "Throwable.<thrown>";

/// The library heap: every object passed to library code (arguments,
/// receivers, objects of library classes) may come back from it (results,
/// fields of library objects, iteration over library collections).
pub const LIBRARY: &str = "Library.<heap>";

impl<'a, 'h> Fb<'a, 'h> {
    pub fn new(
        h: &'h Hierarchy<'a>,
        src: &'h str,
        notes: &'h mut Vec<Note>,
        m: &Method,
    ) -> Fb<'a, 'h> {
        let mut fb = Fb {
            h,
            src,
            notes,
            class: m.class.to_string(),
            type_vars: m.type_vars.to_vec(),
            vars: Vec::new(),
            var_ty: Vec::new(),
            scopes: vec![Vec::new()],
            blocks: vec![Vec::new()],
            stmt_count: 0,
            site_count: 0,
            temps: 0,
            this: None,
            ret_var: None,
            fs: FunctionSource {
                name: m.function.into(),
                ..Default::default()
            },
            pools: Pools::default(),
            uses_thrown: false,
            uses_library: false,
            lambdas: Vec::new(),
            expected: None,
            yields: Vec::new(),
            ret_ty: JType::void(),
        };
        if !m.is_static {
            fb.this = Some(fb.add_var(
                "this",
                JType::Class(m.class.to_string()),
                VarKind::Param,
                Range::new(h.origin as usize, h.origin as usize),
            ));
        }
        fb
    }

    pub fn add_param(&mut self, name: &str, ty: JType, range: Range) {
        let v = self.add_var(name, ty.clone(), VarKind::Param, range);
        self.scopes.last_mut().unwrap().push((name.to_string(), v));
        self.record_range(range, &Place::var(v), &ty);
    }

    /// Hover on a field's declaration: in every constructor, the field of
    /// `this` (an instance field) or the static field itself.
    pub fn record_field_decl(
        &mut self,
        class: &str,
        name: &str,
        ty: &JType,
        is_static: bool,
        at: Range,
    ) {
        let place = if is_static {
            Place::global(format!("{class}.{name}").into())
        } else {
            match self.this {
                Some(t) => Place::deref(Base::Var(t)).field(name.into()),
                None => return,
            }
        };
        self.record_range(at, &place, ty);
    }

    pub fn set_ret(&mut self, ty: &JType) {
        self.ret_ty = ty.clone();
        if ty.is_ref() {
            let at = Range::new(self.h.origin as usize, self.h.origin as usize);
            self.ret_var = Some(self.add_var("ret", ty.clone(), VarKind::Return, at));
        }
    }

    /// A record's canonical constructor: each field from its parameter.
    pub fn assign_this_fields(&mut self, fields: &[(String, JType)]) {
        let Some(t) = self.this else { return };
        let at = self.fs.range;
        for (f, ty) in fields {
            if let (true, Some(v)) = (ty.is_ref(), self.lookup(f)) {
                let lhs = Place::deref(Base::Var(t)).field(f.as_str().into());
                self.emit(
                    Basic::Assign {
                        lhs,
                        rhs: Rvalue::Use(Place::var(v)),
                    },
                    at,
                );
            }
        }
    }

    /// A record's accessor: returns its field.
    pub fn accessor(&mut self, f: &str) {
        let (Some(t), Some(r)) = (self.this, self.ret_var) else {
            return;
        };
        let at = self.fs.range;
        self.emit(
            Basic::Assign {
                lhs: Place::var(r),
                rhs: Rvalue::Use(Place::deref(Base::Var(t)).field(f.into())),
            },
            at,
        );
        self.push_stmt(Stmt::Return);
    }

    /// `main(String[] args)` is called by the runtime with an array of
    /// strings: `args = new String[]; t = new String(); args[?] = t`, made at
    /// the parameter's declaration.
    pub fn model_main_args(&mut self, at: Range) {
        let Some(&(_, args)) = self.scopes[0].first() else {
            return;
        };
        let s1 = self.site(at, SiteKind::New);
        self.emit(
            Basic::Assign {
                lhs: Place::var(args),
                rhs: Rvalue::New(s1, "String[]".into()),
            },
            at,
        );
        let t = self.temp(JType::Class("String".into()), at);
        let s2 = self.site(at, SiteKind::New);
        self.emit(
            Basic::Assign {
                lhs: Place::var(t),
                rhs: Rvalue::New(s2, "String".into()),
            },
            at,
        );
        self.emit(
            Basic::Assign {
                lhs: Place::deref(Base::Var(args)).index(Index::Any),
                rhs: Rvalue::Use(Place::var(t)),
            },
            at,
        );
    }

    pub fn finish(
        mut self,
        name: &str,
        is_static: bool,
        ret: &JType,
    ) -> (Function, FunctionSource) {
        let params = self
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| v.kind == VarKind::Param)
            .map(|(i, _)| VarId(i as u32))
            .collect();
        let body = self.blocks.pop().unwrap_or_default();
        let f = Function {
            name: name.into(),
            params,
            ret: ret.ir(),
            variadic: false,
            is_static,
            vars: std::mem::take(&mut self.vars),
            ret_var: self.ret_var,
            body,
            labels: 0,
            stmt_count: self.stmt_count,
            site_count: self.site_count,
            overwrites: Vec::new(),
        };
        (f, self.fs)
    }

    // ---- helpers -------------------------------------------------------

    fn add_var(&mut self, name: &str, ty: JType, kind: VarKind, range: Range) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Var {
            name: name.into(),
            ty: ty.ir(),
            kind,
            restrict: false,
        });
        self.var_ty.push(ty);
        self.fs.vars.push(range);
        id
    }

    fn declare(&mut self, name: &str, ty: JType, range: Range) -> VarId {
        let v = self.add_var(name, ty, VarKind::Local, range);
        self.scopes.last_mut().unwrap().push((name.to_string(), v));
        v
    }

    fn temp(&mut self, ty: JType, range: Range) -> VarId {
        self.temps += 1;
        let name = format!("t{}", self.temps);
        self.add_var(&name, ty, VarKind::Temp, range)
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
    }

    fn site(&mut self, range: Range, kind: SiteKind) -> SiteId {
        let s = SiteId(self.site_count);
        self.site_count += 1;
        self.fs.sites.push(SiteInfo { range, kind });
        s
    }

    fn emit(&mut self, b: Basic, range: Range) -> StmtId {
        let id = StmtId(self.stmt_count);
        self.stmt_count += 1;
        self.fs.stmts.push(range);
        self.blocks.last_mut().unwrap().push(Stmt::Basic(id, b));
        id
    }

    fn push_stmt(&mut self, s: Stmt) {
        self.blocks.last_mut().unwrap().push(s);
    }

    fn sub_block(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.blocks.push(Vec::new());
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
        self.blocks.pop().unwrap()
    }

    pub fn note(&mut self, node: Node, msg: impl Into<String>) {
        self.notes.push(Note {
            range: range(node),
            kind: NoteKind::Unsupported,
            message: msg.into(),
        });
    }

    fn point(&self) -> Point {
        if self.stmt_count == 0 {
            Point::Before(StmtId(0))
        } else {
            Point::After(StmtId(self.stmt_count - 1))
        }
    }

    fn record(&mut self, node: Node, place: &Place, ty: &JType) {
        self.record_range(range(node), place, ty);
    }

    fn record_range(&mut self, at: Range, place: &Place, ty: &JType) {
        if ty.is_ref() && *ty != JType::Null {
            let point = self.point();
            self.fs.exprs.push(ExprInfo {
                range: at,
                place: place.clone(),
                point,
                ty: ty.ir(),
            });
        }
    }

    fn ty(&self, node: Node) -> JType {
        read_type(node, self.src, &self.type_vars)
    }

    /// Writes `ev` into `dest` (or a new temporary) unless it already is a
    /// plain variable; `None` when the value holds no object.
    fn var_of(&mut self, ev: Ev, node: Node, dest: Option<VarId>) -> Option<VarId> {
        self.var_at(ev, range(node), dest)
    }

    /// [`Self::var_of`] with the statements at `at`.
    fn var_at(&mut self, ev: Ev, at: Range, dest: Option<VarId>) -> Option<VarId> {
        match &ev.kind {
            EvK::Place(p)
                if !p.deref
                    && p.path.is_empty()
                    && matches!(p.base, Base::Var(_))
                    && dest.is_none() =>
            {
                let Base::Var(v) = p.base else { unreachable!() };
                Some(v)
            }
            EvK::Rv(Rvalue::Null | Rvalue::Scalar | Rvalue::Int(_) | Rvalue::Unknown)
                if dest.is_none() =>
            {
                None
            }
            _ => {
                let v = match dest {
                    Some(d) => d,
                    None => self.temp(ev.ty.clone(), at),
                };
                let rhs = match ev.kind {
                    EvK::Place(p) => Rvalue::Use(p),
                    EvK::Rv(r) => r,
                };
                self.emit(
                    Basic::Assign {
                        lhs: Place::var(v),
                        rhs,
                    },
                    at,
                );
                Some(v)
            }
        }
    }

    /// Objects handed to library code: into the library heap.
    fn give_to_library(&mut self, vals: impl IntoIterator<Item = Rvalue>, at: Range) {
        for v in vals {
            if let Rvalue::Use(p) = v {
                if !p.deref && p.path.is_empty() && matches!(p.base, Base::Var(_)) {
                    self.emit(
                        Basic::Assign {
                            lhs: Place::global(LIBRARY.into()),
                            rhs: Rvalue::Use(p),
                        },
                        at,
                    );
                    self.uses_library = true;
                }
            }
        }
    }

    /// A value coming back from library code: anything in the library heap.
    fn read_library(&mut self, at: Range, dest: Option<VarId>) -> Ev {
        let t = dest.unwrap_or_else(|| self.temp(JType::Unknown, at));
        self.emit(
            Basic::Assign {
                lhs: Place::var(t),
                rhs: Rvalue::Use(Place::global(LIBRARY.into())),
            },
            at,
        );
        self.uses_library = true;
        Ev::var(t, JType::Unknown)
    }

    /// An operand for a call argument or a store: a variable or a constant.
    fn operand(&mut self, ev: Ev, node: Node) -> Rvalue {
        self.operand_at(ev, range(node))
    }

    /// [`Self::operand`] with the statements at `at`.
    fn operand_at(&mut self, ev: Ev, at: Range) -> Rvalue {
        match &ev.kind {
            EvK::Rv(r @ (Rvalue::Null | Rvalue::Scalar | Rvalue::Unknown)) => r.clone(),
            // An integer passed on (an argument) is any integer: the
            // executor follows integers within a method only.
            EvK::Rv(Rvalue::Int(_)) => Rvalue::Scalar,
            _ => match self.var_at(ev, at, None) {
                Some(v) => Rvalue::Use(Place::var(v)),
                None => Rvalue::Null,
            },
        }
    }
}

/// The global that holds the interned string literal `text` (with quotes).
pub fn literal_global(text: &str) -> String {
    format!("String.{text}")
}

pub fn range(node: Node) -> Range {
    Range::new(node.start_byte(), node.end_byte())
}
