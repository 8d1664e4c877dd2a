//! The Java checkers, on pointee-cspta's solution (nothing here re-derives
//! a points-to set or an edge):
//!
//! - `null-deref`: a field access, array element or call on a variable
//!   that holds no object but `null` (error), that may hold `null` beside
//!   objects (warning: the analysis is flow-insensitive, so an assignment
//!   before the use does not count; a null test does, `java_tested`), or
//!   that holds nothing the
//!   analysis can name (warning "no value reaches here": constructs it does
//!   not model, code after a call that never returns);
//! - `cast-may-fail`: a cast some object of whose source is not an
//!   instance of the target type;
//! - `unreachable-method`: a method the call graph never reaches from the
//!   entries (a hint, shown faded), when the program has an entry.
//!
//! A `pointee-ignore: CODE` comment silences them as it does C's.

use crate::java::JavaProgram;
use crate::{Diagnostic, FileId, FileRange, Related, Severity};
use pointee_cspta::{NullSource, Nullness, ARRAY_FIELD};
use pointee_ir::{for_each_basic, Base, Basic, Callee, FunctionSource, Place, Rvalue, VarKind};
use std::collections::HashMap;

/// The Java checkers' codes, with a one-line description each (SARIF's
/// rules); `null-deref` is described with C's in `crate::RULES`.
pub const JAVA_RULES: &[(&str, &str)] = &[
    (
        "cast-may-fail",
        "A cast may fail: an object that is not an instance of the target type may reach it.",
    ),
    (
        "unreachable-method",
        "A method the call graph never reaches from the entries (Java).",
    ),
];

