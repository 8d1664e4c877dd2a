//! Text form of the IR, for `pointee dump` and for fixture expectations.
//! Places print in C syntax (`(*p).f`, `a[+]` for the tail), temporaries as
//! `t1`, `t2`, ...

use crate::{
    Base, Basic, Callee, Cond, Function, Index, Place, Rvalue, Sel, Stmt, StmtId, Type, VarKind,
};
use std::fmt::Write;

impl Function {
    pub fn var_name(&self, id: crate::VarId) -> String {
        let v = self.var(id);
        v.name.to_string()
    }

    pub fn place_to_string(&self, p: &Place) -> String {
        place_str(p, &|v| self.var_name(v))
    }

    pub fn rvalue_to_string(&self, r: &Rvalue) -> String {
        rvalue_str(r, &|v| self.var_name(v))
    }

    pub fn basic_to_string(&self, b: &Basic) -> String {
        match b {
            Basic::Assign { lhs, rhs } => {
                format!(
                    "{} = {}",
                    self.place_to_string(lhs),
                    self.rvalue_to_string(rhs)
                )
            }
            Basic::Call {
                site,
                lhs,
                callee,
                args,
            } => {
                let callee = match callee {
                    Callee::Direct(n) => n.to_string(),
                    Callee::Indirect(p) => format!("(*{})", self.place_to_string(p)),
                    Callee::Virtual {
                        receiver,
                        signature,
                    } => {
                        format!("{}.<virtual {signature}>", self.place_to_string(receiver))
                    }
                };
                let args: Vec<String> = args.iter().map(|a| self.rvalue_to_string(a)).collect();
                let call = format!("call#{} {callee}({})", site.0, args.join(", "));
                match lhs {
                    Some(l) => format!("{} = {call}", self.place_to_string(l)),
                    None => call,
                }
            }
            Basic::Use(p) => format!("use {}", self.place_to_string(p)),
        }
    }

    pub fn cond_to_string(&self, c: &Cond) -> String {
        match c {
            Cond::IsNull(p) => format!("{} == NULL", self.place_to_string(p)),
            Cond::NotNull(p) => format!("{} != NULL", self.place_to_string(p)),
            Cond::Opaque => "?".into(),
            Cond::And(a, b) => {
                format!("({} && {})", self.cond_to_string(a), self.cond_to_string(b))
            }
            Cond::Or(a, b) => format!("({} || {})", self.cond_to_string(a), self.cond_to_string(b)),
            Cond::Compare(a, op, b) => {
                let var = |v: crate::VarId| self.var_name(v);
                format!(
                    "{} {} {}",
                    operand_str(a, &var),
                    op.token(),
                    operand_str(b, &var)
                )
            }
        }
    }

    /// The signature line: `fn f(p: int*, n: int) -> int*`.
    pub fn header_to_string(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|&p| {
                let v = self.var(p);
                let restrict = if v.restrict { " restrict" } else { "" };
                format!("{}: {}{restrict}", v.name, type_to_string(&v.ty))
            })
            .collect();
        let dots = if self.variadic { ", ..." } else { "" };
        let stat = if self.is_static { "static " } else { "" };
        format!(
            "{stat}fn {}({}{dots}) -> {}",
            self.name,
            params.join(", "),
            type_to_string(&self.ret)
        )
    }

    /// Declared locals and temporaries: `x: int*, t1: int*`.
    pub fn locals_to_string(&self) -> String {
        let locals: Vec<String> = self
            .vars
            .iter()
            .filter(|v| v.kind != VarKind::Param)
            .map(|v| format!("{}: {}", v.name, type_to_string(&v.ty)))
            .collect();
        locals.join(", ")
    }

    /// The body, one line per statement or control keyword, with its nesting
    /// depth and, for basic statements, its id (so callers can add source
    /// lines and facts).
    pub fn body_lines(&self) -> Vec<BodyLine> {
        let mut out = Vec::new();
        self.block_lines(&self.body, 0, &mut out);
        out
    }

    /// The body as indented text, without annotations.
    pub fn body_to_string(&self) -> String {
        let mut s = String::new();
        for l in self.body_lines() {
            let _ = writeln!(s, "{}{}", "  ".repeat(l.depth + 1), l.text);
        }
        s
    }

    fn block_lines(&self, block: &[Stmt], depth: usize, out: &mut Vec<BodyLine>) {
        let push = |out: &mut Vec<BodyLine>, text: String| {
            out.push(BodyLine {
                depth,
                stmt: None,
                text,
            })
        };
        for s in block {
            match s {
                Stmt::Basic(id, b) => out.push(BodyLine {
                    depth,
                    stmt: Some(*id),
                    text: self.basic_to_string(b),
                }),
                Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                } => {
                    push(out, format!("if ({}) {{", self.cond_to_string(cond)));
                    self.block_lines(then_branch, depth + 1, out);
                    if !else_branch.is_empty() {
                        push(out, "} else {".into());
                        self.block_lines(else_branch, depth + 1, out);
                    }
                    push(out, "}".into());
                }
                Stmt::Loop { body } => {
                    push(out, "loop {".into());
                    self.block_lines(body, depth + 1, out);
                    push(out, "}".into());
                }
                Stmt::Switch { arms, has_default } => {
                    let d = if *has_default { " with default" } else { "" };
                    push(out, format!("switch{d} {{"));
                    for (i, arm) in arms.iter().enumerate() {
                        push(out, format!("arm {i}:"));
                        self.block_lines(arm, depth + 1, out);
                    }
                    push(out, "}".into());
                }
                Stmt::Break => push(out, "break".into()),
                Stmt::Continue => push(out, "continue".into()),
                Stmt::Return => push(out, "return".into()),
                Stmt::Label(l) => push(out, format!("label L{}:", l.0)),
                Stmt::Goto(l) => push(out, format!("goto L{}", l.0)),
            }
        }
    }
}

