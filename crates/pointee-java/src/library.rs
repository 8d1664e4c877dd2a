//! What the front end knows of the Java library: the functional interfaces
//! whose single abstract method programs call and implement (lambdas,
//! method references, classes), and the library heap's callbacks root.
//! Everything else of the library is the library heap (see `lower.rs`).

use crate::types::{primitive, JType};

/// The single abstract method of a functional interface, erased.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sam {
    /// `apply(Object)`.
    pub signature: String,
    pub params: Vec<JType>,
    pub ret: JType,
}

impl Sam {
    /// The method's simple name.
    pub fn name(&self) -> &str {
        self.signature.split('(').next().unwrap_or("")
    }
}

/// The functional interfaces of the library (by simple name, erased) and
/// their methods: `Runnable` is `run()`, `Function` is `apply(Object)`, ...
pub fn functional(iface: &str) -> Option<Sam> {
    let (name, params, ret): (&str, &[&str], &str) = match iface {
        "Runnable" => ("run", &[], "void"),
        "Callable" => ("call", &[], "Object"),
        "PrivilegedAction" | "PrivilegedExceptionAction" => ("run", &[], "Object"),
        "AutoCloseable" | "Closeable" => ("close", &[], "void"),
        "Supplier" => ("get", &[], "Object"),
        "BooleanSupplier" => ("getAsBoolean", &[], "boolean"),
        "IntSupplier" => ("getAsInt", &[], "int"),
        "LongSupplier" => ("getAsLong", &[], "long"),
        "DoubleSupplier" => ("getAsDouble", &[], "double"),
        "Consumer" => ("accept", &["Object"], "void"),
        "IntConsumer" => ("accept", &["int"], "void"),
        "LongConsumer" => ("accept", &["long"], "void"),
        "DoubleConsumer" => ("accept", &["double"], "void"),
        "BiConsumer" => ("accept", &["Object", "Object"], "void"),
        "ObjIntConsumer" => ("accept", &["Object", "int"], "void"),
        "Function" | "UnaryOperator" => ("apply", &["Object"], "Object"),
        "IntFunction" => ("apply", &["int"], "Object"),
        "LongFunction" => ("apply", &["long"], "Object"),
        "DoubleFunction" => ("apply", &["double"], "Object"),
        "ToIntFunction" => ("applyAsInt", &["Object"], "int"),
        "ToLongFunction" => ("applyAsLong", &["Object"], "long"),
        "ToDoubleFunction" => ("applyAsDouble", &["Object"], "double"),
        "IntUnaryOperator" => ("applyAsInt", &["int"], "int"),
        "IntBinaryOperator" => ("applyAsInt", &["int", "int"], "int"),
        "BiFunction" | "BinaryOperator" => ("apply", &["Object", "Object"], "Object"),
        "ToIntBiFunction" => ("applyAsInt", &["Object", "Object"], "int"),
        "Predicate" => ("test", &["Object"], "boolean"),
        "IntPredicate" => ("test", &["int"], "boolean"),
        "BiPredicate" => ("test", &["Object", "Object"], "boolean"),
        "Comparator" => ("compare", &["Object", "Object"], "int"),
        _ => return None,
    };
    let ty = |t: &str| primitive(t).unwrap_or_else(|| JType::Class(t.to_string()));
    Some(Sam {
        signature: format!("{name}({})", params.join(",")),
        params: params.iter().map(|p| ty(p)).collect(),
        ret: ty(ret),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn functional_interfaces() {
        let f = super::functional("BiFunction").unwrap();
        assert_eq!(f.signature, "apply(Object,Object)");
        assert_eq!(f.name(), "apply");
        assert!(f.ret.is_ref());
        let p = super::functional("IntPredicate").unwrap();
        assert_eq!(p.signature, "test(int)");
        assert!(!p.ret.is_ref() && !p.params[0].is_ref());
        assert!(super::functional("List").is_none());
    }
}