/// The checkers' diagnostics of the whole Java program (every file).
pub(crate) fn java_checks(j: &JavaProgram) -> Vec<Diagnostic> {
    let Some(pta) = j.pta else {
        return Vec::new();
    };
    let sources: HashMap<&str, (FileId, &FunctionSource)> =
        j.jp.sources
            .iter()
            .filter_map(|sm| Some((j.file_id(&sm.file)?, sm)))
            .flat_map(|(file, sm)| sm.functions.iter().map(move |fs| (&*fs.name, (file, fs))))
            .collect();
    let mut out = casts(pta, &sources);
    let nullness = pta.nullness();
    let has_entry = j.jp.mains.iter().any(|m| {
        pta.method(m)
            .is_some_and(|m| !pta.contexts_of(m).is_empty())
    });
    for f in &j.jp.program.functions {
        let (Some(m), Some(&(file, fs))) = (pta.method(&f.name), sources.get(&*f.name)) else {
            continue;
        };
        let ctxs = pta.contexts_of(m);
        if ctxs.is_empty() {
            if has_entry
                && written_by_hand(fs, &pointee_db::java_outline(j.db(), file).class_ranges)
            {
                out.push(Diagnostic {
                    range: FileRange {
                        file,
                        range: fs.name_range,
                    },
                    severity: Severity::Hint,
                    code: "unreachable-method".into(),
                    message: format!(
                        "`{}` is never called: the call graph does not reach it from the entries",
                        f.name
                    ),
                    related: Vec::new(),
                });
            }
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        let tested = crate::java_tested::not_null_before(f);
        for_each_basic(&f.body, &mut |sid, b| {
            let Some(v) = dereferenced(j, b) else { return };
            if !seen.insert((sid, v)) || tested.get(&sid).is_some_and(|k| k.contains(&v)) {
                return;
            }
            let at = FileRange {
                file,
                range: fs.stmts[sid.0 as usize],
            };
            let var = &f.vars[v as usize];
            let name = match var.kind {
                VarKind::Temp => j.text(file, fs.vars[v as usize]),
                _ => var.name.to_string(),
            };
            if let Some(d) = null_deref(j, &nullness, ctxs, v, &name, at, &sources) {
                out.push(d);
            }
        });
    }
    let mut by_file: HashMap<FileId, Vec<Diagnostic>> = HashMap::new();
    for d in out {
        by_file.entry(d.range.file).or_default().push(d);
    }
    let mut out = Vec::new();
    for (file, mut ds) in by_file {
        crate::checks::suppress(
            file.text(j.db()),
            pointee_db::line_index(j.db(), file),
            &mut ds,
        );
        out.extend(ds);
    }
    out
}

/// A method the user wrote: not a lambda's or method reference's class
/// method, not a static initialiser, pool or callback root, not one the
/// front end makes for a class (a default constructor, a record's
/// accessors: their name is the class's, `class_names` of the file, or
/// their whole text).
fn written_by_hand(fs: &FunctionSource, class_names: &[pointee_ir::Range]) -> bool {
    let n = &*fs.name;
    !fs.name_range.is_empty()
        && fs.name_range != fs.range
        && !class_names.contains(&fs.name_range)
        && !n.contains("$lambda$")
        && !n.contains("$ref$")
        && (!n.contains('<') || n.contains(".<init>("))
}

/// The variable a basic statement dereferences: the base of a field or
/// element access, the receiver of an instance call.
fn dereferenced(j: &JavaProgram, b: &Basic) -> Option<u32> {
    let base = |p: &Place| match (&p.base, p.deref) {
        (Base::Var(v), true) => Some(v.0),
        _ => None,
    };
    match b {
        Basic::Assign { lhs, rhs } => base(lhs).or(match rhs {
            Rvalue::Use(p) | Rvalue::Cast(p, _) => base(p),
            _ => None,
        }),
        Basic::Use(p) => base(p),
        Basic::Call { callee, args, .. } => match callee {
            Callee::Virtual { receiver, .. } => match receiver.base {
                Base::Var(v) if !receiver.deref && receiver.path.is_empty() => Some(v.0),
                _ => None,
            },
            // Constructor, `super` and private calls: the receiver is the
            // first argument.
            Callee::Direct(f) => {
                let pta = j.pta?;
                let m = pta.method(f)?;
                if pta.facts.method_static[m as usize] {
                    return None;
                }
                match args.first()? {
                    Rvalue::Use(p) if !p.deref && p.path.is_empty() => match p.base {
                        Base::Var(v) => Some(v.0),
                        _ => None,
                    },
                    _ => None,
                }
            }
            Callee::Indirect(_) => None,
        },
    }
}

/// The finding at a dereference of variable `v` (named `name`), over the
/// method's reached contexts `ctxs`.
fn null_deref(
    j: &JavaProgram,
    nullness: &Nullness,
    ctxs: &[u32],
    v: u32,
    name: &str,
    at: FileRange,
    sources: &HashMap<&str, (FileId, &FunctionSource)>,
) -> Option<Diagnostic> {
    let pta = j.pta?;
    let holds_objects = ctxs.iter().any(|&mc| !pta.var_pts(mc, v).is_empty());
    let null = ctxs.iter().find_map(|&mc| nullness.null(pta, mc, v));
    let unknown = ctxs.iter().any(|&mc| nullness.unknown(pta, mc, v));
    let (severity, message) = match (holds_objects, null, unknown) {
        (true, None, _) => return None,
        (false, Some(_), false) => (
            Severity::Error,
            format!("`{name}` is null where it is dereferenced: no object reaches it, only null"),
        ),
        (true, Some(_), _) => (
            Severity::Warning,
            format!(
                "`{name}` may be null where it is dereferenced: null reaches it (the analysis is flow-insensitive: an assignment before this point is not taken into account; a null test is)"
            ),
        ),
        (false, _, _) => (
            Severity::Warning,
            format!(
                "no value reaches `{name}` here: it holds no object the analysis can name (a construct that is not modelled, or code after a call that never returns)"
            ),
        ),
    };
    let related = null
        .filter(|_| severity == Severity::Error || holds_objects)
        .and_then(|src| null_witness(j, src, sources))
        .into_iter()
        .collect();
    Some(Diagnostic {
        range: at,
        severity,
        code: "null-deref".into(),
        message,
        related,
    })
}

/// Where a `null` comes from, as a related location.
fn null_witness(
    j: &JavaProgram,
    src: NullSource,
    sources: &HashMap<&str, (FileId, &FunctionSource)>,
) -> Option<Related> {
    let pta = j.pta?;
    match src {
        NullSource::Stmt { method, stmt } => {
            let &(file, fs) = sources.get(pta.facts.method_names[method as usize].as_str())?;
            Some(Related {
                range: FileRange {
                    file,
                    range: *fs.stmts.get(stmt as usize)?,
                },
                message: "null comes from here".into(),
            })
        }
        NullSource::Field { obj, field } => {
            let target = j.target(obj);
            let field = &pta.facts.fields[field as usize];
            let message = if field == ARRAY_FIELD {
                format!(
                    "no element of {} is ever stored: they are null",
                    target.name
                )
            } else {
                format!(
                    "the field `{field}` of {} is never assigned: it is null",
                    target.name
                )
            };
            Some(Related {
                range: target.decl?,
                message,
            })
        }
        NullSource::Static(s) => {
            let name = &pta.facts.statics[s as usize];
            let (file, g) =
                j.jp.sources
                    .iter()
                    .find_map(|sm| Some((j.file_id(&sm.file)?, sm.global(name)?)))?;
            Some(Related {
                range: FileRange {
                    file,
                    range: g.name_range,
                },
                message: format!("the static field `{name}` is never assigned: it is null"),
            })
        }
    }
}

/// The casts that may fail.
fn casts(
    pta: &pointee_cspta::Analysis,
    sources: &HashMap<&str, (FileId, &FunctionSource)>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (m, cast, fails) in pta.casts() {
        if !fails {
            continue;
        }
        let Some(&(file, fs)) = sources.get(pta.facts.method_names[m as usize].as_str()) else {
            continue;
        };
        out.push(Diagnostic {
            range: FileRange {
                file,
                range: fs.stmts[cast.stmt as usize],
            },
            severity: Severity::Warning,
            code: "cast-may-fail".into(),
            message: format!("the cast to {} may fail", cast.target),
            related: Vec::new(),
        });
    }
    out
}