/// One line of a rendered body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BodyLine {
    pub depth: usize,
    /// The basic statement on this line; `None` for control keywords.
    pub stmt: Option<StmtId>,
    pub text: String,
}

fn place_str(p: &Place, var: &dyn Fn(crate::VarId) -> String) -> String {
    let base = match &p.base {
        Base::Var(v) => var(*v),
        Base::Global(g) => g.to_string(),
    };
    path_to_string(&base, p.deref, &p.path)
}

fn rvalue_str(r: &Rvalue, var: &dyn Fn(crate::VarId) -> String) -> String {
    match r {
        Rvalue::Use(p) => place_str(p, var),
        Rvalue::AddrOf(p) => format!("&{}", place_str(p, var)),
        Rvalue::Offset(p, i, _) => format!("{} + {}", place_str(p, var), index_str(*i)),
        Rvalue::Null => "NULL".into(),
        Rvalue::Function(f) => format!("fn {f}"),
        Rvalue::String(s) => format!("string#{}", s.0),
        Rvalue::Literal(s, _) => format!("&literal#{}", s.0),
        Rvalue::New(s, c) => format!("new {c}#{}", s.0),
        Rvalue::Cast(p, c) => format!("({c}) {}", place_str(p, var)),
        Rvalue::Scalar => "scalar".into(),
        Rvalue::Int(e) => format!("int {}", int_expr_str(e, var)),
        Rvalue::Unknown => "unknown".into(),
    }
}

fn operand_str(o: &crate::Operand, var: &dyn Fn(crate::VarId) -> String) -> String {
    match o {
        crate::Operand::Place(p) => place_str(p, var),
        crate::Operand::Int(k) => k.to_string(),
    }
}

fn int_expr_str(e: &crate::IntExpr, var: &dyn Fn(crate::VarId) -> String) -> String {
    match e {
        crate::IntExpr::Operand(o) => operand_str(o, var),
        crate::IntExpr::Bin(a, op, b) => format!(
            "({} {} {})",
            int_expr_str(a, var),
            op.token(),
            int_expr_str(b, var)
        ),
    }
}

impl crate::Global {
    /// `g: scalar*[3] = { [0]: &x, [+]: &y | NULL }`; leaves not listed
    /// start as NULL.
    pub fn to_display_string(&self) -> String {
        // Declared only: defined by no unit (the C library's, or outside).
        let declared = matches!(
            self.kind,
            crate::GlobalKind::Variable {
                definition: crate::Definition::Extern,
                ..
            }
        );
        let head = format!(
            "{}{}: {}",
            if declared { "extern " } else { "" },
            self.name,
            type_to_string(&self.ty)
        );
        if self.init.is_empty() {
            return head;
        }
        let no_vars = |_: crate::VarId| "?".to_string();
        let inits: Vec<String> = self
            .init
            .iter()
            .map(|i| {
                let vals: Vec<String> = i.values.iter().map(|v| rvalue_str(v, &no_vars)).collect();
                let path = path_to_string("", false, &i.path);
                let path = path.strip_prefix('.').unwrap_or(&path);
                if path.is_empty() {
                    vals.join(" | ")
                } else {
                    format!("{path}: {}", vals.join(" | "))
                }
            })
            .collect();
        format!("{head} = {{ {} }}", inits.join(", "))
    }
}

pub(crate) fn index_str(i: Index) -> &'static str {
    match i {
        Index::Zero => "0",
        Index::Positive => "+",
        Index::Any => "?",
    }
}

/// `base`, `*base`, `base.f[0]`, `(*base).f`.
pub fn path_to_string(base: &str, deref: bool, path: &[Sel]) -> String {
    let mut s = if deref {
        if path.is_empty() {
            format!("*{base}")
        } else {
            format!("(*{base})")
        }
    } else {
        base.to_string()
    };
    for sel in path {
        match sel {
            Sel::Field(f) => {
                s.push('.');
                s.push_str(f);
            }
            Sel::Index(i) => {
                s.push('[');
                s.push_str(index_str(*i));
                s.push(']');
            }
        }
    }
    s
}

pub fn type_to_string(t: &Type) -> String {
    match t {
        Type::Void => "void".into(),
        Type::Scalar => "scalar".into(),
        Type::Pointer(t) => format!("{}*", type_to_string(t)),
        Type::Array(..) => {
            // `int *m[3][4]` prints as `scalar*[3][4]`: outer dimension first.
            let mut dims = String::new();
            let mut t = t;
            while let Type::Array(elem, len) = t {
                match len {
                    Some(n) => dims.push_str(&format!("[{n}]")),
                    None => dims.push_str("[]"),
                }
                t = elem;
            }
            format!("{}{dims}", type_to_string(t))
        }
        Type::Record(n) => n.to_string(),
        Type::Function(f) => {
            let ps: Vec<String> = f.params.iter().map(type_to_string).collect();
            let dots = if f.variadic { ", ..." } else { "" };
            format!("{}({}{dots})", type_to_string(&f.ret), ps.join(", "))
        }
        Type::Class(c) => c.to_string(),
        Type::Unknown => "?".into(),
    }
}
