//! The C overlap checker (`alias-overlap`): two pointers that C requires to
//! point to separate objects but that may point to the same one:
//!
//! - the destination and a source of a library copy (`memcpy`, `strcpy`,
//!   `strcat`, `sprintf`'s `%s` arguments, ...: `COPIES`; `memmove` may
//!   overlap and is not listed);
//! - two arguments of a call to a defined function, when one of the two
//!   parameters is `restrict` (reported whether or not the callee writes
//!   through it: the standard makes only a write undefined).
//!
//! Two values overlap when they share a target that is one real object (not
//! a summary: two elements of an array tail or two objects of one heap site
//! are separate), or when they are the same value (`memcpy(p, p, n)`). A
//! shared target definite in both in every context that reaches the call is
//! an error; otherwise a warning.

use super::memory::{context_witness, contexts_note, pointer_text, set_text, units_at};
use crate::c::{CProgram, Flow};
use crate::{Diagnostic, FileId, FileRange, Severity};
use pointee_flow::arg_place;
use pointee_flow::UNKNOWN;
use pointee_ir::{
    for_each_basic, Basic, Callee, Function, FunctionSource, Place, Point, Program, Range, Rvalue,
    StmtId,
};

type Locset = Vec<(pointee_flow::LocId, bool)>;

/// Library functions whose destination (first index) must not overlap the
/// sources (the other indexes; `from` for every argument from there on, a
/// format's `%s` strings).
const COPIES: &[(&str, usize, &[usize], Option<usize>)] = &[
    ("memcpy", 0, &[1], None),
    ("mempcpy", 0, &[1], None),
    ("memccpy", 0, &[1], None),
    ("wmemcpy", 0, &[1], None),
    ("strcpy", 0, &[1], None),
    ("stpcpy", 0, &[1], None),
    ("strncpy", 0, &[1], None),
    ("stpncpy", 0, &[1], None),
    ("strcat", 0, &[1], None),
    ("strncat", 0, &[1], None),
    ("strxfrm", 0, &[1], None),
    ("wcscpy", 0, &[1], None),
    ("wcsncpy", 0, &[1], None),
    ("wcscat", 0, &[1], None),
    ("wcsncat", 0, &[1], None),
    ("sprintf", 0, &[1], Some(2)),
    ("snprintf", 0, &[2], Some(3)),
];

/// One argument of a call: its value and the place that holds it (for
/// naming; `None`: a constant or an address).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Arg {
    index: usize,
    value: Rvalue,
    place: Option<Place>,
}

/// Why the two arguments must not overlap.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    /// A library copy's destination and a source.
    Copy(String),
    /// A defined function's parameters, one of them `restrict` (its name).
    Restrict { callee: String, param: String },
}

/// A pair of arguments of one call that must not overlap.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pair {
    stmt: StmtId,
    dst: Arg,
    src: Arg,
    rule: Rule,
}

/// Two arguments that may overlap, position-free (cached per function,
/// like `memory::Finding`; contexts by index among the function's units).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    pair: Pair,
    definite: bool,
    contexts: Vec<u32>,
    reached: usize,
    /// The targets both may point to (merged over the contexts).
    common: Locset,
}

pub(crate) const CODE: &str = "alias-overlap";

fn arg(args: &[Rvalue], index: usize) -> Option<Arg> {
    let a = args.get(index)?;
    let place = match (arg_place(a), a) {
        (Some(p), _) => Some(p.clone()),
        (None, Rvalue::AddrOf(_)) => None,
        _ => return None,
    };
    Some(Arg {
        index,
        value: a.clone(),
        place,
    })
}

/// The `restrict` flags and names of a defined function's parameters, by
/// the function's name (`None`: a library function).
type RestrictParams<'a> = dyn Fn(&str) -> Option<Vec<(bool, String)>> + 'a;

/// Every pair of arguments of `f`'s calls that must not overlap.
fn pairs(f: &Function, restrict_params: &RestrictParams) -> Vec<Pair> {
    let mut out = Vec::new();
    for_each_basic(&f.body, &mut |stmt, b| {
        let Basic::Call {
            callee: Callee::Direct(name),
            args,
            ..
        } = b
        else {
            return;
        };
        let mut push = |i: usize, j: usize, rule: Rule| {
            if let (Some(dst), Some(src)) = (arg(args, i), arg(args, j)) {
                out.push(Pair {
                    stmt,
                    dst,
                    src,
                    rule,
                });
            }
        };
        match restrict_params(name) {
            Some(params) => {
                for i in 0..params.len() {
                    for j in i + 1..params.len() {
                        let (restrict, param) = match (&params[i], &params[j]) {
                            ((true, p), _) | (_, (true, p)) => (true, p.clone()),
                            _ => (false, String::new()),
                        };
                        if restrict {
                            push(
                                i,
                                j,
                                Rule::Restrict {
                                    callee: name.to_string(),
                                    param,
                                },
                            );
                        }
                    }
                }
            }
            None => {
                let Some(&(_, dst, srcs, from)) = COPIES.iter().find(|c| c.0 == &**name) else {
                    return;
                };
                let rest = from.map_or(0..0, |k| k..args.len());
                for j in srcs.iter().copied().chain(rest) {
                    push(dst, j, Rule::Copy(name.to_string()));
                }
            }
        }
    });
    out
}

