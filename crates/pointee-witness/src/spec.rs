//! Preconditions in the seed's fragment of separation logic, written in
//! `//@` annotations: inductive predicates and a function's `requires`.
//!
//! ```text
//! pred NAME(p, q) := DISJUNCT | DISJUNCT ...
//! requires DISJUNCT | DISJUNCT ...
//! DISJUNCT := ATOM (* ATOM | && ATOM)*
//! ATOM     := emp | x == NULL | x != NULL | x == y | x != y
//!           | x -> {field: v, ...}        (x points to an object whose
//!                                          fields not named are free)
//!           | NAME(v, ...)                (a predicate instance)
//!           | e < e | e <= e | e > e | e >= e | e == e | e != e
//!                                         (integers: `e` is a sum or
//!                                          difference of integer
//!                                          constants and variables)
//! ```
//!
//! An integer variable is a parameter of integer type or a variable a
//! points-to atom gives an integer field (`x -> {val: v} * v < 5`);
//! `x == y` compares integers when either side is one.
//!
//! Variables of a disjunct that are not parameters are existential; `_`
//! is a fresh one. `*` separates: the objects of two points-to atoms are
//! distinct. Built-in predicates (`list`, `dll`, `tree`) are defined in
//! the same language ([`BUILTINS`]); a user's predicate of the same name
//! replaces one.
//!
//! The caller hands the annotations' text; this module reads no file and
//! never sees the C source.

use pointee_ir::{CmpOp, IntOp};

/// A term of a pure or points-to atom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Var(String),
    Null,
    /// `_`: a fresh existential.
    Wild,
    /// An integer constant.
    Int(i64),
}

/// An integer term of an arithmetic atom: `v`, `3`, `v + w - 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arith {
    Term(Term),
    Bin(Box<Arith>, pointee_ir::IntOp, Box<Arith>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    Emp,
    Eq(Term, Term),
    Ne(Term, Term),
    PointsTo(String, Vec<(String, Term)>),
    Pred(String, Vec<Term>),
    /// An integer comparison.
    Cmp(Arith, pointee_ir::CmpOp, Arith),
}

/// A disjunction of conjunctions of atoms.
pub type Formula = Vec<Vec<Atom>>;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredDef {
    pub name: String,
    pub params: Vec<String>,
    pub body: Formula,
}

/// The predicates and the precondition of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spec {
    pub preds: Vec<PredDef>,
    pub requires: Option<Formula>,
}

impl Spec {
    pub fn pred(&self, name: &str) -> Option<&PredDef> {
        self.preds.iter().find(|p| p.name == name)
    }
}

/// The built-in predicates: an acyclic singly linked list by `next`, a
/// doubly linked list by `next` and `prev` (`p` is the node before `x`),
/// a binary tree by `left` and `right`.
pub const BUILTINS: &str = "
pred list(x) := x == NULL | x -> {next: n} * list(n)
pred dll(x, p) := x == NULL | x -> {next: n, prev: p} * dll(n, x)
pred tree(t) := t == NULL | t -> {left: l, right: r} * tree(l) * tree(r)
";

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Sym(&'static str),
}

