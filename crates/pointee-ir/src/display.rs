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
        let base = match &p.base {
            Base::Var(v) => self.var_name(*v),
            Base::Global(g) => g.to_string(),
        };
        path_to_string(&base, p.deref, &p.path)
    }

    pub fn rvalue_to_string(&self, r: &Rvalue) -> String {
        match r {
            Rvalue::Use(p) => self.place_to_string(p),
            Rvalue::AddrOf(p) => format!("&{}", self.place_to_string(p)),
            Rvalue::Offset(p, i) => format!("{} + {}", self.place_to_string(p), index_str(*i)),
            Rvalue::Null => "NULL".into(),
            Rvalue::Function(f) => format!("fn {f}"),
            Rvalue::String(s) => format!("string#{}", s.0),
            Rvalue::Literal(s, _) => format!("&literal#{}", s.0),
            Rvalue::New(s, c) => format!("new {c}#{}", s.0),
            Rvalue::Cast(p, c) => format!("({c}) {}", self.place_to_string(p)),
            Rvalue::Scalar => "scalar".into(),
            Rvalue::Unknown => "unknown".into(),
        }
    }

    pub fn basic_to_string(&self, b: &Basic) -> String {
        match b {
            Basic::Assign { lhs, rhs } => {
                format!("{} = {}", self.place_to_string(lhs), self.rvalue_to_string(rhs))
            }
            Basic::Call { site, lhs, callee, args } => {
                let callee = match callee {
                    Callee::Direct(n) => n.to_string(),
                    Callee::Indirect(p) => format!("(*{})", self.place_to_string(p)),
                    Callee::Virtual { receiver, signature } => {
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
        }
    }

    pub fn cond_to_string(&self, c: &Cond) -> String {
        match c {
            Cond::IsNull(p) => format!("{} == NULL", self.place_to_string(p)),
            Cond::NotNull(p) => format!("{} != NULL", self.place_to_string(p)),
            Cond::Opaque => "?".into(),
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
        format!("{stat}fn {}({}{dots}) -> {}", self.name, params.join(", "), type_to_string(&self.ret))
    }

    /// The body, one statement a line, indented by nesting. `annotate` gives
    /// each basic statement a prefix (e.g. its source line) and lines to print
    /// after it (e.g. the points-to facts there); structural lines get
    /// `prefix_width` spaces so that columns line up.
    pub fn render_body(
        &self,
        prefix_width: usize,
        annotate: &mut dyn FnMut(StmtId) -> (String, Vec<String>),
    ) -> String {
        let mut out = String::new();
        let mut locals: Vec<String> = Vec::new();
        for v in &self.vars {
            if v.kind != VarKind::Param {
                locals.push(format!("{}: {}", v.name, type_to_string(&v.ty)));
            }
        }
        if !locals.is_empty() {
            let _ = writeln!(out, "  vars {}", locals.join(", "));
        }
        let blank = " ".repeat(prefix_width);
        self.render_block(&self.body, 1, &blank, annotate, &mut out);
        out
    }

    fn render_block(
        &self,
        block: &[Stmt],
        depth: usize,
        blank: &str,
        annotate: &mut dyn FnMut(StmtId) -> (String, Vec<String>),
        out: &mut String,
    ) {
        let pad = "  ".repeat(depth);
        for s in block {
            match s {
                Stmt::Basic(id, b) => {
                    let (prefix, after) = annotate(*id);
                    let _ = writeln!(out, "{prefix}{pad}{}", self.basic_to_string(b));
                    for line in after {
                        let _ = writeln!(out, "{pad}    {line}");
                    }
                }
                Stmt::If { cond, then_branch, else_branch } => {
                    let _ = writeln!(out, "{blank}{pad}if ({}) {{", self.cond_to_string(cond));
                    self.render_block(then_branch, depth + 1, blank, annotate, out);
                    if !else_branch.is_empty() {
                        let _ = writeln!(out, "{blank}{pad}}} else {{");
                        self.render_block(else_branch, depth + 1, blank, annotate, out);
                    }
                    let _ = writeln!(out, "{blank}{pad}}}");
                }
                Stmt::Loop { body } => {
                    let _ = writeln!(out, "{blank}{pad}loop {{");
                    self.render_block(body, depth + 1, blank, annotate, out);
                    let _ = writeln!(out, "{blank}{pad}}}");
                }
                Stmt::Switch { arms, has_default } => {
                    let d = if *has_default { " with default" } else { "" };
                    let _ = writeln!(out, "{blank}{pad}switch{d} {{");
                    for (i, arm) in arms.iter().enumerate() {
                        let _ = writeln!(out, "{blank}{pad}arm {i}:");
                        self.render_block(arm, depth + 1, blank, annotate, out);
                    }
                    let _ = writeln!(out, "{blank}{pad}}}");
                }
                Stmt::Break => {
                    let _ = writeln!(out, "{blank}{pad}break");
                }
                Stmt::Continue => {
                    let _ = writeln!(out, "{blank}{pad}continue");
                }
                Stmt::Return => {
                    let _ = writeln!(out, "{blank}{pad}return");
                }
                Stmt::Label(l) => {
                    let _ = writeln!(out, "{blank}{pad}label L{}:", l.0);
                }
                Stmt::Goto(l) => {
                    let _ = writeln!(out, "{blank}{pad}goto L{}", l.0);
                }
            }
        }
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
        Type::Scalar => "int".into(),
        Type::Pointer(t) => format!("{}*", type_to_string(t)),
        Type::Array(t, Some(n)) => format!("{}[{n}]", type_to_string(t)),
        Type::Array(t, None) => format!("{}[]", type_to_string(t)),
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
