//! pointee-ir: the language-neutral pointer IR that every front end lowers to
//! and every analysis reads.
//!
//! A program is a set of named globals, named functions, record (struct/union)
//! layouts and, for the Java subset, classes. A function body is structured
//! control (sequence, if, loop, switch, break, continue, return, labels and
//! gotos) over SIMPLE-style basic statements: each side of an assignment has at
//! most one level of indirection (EGH'94, section 2).
//!
//! The comparable content of the IR never mentions source positions: ids are
//! local to their function, globals and functions are named, allocation sites
//! are (owner, ordinal). Byte ranges live in a separate [`SourceMap`], so code
//! that moves without changing keeps an equal IR.
//!
//! This crate must never parse, do I/O, or know about LSP, JSON or any analysis.

mod display;
pub mod fxhash;
mod source;
mod text;
mod types;
mod verdict;

pub use display::{path_to_string, type_to_string, BodyLine};
pub use source::{
    CallInfo, ExprInfo, FunctionSource, GlobalSource, MacroExpansion, Note, NoteKind, Point, Range,
    SiteInfo, SiteKind, SourceMap,
};
pub use text::LineIndex;
pub use types::{
    pointer_paths, pointer_paths_in, Field, FnType, Record, RecordKind, Type, TypeTable,
};
pub use verdict::Verdict;

use std::sync::Arc;

/// A name of a global, function, field, record or class. Cheap to clone;
/// compared by content.
pub type Name = Arc<str>;

/// Index of a variable in [`Function::vars`]; local to its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a basic statement inside its function, in pre-order of the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StmtId(pub u32);

/// Ordinal of a site (call, allocation, string literal) inside its owner
/// (a function, or a global's initializer). `(owner, SiteId)` names a heap
/// object or string literal without mentioning line numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SiteId(pub u32);

/// Index of a label inside its function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LabelId(pub u32);

/// A whole program: what one analysis run sees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    pub types: TypeTable,
    pub globals: Vec<Global>,
    /// Shared, so that a program linked again after an edit copies only
    /// the functions that changed.
    pub functions: Vec<std::sync::Arc<Function>>,
    /// Functions declared (prototypes, K&R or implicit) but not defined.
    pub externs: Vec<Extern>,
    /// Java-like classes; empty for C.
    pub classes: Vec<Class>,
}

impl Program {
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions
            .iter()
            .find(|f| &*f.name == name)
            .map(|f| &**f)
    }
    pub fn global(&self, name: &str) -> Option<&Global> {
        self.globals.iter().find(|g| &*g.name == name)
    }
}

/// A function (or Java method) with a body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Function {
    pub name: Name,
    /// Parameters in order; they are the first variables of `vars`. For a Java
    /// instance method the first parameter is `this`.
    pub params: Vec<VarId>,
    pub ret: Type,
    pub variadic: bool,
    /// `static` in C (internal linkage); a static method in Java.
    pub is_static: bool,
    pub vars: Vec<Var>,
    /// The variable that holds the returned value (`return e` lowers to
    /// `ret = e; return`), when the function returns a value.
    pub ret_var: Option<VarId>,
    pub body: Block,
    /// Number of labels used by `Label`/`Goto` in the body.
    pub labels: u32,
    /// Number of basic statements (ids are `0..stmt_count`).
    pub stmt_count: u32,
    /// Number of sites (ids are `0..site_count`).
    pub site_count: u32,
    /// Assignments after which nothing their left place held before is
    /// read, sorted: the first write of each location of a local's
    /// initialiser (the initialiser, with C's zero fill, writes every
    /// element an array tail stands for). The engine may replace what such
    /// a location held (`uninit`) instead of adding to it.
    pub overwrites: Vec<StmtId>,
}

