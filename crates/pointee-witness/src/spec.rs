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
//! ```
//!
//! Variables of a disjunct that are not parameters are existential; `_`
//! is a fresh one. `*` separates: the objects of two points-to atoms are
//! distinct. Built-in predicates (`list`, `dll`, `tree`) are defined in
//! the same language ([`BUILTINS`]); a user's predicate of the same name
//! replaces one.
//!
//! The caller hands the annotations' text; this module reads no file and
//! never sees the C source.

/// A term of a pure or points-to atom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Var(String),
    Null,
    /// `_`: a fresh existential.
    Wild,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    Emp,
    Eq(Term, Term),
    Ne(Term, Term),
    PointsTo(String, Vec<(String, Term)>),
    Pred(String, Vec<Term>),
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
        ":=", "==", "!=", "->", "&&", "(", ")", ",", "|", "*", "{", "}", ":", ";",
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
            _ if i.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                return Err(format!(
                    "`{i}`: integer constraints are not supported in annotations yet"
                ))
            }
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
        let left = self.term()?;
        if self.eat("==") {
            return Ok(Atom::Eq(left, self.term()?));
        }
        if self.eat("!=") {
            return Ok(Atom::Ne(left, self.term()?));
        }
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
        assert!(parse("requires n == 3").unwrap_err().contains("integer"));
    }
}
