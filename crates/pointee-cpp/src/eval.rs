//! The arithmetic of `#if` (C11 6.10.1): integer constant expressions on
//! `intmax_t`/`uintmax_t` with the usual conversions, after macro expansion
//! and `defined`; an identifier left over is 0. Division by zero in a part
//! that is not evaluated (`0 && 1/0`) is no error.

use crate::lex::Kind;
use crate::macros::{Interner, Tok};

/// A value of `#if` arithmetic: signed unless an operand was unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    bits: u64,
    unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn truth(b: bool) -> Value {
        Value::signed(b as i64)
    }
    fn is_true(self) -> bool {
        self.bits != 0
    }
}

/// Evaluates an expanded `#if` line: its value, or why it is not a
/// constant expression.
pub(crate) fn evaluate(toks: &[Tok], int: &Interner) -> Result<i64, String> {
    if toks.is_empty() {
        return Err("no expression".into());
    }
    let mut p = Parser {
        toks,
        int,
        at: 0,
        live: 0,
    };
    let v = p.conditional()?;
    if p.at < toks.len() {
        return Err(format!("unexpected `{}`", int.get(toks[p.at].sym)));
    }
    Ok(v.bits as i64)
}

struct Parser<'a> {
    toks: &'a [Tok],
    int: &'a Interner,
    at: usize,
    /// Greater than 0 inside an operand that is not evaluated.
    live: u32,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.toks
            .get(self.at)
            .filter(|t| t.kind == Kind::Punct)
            .map(|t| self.int.get(t.sym))
    }

    fn eat(&mut self, op: &str) -> bool {
        if self.peek() == Some(op) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(format!("expected `{op}`"))
        }
    }

    fn conditional(&mut self) -> Result<Value, String> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let t = self.unevaluated_unless(c.is_true(), |p| p.conditional())?;
        self.expect(":")?;
        let e = self.unevaluated_unless(!c.is_true(), |p| p.conditional())?;
        let unsigned = t.unsigned || e.unsigned;
        let v = if c.is_true() { t } else { e };
        Ok(Value {
            bits: v.bits,
            unsigned,
        })
    }

    fn unevaluated_unless(
        &mut self,
        evaluated: bool,
        f: impl FnOnce(&mut Self) -> Result<Value, String>,
    ) -> Result<Value, String> {
        if !evaluated {
            self.live += 1;
        }
        let r = f(self);
        if !evaluated {
            self.live -= 1;
        }
        r
    }

    /// Binary operators by precedence climbing (levels from `||` up).
    fn binary(&mut self, level: usize) -> Result<Value, String> {
        const LEVELS: [&[&str]; 10] = [
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<", ">", "<=", ">="],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.unary();
        }
        let mut l = self.binary(level + 1)?;
        loop {
            let Some(op) = self.peek().filter(|op| LEVELS[level].contains(op)) else {
                return Ok(l);
            };
            let op = op.to_string();
            self.at += 1;
            let r = match op.as_str() {
                "||" => self.unevaluated_unless(!l.is_true(), |p| p.binary(level + 1))?,
                "&&" => self.unevaluated_unless(l.is_true(), |p| p.binary(level + 1))?,
                _ => self.binary(level + 1)?,
            };
            l = self.apply(&op, l, r)?;
        }
    }

    fn apply(&self, op: &str, l: Value, r: Value) -> Result<Value, String> {
        let unsigned = l.unsigned || r.unsigned;
        let (a, b) = (l.bits, r.bits);
        let (sa, sb) = (a as i64, b as i64);
        let arith = |bits: u64| Value { bits, unsigned };
        Ok(match op {
            "||" => Value::truth(l.is_true() || r.is_true()),
            "&&" => Value::truth(l.is_true() && r.is_true()),
            "|" => arith(a | b),
            "^" => arith(a ^ b),
            "&" => arith(a & b),
            "==" => Value::truth(a == b),
            "!=" => Value::truth(a != b),
            "<" => Value::truth(if unsigned { a < b } else { sa < sb }),
            ">" => Value::truth(if unsigned { a > b } else { sa > sb }),
            "<=" => Value::truth(if unsigned { a <= b } else { sa <= sb }),
            ">=" => Value::truth(if unsigned { a >= b } else { sa >= sb }),
            // Shifts take the left operand's type.
            "<<" => Value {
                bits: a.wrapping_shl(b as u32),
                unsigned: l.unsigned,
            },
            ">>" => Value {
                bits: if l.unsigned {
                    a.wrapping_shr(b as u32)
                } else {
                    sa.wrapping_shr(b as u32) as u64
                },
                unsigned: l.unsigned,
            },
            "+" => arith(a.wrapping_add(b)),
            "-" => arith(a.wrapping_sub(b)),
            "*" => arith(if unsigned {
                a.wrapping_mul(b)
            } else {
                sa.wrapping_mul(sb) as u64
            }),
            "/" | "%" => {
                if b == 0 {
                    if self.live > 0 {
                        return Ok(arith(0));
                    }
                    return Err("division by zero".into());
                }
                let v = match (op, unsigned) {
                    ("/", true) => a / b,
                    ("%", true) => a % b,
                    ("/", false) => sa.wrapping_div(sb) as u64,
                    _ => sa.wrapping_rem(sb) as u64,
                };
                arith(v)
            }
            _ => unreachable!("every operator of LEVELS is applied"),
        })
    }

    fn unary(&mut self) -> Result<Value, String> {
        for op in ["+", "-", "~", "!"] {
            if self.eat(op) {
                let v = self.unary()?;
                return Ok(match op {
                    "+" => v,
                    "-" => Value {
                        bits: v.bits.wrapping_neg(),
                        unsigned: v.unsigned,
                    },
                    "~" => Value {
                        bits: !v.bits,
                        unsigned: v.unsigned,
                    },
                    _ => Value::truth(!v.is_true()),
                });
            }
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Value, String> {
        if self.eat("(") {
            let v = self.conditional()?;
            self.expect(")")?;
            return Ok(v);
        }
        let Some(t) = self.toks.get(self.at) else {
            return Err("expression ends early".into());
        };
        self.at += 1;
        let s = self.int.get(t.sym);
        match t.kind {
            Kind::Number => number(s),
            Kind::Char => char_value(s),
            // An identifier that is not a macro (C11 6.10.1p4).
            Kind::Ident => Ok(Value::signed(0)),
            _ => Err(format!("unexpected `{s}`")),
        }
    }
}

/// An integer constant: decimal, octal, hexadecimal or binary, with `u`
/// and `l` suffixes; a decimal too large for `intmax_t` is unsigned.
fn number(s: &str) -> Result<Value, String> {
    let lower = s.to_ascii_lowercase();
    let digits = lower.trim_end_matches(['u', 'l']);
    let suffix = &lower[digits.len()..];
    let mut unsigned = suffix.contains('u');
    let digits = digits.replace('\'', "");
    let (radix, body) = if let Some(h) = digits.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = digits.strip_prefix("0b") {
        (2, b)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits.as_str())
    };
    let bits = u64::from_str_radix(body, radix)
        .map_err(|_| format!("`{s}` is not an integer constant"))?;
    if bits > i64::MAX as u64 {
        unsigned = true;
    }
    Ok(Value { bits, unsigned })
}