impl Function {
    pub fn var(&self, id: VarId) -> &Var {
        &self.vars[id.0 as usize]
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Var {
    pub name: Name,
    pub ty: Type,
    pub kind: VarKind,
    /// A `restrict`-qualified pointer parameter.
    pub restrict: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    Param,
    Local,
    /// A temporary made by lowering (SIMPLE's `t1`, `t2`, ...).
    Temp,
    /// The slot that holds the returned value.
    Return,
}

/// A function that is declared but has no body in the program.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Extern {
    pub name: Name,
    pub ty: FnType,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Global {
    pub name: Name,
    pub ty: Type,
    pub kind: GlobalKind,
    /// The initial value of every pointer-bearing leaf that is initialised;
    /// leaves not listed start as the null constant (C zero-initialises
    /// globals). A leaf under an array tail may list several values.
    pub init: Vec<GlobalInit>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GlobalKind {
    /// An external (or `static`) C global, and how the file (or, once
    /// linked, the program) defines it.
    Variable {
        is_static: bool,
        definition: Definition,
    },
    /// A `static` local of the named function; the global's name is
    /// `function::local`.
    StaticLocal { function: Name, local: Name },
    /// A Java static field; the global's name is `Class.field`.
    StaticField,
}

/// How a C global is defined (C11 6.9.2), in the order linking prefers
/// them: of a name's declarations across units, the greatest one holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Definition {
    /// Only declared (`extern T x;`, or a library global the front end
    /// knows by name). Once linked: defined by no unit, so its value is
    /// the C library's (stdin, errno, ...) or unknown.
    Extern,
    /// `T x;` at file scope: a tentative definition; units that all define
    /// the name so share one object (as gcc's `-fcommon`).
    Tentative,
    /// Defined with an initialiser.
    Initialised,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GlobalInit {
    pub path: Vec<Sel>,
    pub values: Vec<Rvalue>,
}

/// A Java-like class or interface.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Class {
    pub name: Name,
    pub superclass: Option<Name>,
    pub interfaces: Vec<Name>,
    pub is_interface: bool,
    pub is_abstract: bool,
    pub fields: Vec<Field>,
    /// Methods declared in this class: dispatch signature -> function name.
    pub methods: Vec<Method>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Method {
    /// What dispatch matches on, e.g. `put(Object,Object)`.
    pub signature: Name,
    /// The [`Function`] that implements it, e.g. `Map.put(Object,Object)`;
    /// `None` for an abstract or interface method.
    pub function: Option<Name>,
    pub is_static: bool,
}

/// A sequence of statements.
pub type Block = Vec<Stmt>;

/// Structured control over basic statements.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    Basic(StmtId, Basic),
    If {
        cond: Cond,
        then_branch: Block,
        else_branch: Block,
    },
    /// Runs `body` until a `Break`; `while`, `for` and `do` all lower to it
    /// (the exit test is an `If` with a `Break` inside the body).
    Loop {
        body: Block,
    },
    /// A C `switch`: control enters the arm of the matching case and falls
    /// through the following arms until a `Break`. Without a default arm the
    /// switch may also be skipped.
    Switch {
        arms: Block2,
        has_default: bool,
    },
    /// Leaves the innermost enclosing `Loop` or `Switch`.
    Break,
    /// Goes back to the start of the innermost enclosing `Loop`.
    Continue,
    /// Return from the function (the value, if any, was written to
    /// [`Function::ret_var`] just before).
    Return,
    /// A goto target: its input merges the fall-through and every `Goto` to it.
    Label(LabelId),
    Goto(LabelId),
}

/// Arms of a switch, in source order.
pub type Block2 = Vec<Block>;

/// Calls `f` with every basic statement of `block`, nested ones included,
/// in source order (the one walk the crates above share).
pub fn for_each_basic<'a>(block: &'a [Stmt], f: &mut impl FnMut(StmtId, &'a Basic)) {
    for s in block {
        match s {
            Stmt::Basic(id, b) => f(*id, b),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                for_each_basic(then_branch, f);
                for_each_basic(else_branch, f);
            }
            Stmt::Loop { body } => for_each_basic(body, f),
            Stmt::Switch { arms, .. } => arms.iter().for_each(|a| for_each_basic(a, f)),
            Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Label(_) | Stmt::Goto(_) => {}
        }
    }
}

/// A branch condition, kept only as far as it tells something about pointers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    /// The value of the place is the null constant (`p == NULL`, `!p`).
    IsNull(Place),
    /// The value of the place is not the null constant (`p != NULL`, `p`).
    NotNull(Place),
    /// Anything else; the analysis takes both branches.
    Opaque,
    /// `a && b`: `b` is tested only where `a` holds. The front end lowers
    /// `b`'s effects under `a` just before the branch, and keeps `a` here
    /// only when those effects cannot change what `a` tested.
    And(Box<Cond>, Box<Cond>),
    /// `a || b`: `b` is tested only where `a` does not hold.
    Or(Box<Cond>, Box<Cond>),
    /// An integer comparison (`x->key < k`, `n == 3`). The pointer
    /// analysis treats it as `Opaque`; the witness executor decides it.
    Compare(Operand, CmpOp, Operand),
}