fn tokens(text: &str) -> Result<Vec<Tok>, String> {
    const SYMS: &[&str] = &[
        ":=", "==", "!=", "->", "&&", "<=", ">=", "<", ">", "+", "-", "(", ")", ",", "|", "*", "{",
        "}", ":", ";",
    ];
    let mut out = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    'next: while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c.is_ascii_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && ((b[i] as char).is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(Tok::Ident(text[start..i].to_string()));
            continue;
        }
        for s in SYMS {
            if text[i..].starts_with(s) {
                if *s != ";" {
                    out.push(Tok::Sym(s));
                }
                i += s.len();
                continue 'next;
            }
        }
        return Err(format!("unexpected `{c}` in an annotation"));
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }
    fn is_keyword(&self) -> bool {
        matches!(self.peek(), Some(Tok::Ident(k)) if k == "pred" || k == "requires")
    }
    fn eat(&mut self, s: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Sym(t)) if *t == s) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, s: &str) -> Result<(), String> {
        if self.eat(s) {
            Ok(())
        } else {
            Err(format!(
                "expected `{s}` in an annotation, found {}",
                self.here()
            ))
        }
    }
    fn here(&self) -> String {
        match self.peek() {
            Some(Tok::Ident(i)) => format!("`{i}`"),
            Some(Tok::Sym(s)) => format!("`{s}`"),
            None => "the end".into(),
        }
    }
    fn ident(&mut self) -> Result<String, String> {
        match self.peek() {
            Some(Tok::Ident(i)) => {
                let i = i.clone();
                self.at += 1;
                Ok(i)
            }
            _ => Err(format!(
                "expected a name in an annotation, found {}",
                self.here()
            )),
        }
    }
    fn term(&mut self) -> Result<Term, String> {
        let i = self.ident()?;
        Ok(match i.as_str() {
            "NULL" | "null" | "nil" => Term::Null,
            "_" => Term::Wild,
            _ if i.chars().next().is_some_and(|c| c.is_ascii_digit()) => match i.parse() {
                Ok(k) => Term::Int(k),
                Err(_) => return Err(format!("`{i}` is not an integer in an annotation")),
            },
            _ => Term::Var(i),
        })
    }
    fn atom(&mut self) -> Result<Atom, String> {
        let name = self.ident()?;
        if name == "emp" {
            return Ok(Atom::Emp);
        }
        if self.eat("(") {
            let mut args = Vec::new();
            if !self.eat(")") {
                loop {
                    args.push(self.term()?);
                    if self.eat(")") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            return Ok(Atom::Pred(name, args));
        }
        self.at -= 1;
        let left = self.arith()?;
        for (tok, op) in [
            ("==", CmpOp::Eq),
            ("!=", CmpOp::Ne),
            ("<=", CmpOp::Le),
            (">=", CmpOp::Ge),
            ("<", CmpOp::Lt),
            (">", CmpOp::Gt),
        ] {
            if self.eat(tok) {
                let right = self.arith()?;
                return Ok(match (left, op, right) {
                    (Arith::Term(a), CmpOp::Eq, Arith::Term(b)) => Atom::Eq(a, b),
                    (Arith::Term(a), CmpOp::Ne, Arith::Term(b)) => Atom::Ne(a, b),
                    (a, op, b) => Atom::Cmp(a, op, b),
                });
            }
        }
        let Arith::Term(left) = left else {
            return Err(format!(
                "expected a comparison in an annotation, found {}",
                self.here()
            ));
        };
        if self.eat("->") {
            let Term::Var(x) = left else {
                return Err("only a variable points to an object".into());
            };
            self.expect("{")?;
            let mut fields = Vec::new();
            if !self.eat("}") {
                loop {
                    let f = self.ident()?;
                    self.expect(":")?;
                    fields.push((f, self.term()?));
                    if self.eat("}") {
                        break;
                    }
                    self.expect(",")?;
                }
            }
            return Ok(Atom::PointsTo(x, fields));
        }
        Err(format!(
            "expected `==`, `!=` or `->` in an annotation, found {}",
            self.here()
        ))
    }
    /// `t (+|- t)*`, a leading `-` negating the first term.
    fn arith(&mut self) -> Result<Arith, String> {
        let mut e = if self.eat("-") {
            let t = self.term()?;
            Arith::Bin(
                Box::new(Arith::Term(Term::Int(0))),
                IntOp::Sub,
                Box::new(Arith::Term(t)),
            )
        } else {
            Arith::Term(self.term()?)
        };
        loop {
            let op = if self.eat("+") {
                IntOp::Add
            } else if self.eat("-") {
                IntOp::Sub
            } else {
                return Ok(e);
            };
            e = Arith::Bin(Box::new(e), op, Box::new(Arith::Term(self.term()?)));
        }
    }
    fn formula(&mut self) -> Result<Formula, String> {
        let mut out = vec![Vec::new()];
        loop {
            out.last_mut().expect("a disjunct").push(self.atom()?);
            if self.eat("*") || self.eat("&&") {
                continue;
            }
            if self.eat("|") {
                out.push(Vec::new());
                continue;
            }
            if self.peek().is_none() || self.is_keyword() {
                return Ok(out);
            }
            return Err(format!("unexpected {} in an annotation", self.here()));
        }
    }
}

/// Reads `//@` annotations (their text after `//@`, one or more
/// declarations) on top of the built-in predicates.
pub fn parse(text: &str) -> Result<Spec, String> {
    let mut spec = Spec::default();
    for source in [BUILTINS, text] {
        let mut p = Parser {
            toks: tokens(source)?,
            at: 0,
        };
        while p.peek().is_some() {
            match p.ident()?.as_str() {
                "pred" => {
                    let name = p.ident()?;
                    p.expect("(")?;
                    let mut params = Vec::new();
                    if !p.eat(")") {
                        loop {
                            params.push(p.ident()?);
                            if p.eat(")") {
                                break;
                            }
                            p.expect(",")?;
                        }
                    }
                    p.expect(":=")?;
                    let body = p.formula()?;
                    spec.preds.retain(|d| d.name != name);
                    spec.preds.push(PredDef { name, params, body });
                }
                "requires" => {
                    let f = p.formula()?;
                    spec.requires = Some(match spec.requires.take() {
                        // Two `requires` hold both: distribute.
                        Some(old) => old
                            .iter()
                            .flat_map(|a| f.iter().map(move |b| [a.clone(), b.clone()].concat()))
                            .collect(),
                        None => f,
                    });
                }
                other => {
                    return Err(format!(
                        "an annotation starts with `pred` or `requires`, not `{other}`"
                    ))
                }
            }
        }
    }
    // Every predicate used is defined, with its arity.
    let mut uses = Vec::new();
    for d in &spec.preds {
        uses.extend(d.body.iter().flatten());
    }
    uses.extend(spec.requires.iter().flatten().flatten());
    for a in uses {
        if let Atom::Pred(n, args) = a {
            match spec.pred(n) {
                None => return Err(format!("predicate `{n}` is not defined")),
                Some(d) if d.params.len() != args.len() => {
                    return Err(format!(
                        "predicate `{n}` takes {} argument(s), not {}",
                        d.params.len(),
                        args.len()
                    ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_seeds_predicate_and_a_precondition() {
        let s = parse(
            "pred pre(a, b) := a == NULL && b == NULL | a -> {next: n1} * b -> {next: n2} * pre(n1, n2)\n\
             requires pre(x, y)",
        )
        .unwrap();
        let pre = s.pred("pre").unwrap();
        assert_eq!(pre.params, ["a", "b"]);
        assert_eq!(pre.body.len(), 2);
        assert_eq!(
            pre.body[0],
            [
                Atom::Eq(Term::Var("a".into()), Term::Null),
                Atom::Eq(Term::Var("b".into()), Term::Null)
            ]
        );
        assert_eq!(
            s.requires,
            Some(vec![vec![Atom::Pred(
                "pre".into(),
                vec![Term::Var("x".into()), Term::Var("y".into())]
            )]])
        );
        assert!(s.pred("list").is_some() && s.pred("tree").is_some());
    }

    #[test]
    fn bad_annotations_say_why() {
        assert_eq!(
            parse("requires foo(x)").unwrap_err(),
            "predicate `foo` is not defined"
        );
        assert_eq!(
            parse("requires list(x, y)").unwrap_err(),
            "predicate `list` takes 1 argument(s), not 2"
        );
        assert!(parse("requires n + 1").unwrap_err().contains("comparison"));
    }

    #[test]
    fn reads_integer_constraints() {
        let s = parse("requires x -> {val: v} * 0 <= v * v + 1 < 10 * n == 3").unwrap();
        let v = || Arith::Term(Term::Var("v".into()));
        assert_eq!(
            s.requires.unwrap()[0][1..],
            [
                Atom::Cmp(Arith::Term(Term::Int(0)), CmpOp::Le, v()),
                Atom::Cmp(
                    Arith::Bin(
                        Box::new(v()),
                        IntOp::Add,
                        Box::new(Arith::Term(Term::Int(1)))
                    ),
                    CmpOp::Lt,
                    Arith::Term(Term::Int(10))
                ),
                Atom::Eq(Term::Var("n".into()), Term::Int(3)),
            ]
        );
    }
}
