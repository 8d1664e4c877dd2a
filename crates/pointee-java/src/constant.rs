//! Constants of the source: integral values (the length of a new array, a
//! zero-length array holding nothing; the value a box is made of, small
//! boxed values being cached), string constants (interned), and constant
//! expressions (a constant field is read without initialising its class).

use crate::decl::text;
use crate::syntax::Fields;
use tree_sitter::Node;

/// The value of an integral constant expression of the simple kind: an
/// integer or character literal, `true`/`false` (1/0), under unary `-`/`+`,
/// parentheses and casts to an integral type.
pub fn int_value(node: Node, src: &str) -> Option<i64> {
    match node.sym() {
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal" => integer_literal(text(node, src)),
        "character_literal" => char_literal(text(node, src)).map(i64::from),
        "true" => Some(1),
        "false" => Some(0),
        "parenthesized_expression" => int_value(node.named_child(0)?, src),
        "unary_expression" => {
            let op = node.field("operator").map(|o| text(o, src))?;
            let v = int_value(node.field("operand")?, src)?;
            match op {
                "-" => v.checked_neg(),
                "+" => Some(v),
                _ => None,
            }
        }
        "cast_expression" => {
            let ty = text(node.field("type")?, src);
            let v = int_value(node.field("value")?, src)?;
            match ty {
                "byte" => Some(v as i8 as i64),
                "short" => Some(v as i16 as i64),
                "char" => Some(v as u16 as i64),
                "int" => Some(v as i32 as i64),
                "long" => Some(v),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `123`, `0x7f`, `017`, `0b101`, `1_000L`.
fn integer_literal(t: &str) -> Option<i64> {
    let t: String = t
        .chars()
        .filter(|c| *c != '_')
        .collect::<String>()
        .trim_end_matches(['l', 'L'])
        .to_string();
    let (digits, radix) = if let Some(h) = t.strip_prefix("0x").or(t.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = t.strip_prefix("0b").or(t.strip_prefix("0B")) {
        (b, 2)
    } else if t.len() > 1 && t.starts_with('0') {
        (&t[1..], 8)
    } else {
        (t.as_str(), 10)
    };
    // Hex, octal and binary literals may set the sign bit (`0xffffffff`).
    let v = u64::from_str_radix(digits, radix).ok()?;
    Some(if radix == 10 {
        i64::try_from(v).ok()?
    } else {
        v as i64
    })
}

/// `'a'`, `'\n'`, `'\u0041'`, `'\101'`.
fn char_literal(t: &str) -> Option<u16> {
    let inner = t.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut cs = inner.chars();
    let first = cs.next()?;
    if first != '\\' {
        let mut buf = [0u16; 2];
        let enc = first.encode_utf16(&mut buf);
        return (cs.next().is_none() && enc.len() == 1).then_some(enc[0]);
    }
    let rest: String = cs.collect();
    let simple = match rest.as_str() {
        "n" => Some(10),
        "t" => Some(9),
        "b" => Some(8),
        "r" => Some(13),
        "f" => Some(12),
        "s" => Some(32),
        "0" => Some(0),
        "'" => Some(39),
        "\"" => Some(34),
        "\\" => Some(92),
        _ => None,
    };
    if simple.is_some() {
        return simple;
    }
    if rest.starts_with('u') {
        return u16::from_str_radix(rest.trim_start_matches('u'), 16).ok();
    }
    u16::from_str_radix(&rest, 8).ok()
}

/// The text (with quotes) of a concatenation of plain string literals.
pub fn string_value(node: Node, src: &str) -> Option<String> {
    match node.sym() {
        "string_literal" => {
            let t = text(node, src);
            (t.len() >= 2 && t.starts_with('"') && t.ends_with('"') && !t.starts_with("\"\"\""))
                .then(|| t.to_string())
        }
        "parenthesized_expression" => string_value(node.named_child(0)?, src),
        "binary_expression" => {
            let op = node.field("operator").map(|o| text(o, src))?;
            if op != "+" {
                return None;
            }
            let l = string_value(node.field("left")?, src)?;
            let r = string_value(node.field("right")?, src)?;
            Some(format!("{}{}", &l[..l.len() - 1], &r[1..]))
        }
        _ => None,
    }
}

/// Is `node` a constant expression of the kinds read here: literals (not
/// `null`) under operators, parentheses and casts? (Names of other
/// constants are not followed: such an expression counts as not constant,
/// which only makes more classes initialised.)
pub fn is_constant(node: Node) -> bool {
    match node.sym() {
        "decimal_integer_literal"
        | "hex_integer_literal"
        | "octal_integer_literal"
        | "binary_integer_literal"
        | "decimal_floating_point_literal"
        | "hex_floating_point_literal"
        | "character_literal"
        | "string_literal"
        | "true"
        | "false" => true,
        "parenthesized_expression"
        | "unary_expression"
        | "binary_expression"
        | "ternary_expression" => {
            let mut c = node.walk();
            let all = node.named_children(&mut c).all(|k| is_constant(k));
            all
        }
        "cast_expression" => node.field("value").is_some_and(|v| is_constant(v)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(expr: &str) -> Option<i64> {
        let src = format!("class A {{ long x = {expr}; }}");
        let tree = crate::parser().parse(&src, None).unwrap();
        let mut node = tree.root_node();
        // class_declaration > class_body > field_declaration > declarator > value
        while node.sym() != "variable_declarator" {
            node = node.named_child(node.named_child_count() - 1).unwrap();
        }
        int_value(node.field("value").unwrap(), &src)
    }

    #[test]
    fn constants() {
        assert_eq!(value("0"), Some(0));
        assert_eq!(value("127"), Some(127));
        assert_eq!(value("-128"), Some(-128));
        assert_eq!(value("(-(3))"), Some(-3));
        assert_eq!(value("0x7F"), Some(127));
        assert_eq!(value("017"), Some(15));
        assert_eq!(value("0b101"), Some(5));
        assert_eq!(value("1_000L"), Some(1000));
        assert_eq!(value("'a'"), Some(97));
        assert_eq!(value("'\\n'"), Some(10));
        assert_eq!(value("'\\u0041'"), Some(65));
        assert_eq!(value("(byte) 200"), Some(-56));
        assert_eq!(value("(char) -1"), Some(65535));
        assert_eq!(value("true"), Some(1));
        assert_eq!(value("x"), None);
        assert_eq!(value("1 + 1"), None);
    }
}