/// The targets `x` and `y` share that make them overlap: one real object
/// both may point to (or any object, when they are the same value), with
/// whether both definitely point to it.
fn shared(a: &Flow, x: &Locset, y: &Locset, same_value: bool) -> Locset {
    let locs = a.locs();
    x.iter()
        .filter(|&&(l, _)| l != UNKNOWN && locs.is_memory(l) && (same_value || !locs.is_summary(l)))
        .filter_map(|&(l, dx)| {
            let &(_, dy) = y.iter().find(|e| e.0 == l)?;
            Some((l, dx && dy))
        })
        .collect()
}

/// The overlaps of one function of the program (`name`, IR `f`).
pub(crate) fn find(a: &mut Flow, program: &Program, name: &str, f: &Function) -> Vec<Finding> {
    let units = a.units_of(name);
    if units.is_empty() {
        return Vec::new();
    }
    let pairs = {
        let a = &*a;
        // A defined callee's parameters: `restrict` flags and names.
        pairs(f, &|callee| {
            let g = &program.functions[a.func_index(callee)? as usize];
            let var = |v| g.var(v);
            Some(
                g.params
                    .iter()
                    .map(|&v| (var(v).restrict, var(v).name.to_string()))
                    .collect(),
            )
        })
    };
    let mut out = Vec::new();
    for pair in pairs {
        let point = Point::Before(pair.stmt);
        let xs = a.values_at(name, point, &pair.dst.value);
        let ys = a.values_at(name, point, &pair.src.value);
        let same = pair.dst.value == pair.src.value;
        let mut contexts = Vec::new();
        let mut reached = 0;
        for (x, y) in xs.iter().zip(&ys) {
            let (Some(xt), Some(yt)) = (&x.targets, &y.targets) else {
                continue;
            };
            reached += 1;
            // Reached only from an extra entry: unknown inputs, so only
            // what the function makes definite counts.
            let extra = a.extra_only(x.unit);
            if shared(a, xt, yt, same).iter().any(|&(_, d)| d || !extra) {
                contexts.push(units.iter().position(|&u| u == x.unit).unwrap_or(0) as u32);
            }
        }
        if contexts.is_empty() {
            continue;
        }
        let (Some(mx), Some(my)) = (Flow::merge_values(&xs), Flow::merge_values(&ys)) else {
            continue;
        };
        let common = shared(a, &mx, &my, same);
        let definite = contexts.len() == reached && common.iter().any(|&(_, d)| d);
        out.push(Finding {
            pair,
            definite,
            contexts,
            reached,
            common,
        });
    }
    out
}

/// A finding of function `name` (IR `f`, source `fs` in `file`) as the
/// diagnostic users see; the range is the source argument's.
pub(crate) fn render(
    c: &CProgram,
    a: &mut Flow,
    (file, fs): (FileId, &FunctionSource),
    name: &str,
    f: &Function,
    finding: &Finding,
) -> Diagnostic {
    let pair = &finding.pair;
    let text = |a: &Arg| {
        argument_text(c, file, fs, pair.stmt, a.index)
            .unwrap_or_else(|| pointer_text(c, file, fs, f, pair.stmt, a.place.as_ref(), &a.value))
    };
    let (dst, _) = text(&pair.dst);
    let (src, range) = text(&pair.src);
    let set = set_text(c, a, &finding.common);
    let certainty = if finding.definite {
        "point"
    } else {
        "may point"
    };
    let why = match &pair.rule {
        Rule::Copy(n) => format!("where `{n}` copies between them, which needs them apart"),
        Rule::Restrict { callee, param } => {
            format!("where they are passed to `{callee}`, whose parameter `{param}` is `restrict`")
        }
    };
    let contexts = contexts_note(finding.contexts.len(), finding.reached);
    let message = format!(
        "`{dst}` and `{src}` {certainty} to the same object {why}: both point to {set}{contexts}"
    );
    let units = units_at(a, name, &finding.contexts);
    let mut related = Vec::new();
    for &(l, _) in finding.common.iter().take(3) {
        if let Some(range) = c.decl(a, l) {
            related.push(crate::Related {
                range,
                message: format!("`{}` is declared here", c.name(a, l)),
            });
        }
    }
    related.extend(context_witness(c, a, &units));
    Diagnostic {
        range: FileRange { file, range },
        severity: if finding.definite {
            Severity::Error
        } else {
            Severity::Warning
        },
        code: CODE.into(),
        message,
        related,
    }
}

/// The source text and range of argument `index` of the call at `stmt`
/// (split at the commas outside brackets and literals).
fn argument_text(
    c: &CProgram,
    file: FileId,
    fs: &FunctionSource,
    stmt: StmtId,
    index: usize,
) -> Option<(String, Range)> {
    let call = fs.calls.iter().find(|k| k.stmt == stmt)?;
    let start = call.callee_range.end;
    let text = c.text(file, Range::new(start as usize, call.range.end as usize));
    let open = text.find('(')?;
    let (mut depth, mut quote, mut escaped) = (0i32, None::<char>, false);
    let mut from = open + 1;
    let mut n = 0;
    for (i, ch) in text.char_indices().skip_while(|&(i, _)| i <= open) {
        if let Some(q) = quote {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if ch == q => quote = None,
                _ => {}
            }
            continue;
        }
        match ch {
            '"' | '\'' => quote = Some(ch),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth > 0 => depth -= 1,
            ',' | ')' if depth == 0 => {
                if n == index {
                    let raw = &text[from..i];
                    let lead = raw.len() - raw.trim_start().len();
                    let arg = raw.trim();
                    let at = start as usize + from + lead;
                    return Some((arg.to_string(), Range::new(at, at + arg.len())));
                }
                n += 1;
                from = i + 1;
            }
            _ => {}
        }
    }
    None
}