/// An integer comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// The operator that holds where `self` does not (`<` and `>=`).
    pub fn negate(self) -> CmpOp {
        match self {
            CmpOp::Eq => CmpOp::Ne,
            CmpOp::Ne => CmpOp::Eq,
            CmpOp::Lt => CmpOp::Ge,
            CmpOp::Le => CmpOp::Gt,
            CmpOp::Gt => CmpOp::Le,
            CmpOp::Ge => CmpOp::Lt,
        }
    }

    /// The operator of the C or Java token (`<=`), if it compares.
    pub fn from_token(op: &str) -> Option<CmpOp> {
        Some(match op {
            "==" => CmpOp::Eq,
            "!=" => CmpOp::Ne,
            "<" => CmpOp::Lt,
            "<=" => CmpOp::Le,
            ">" => CmpOp::Gt,
            ">=" => CmpOp::Ge,
            _ => return None,
        })
    }

    pub fn token(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

/// An integer operand: the value stored in a place, or a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Place(Place),
    Int(i64),
}

impl Operand {
    pub fn place(&self) -> Option<&Place> {
        match self {
            Operand::Place(p) => Some(p),
            Operand::Int(_) => None,
        }
    }
    pub fn place_mut(&mut self) -> Option<&mut Place> {
        match self {
            Operand::Place(p) => Some(p),
            Operand::Int(_) => None,
        }
    }
}

/// An integer arithmetic operator (C's and Java's, truncating division).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl IntOp {
    pub fn from_token(op: &str) -> Option<IntOp> {
        Some(match op {
            "+" => IntOp::Add,
            "-" => IntOp::Sub,
            "*" => IntOp::Mul,
            "/" => IntOp::Div,
            "%" => IntOp::Rem,
            _ => return None,
        })
    }

    pub fn token(self) -> &'static str {
        match self {
            IntOp::Add => "+",
            IntOp::Sub => "-",
            IntOp::Mul => "*",
            IntOp::Div => "/",
            IntOp::Rem => "%",
        }
    }
}

/// A small integer expression (the value of an integer assignment), so
/// that the witness executor can follow counters and sums.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum IntExpr {
    Operand(Operand),
    Bin(Box<IntExpr>, IntOp, Box<IntExpr>),
}

impl IntExpr {
    /// The places the expression reads.
    pub fn places_mut(&mut self) -> Vec<&mut Place> {
        match self {
            IntExpr::Operand(o) => o.place_mut().into_iter().collect(),
            IntExpr::Bin(a, _, b) => {
                let mut v = a.places_mut();
                v.extend(b.places_mut());
                v
            }
        }
    }
}

impl Cond {
    /// The condition that holds where `self` does not (De Morgan on
    /// `&&`/`||`).
    pub fn negate(self) -> Cond {
        match self {
            Cond::IsNull(p) => Cond::NotNull(p),
            Cond::NotNull(p) => Cond::IsNull(p),
            Cond::Opaque => Cond::Opaque,
            Cond::And(a, b) => Cond::Or(Box::new(a.negate()), Box::new(b.negate())),
            Cond::Or(a, b) => Cond::And(Box::new(a.negate()), Box::new(b.negate())),
            Cond::Compare(a, op, b) => Cond::Compare(a, op.negate(), b),
        }
    }

    /// `a && b`, or the simpler equivalent when one side tells nothing.
    pub fn and(a: Cond, b: Cond) -> Cond {
        match (a, b) {
            (Cond::Opaque, Cond::Opaque) => Cond::Opaque,
            (a, b) => Cond::And(Box::new(a), Box::new(b)),
        }
    }

    /// `a || b`, or `Opaque` when neither side tells anything.
    pub fn or(a: Cond, b: Cond) -> Cond {
        match (a, b) {
            (Cond::Opaque, Cond::Opaque) => Cond::Opaque,
            (a, b) => Cond::Or(Box::new(a), Box::new(b)),
        }
    }

    /// True when some part of the condition tests a pointer against NULL
    /// (the only tests the pointer engine refines on).
    pub fn tests_pointer(&self) -> bool {
        match self {
            Cond::IsNull(_) | Cond::NotNull(_) => true,
            Cond::Opaque | Cond::Compare(..) => false,
            Cond::And(a, b) | Cond::Or(a, b) => a.tests_pointer() || b.tests_pointer(),
        }
    }

    /// The places the condition tests.
    pub fn places_mut(&mut self) -> Vec<&mut Place> {
        match self {
            Cond::IsNull(p) | Cond::NotNull(p) => vec![p],
            Cond::Opaque => Vec::new(),
            Cond::Compare(a, _, b) => [a, b].into_iter().filter_map(Operand::place_mut).collect(),
            Cond::And(a, b) | Cond::Or(a, b) => {
                let mut v = a.places_mut();
                v.extend(b.places_mut());
                v
            }
        }
    }