/// A character constant's value (`int`, as gcc computes it for plain
/// `char` on x86-64: signed).
fn char_value(s: &str) -> Result<Value, String> {
    let body = s
        .trim_start_matches(['L', 'u', 'U', '8'])
        .strip_prefix('\'')
        .and_then(|b| b.strip_suffix('\''))
        .ok_or_else(|| format!("bad character constant {s}"))?;
    let bytes = body.as_bytes();
    let mut value: i64 = 0;
    let mut i = 0;
    let mut count = 0;
    while i < bytes.len() {
        let (c, n) = if bytes[i] == b'\\' {
            escape(&bytes[i + 1..])
        } else {
            (bytes[i] as i64, 1)
        };
        value = (value << 8) | (c & 0xff);
        i += n + usize::from(bytes[i] == b'\\');
        count += 1;
    }
    if count == 1 {
        value = value as u8 as i8 as i64;
    }
    Ok(Value::signed(value))
}

/// The value of an escape sequence after its backslash, and how many bytes
/// it takes.
fn escape(b: &[u8]) -> (i64, usize) {
    match b.first() {
        Some(b'n') => (10, 1),
        Some(b't') => (9, 1),
        Some(b'r') => (13, 1),
        Some(b'a') => (7, 1),
        Some(b'b') => (8, 1),
        Some(b'f') => (12, 1),
        Some(b'v') => (11, 1),
        Some(b'e') => (27, 1),
        Some(b'x') => {
            let n = b[1..].iter().take_while(|c| c.is_ascii_hexdigit()).count();
            let s = std::str::from_utf8(&b[1..1 + n]).unwrap_or("0");
            (i64::from_str_radix(s, 16).unwrap_or(0), 1 + n)
        }
        Some(c) if c.is_ascii_digit() => {
            let n = b
                .iter()
                .take(3)
                .take_while(|c| (b'0'..=b'7').contains(c))
                .count();
            let s = std::str::from_utf8(&b[..n]).unwrap_or("0");
            (i64::from_str_radix(s, 8).unwrap_or(0), n)
        }
        Some(&c) => (c as i64, 1),
        None => (0, 0),
    }
}