    /// The places the condition tests.
    pub fn places(&self) -> Vec<&Place> {
        match self {
            Cond::IsNull(p) | Cond::NotNull(p) => vec![p],
            Cond::Opaque => Vec::new(),
            Cond::Compare(a, _, b) => [a, b].into_iter().filter_map(Operand::place).collect(),
            Cond::And(a, b) | Cond::Or(a, b) => {
                let mut v = a.places();
                v.extend(b.places());
                v
            }
        }
    }
}

/// A basic statement: at most one level of indirection on each side.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Basic {
    /// `lhs = rhs` for a pointer-bearing or scalar value. Aggregates are
    /// copied leaf by leaf by the front end.
    Assign { lhs: Place, rhs: Rvalue },
    /// A call. The site names heap objects made by allocation functions.
    Call {
        site: SiteId,
        lhs: Option<Place>,
        callee: Callee,
        args: Vec<Rvalue>,
    },
    /// The place is read for a purpose that moves no pointer (a branch
    /// condition, an integer load through a pointer, an expression statement).
    /// No effect on points-to facts; it gives the read a program point and
    /// lets checkers see the dereference.
    Use(Place),
}

/// An lvalue: a variable or global, optionally dereferenced once, then a path
/// of field and element selectors. `x`, `x.f`, `a[i]`, `*p`, `(*p).f`,
/// `(*p)[i]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub base: Base,
    pub deref: bool,
    pub path: Vec<Sel>,
}

impl Place {
    pub fn var(id: VarId) -> Place {
        Place {
            base: Base::Var(id),
            deref: false,
            path: Vec::new(),
        }
    }
    pub fn global(name: Name) -> Place {
        Place {
            base: Base::Global(name),
            deref: false,
            path: Vec::new(),
        }
    }
    pub fn deref(base: Base) -> Place {
        Place {
            base,
            deref: true,
            path: Vec::new(),
        }
    }
    pub fn field(mut self, name: Name) -> Place {
        self.path.push(Sel::Field(name));
        self
    }
    pub fn index(mut self, index: Index) -> Place {
        self.path.push(Sel::Index(index));
        self
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Base {
    Var(VarId),
    Global(Name),
}

/// A selector in a place's path.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sel {
    Field(Name),
    /// An array element: `Zero` is the head location, `Positive` the tail, and
    /// `Any` either (Table 1 of EGH'94). Java arrays use `Any` for their one
    /// collapsed element.
    Index(Index),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Index {
    Zero,
    Positive,
    Any,
}

/// The right-hand side of an assignment or an argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Rvalue {
    /// The value stored in the place.
    Use(Place),
    /// The address of the place (`&x`, `&a[0]`, `&(*p).f`; an array name used
    /// as a value is `&a[0]`).
    AddrOf(Place),
    /// Pointer arithmetic on the place's value: the result points into the
    /// same object, moved by an offset of the given kind, in steps of the
    /// given element type (the pointee of the arithmetic's pointer type,
    /// after any cast: `(char *)s + 1` steps by bytes whatever `s` is
    /// declared as; `Type::Unknown` when the front end does not know it).
    Offset(Place, Index, Type),
    /// The null constant (`NULL`, `0` in pointer context, Java `null`).
    Null,
    /// A function designator used as a value.
    Function(Name),
    /// A string literal, one abstract object per site.
    String(SiteId),
    /// A C99 compound literal: the address of an anonymous object made at this
    /// site (its content is written by the statements that follow).
    Literal(SiteId, Type),
    /// A Java `new T(...)` (the constructor call follows as its own statement).
    New(SiteId, Name),
    /// A Java cast: passes every object, and records whether it may fail.
    Cast(Place, Name),
    /// A value that holds no pointer (integer arithmetic, a comparison, ...).
    Scalar,
    /// An integer value the front end could express (`n + 1`, `x->key`, 3);
    /// moves no pointer (as `Scalar` for the pointer analysis).
    Int(IntExpr),
    /// A value the front end cannot model; it may point anywhere.
    Unknown,
}

/// What a call calls.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A named function: a C direct call, a Java static, constructor or
    /// `super` call (already resolved).
    Direct(Name),
    /// Through a function pointer: the value of the place (`fp(x)`,
    /// `(*fp)(x)`, `s->ops->open(x)` after lowering).
    Indirect(Place),
    /// Java virtual or interface dispatch on the receiver's class; the
    /// receiver is also the first argument.
    Virtual { receiver: Place, signature: Name },
}
