//! One question, one answer: at every call of every C flow fixture and
//! example, `callees`, go to implementation (on an indirect call), hover's
//! "may call" (on a callee that is a pointer expression) and the outgoing
//! calls of the enclosing function name the same functions. Also where the
//! front end does not know a function pointer's type (a missing header
//! leaves the `*` of `(*f)(x)` in place).

use pointee_ide::{Analysis, AnalysisHost, Config, FileId, FilePosition, Lang};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn analyse(files: &[(&str, &str)]) -> Analysis {
    AnalysisHost::with_files(files.iter().copied(), Config::default()).analysis()
}

/// The offsets of the names of called things: an identifier followed by
/// `(`, maybe after `)` and spaces (`f(`, `fp(`, `(*fp)(`, `->open(`),
/// with the offset of that `(`.
fn callee_names(text: &str) -> Vec<(u32, u32)> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !word(b[i]) || (i > 0 && word(b[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && word(b[i]) {
            i += 1;
        }
        let name = &text[start..i];
        let mut j = i;
        while j < b.len() && (b[j] == b')' || b[j].is_ascii_whitespace()) {
            j += 1;
        }
        let keyword = matches!(
            name,
            "if" | "while" | "for" | "switch" | "return" | "sizeof"
        );
        if j < b.len() && b[j] == b'(' && !keyword && !b[start].is_ascii_digit() {
            out.push((start as u32, j as u32));
        }
    }
    out
}

/// Names of the functions at some ranges (callees' declarations).
fn names_at(
    a: &Analysis,
    ranges: impl Iterator<Item = pointee_ide::FileRange>,
) -> BTreeSet<String> {
    ranges
        .map(|r| {
            let text = a.file_text(r.file);
            text[r.range.start as usize..r.range.end as usize].to_string()
        })
        .collect()
}

/// How many answers were compared, by kind.
#[derive(Default)]
struct Compared {
    implementation: usize,
    hover: usize,
    outgoing: usize,
}

/// Checks every call of `file`; returns the disagreements.
fn disagreements(a: &Analysis, file: FileId, name: &str, n: &mut Compared) -> Vec<String> {
    let text = a.file_text(file);
    let lines = a.line_index(file).unwrap();
    let mut out = Vec::new();
    // Every function of the file, as the call hierarchy sees it.
    let functions: Vec<pointee_ide::CallItem> = a
        .dump(Lang::C, &Default::default())
        .unwrap()
        .functions
        .iter()
        .filter(|f| f.at.file == file)
        .flat_map(|f| {
            let at = FilePosition {
                file,
                offset: f.at.range.start,
            };
            a.call_hierarchy(at).unwrap()
        })
        .collect();
    for (offset, paren) in callee_names(&text) {
        let pos = FilePosition { file, offset };
        let Some(callees) = a.callees(pos).unwrap() else {
            continue;
        };
        let (line, col) = lines.line_col_chars(offset);
        let at = format!("{name}:{}:{}", line + 1, col + 1);
        let all: BTreeSet<String> = callees.iter().map(|c| c.name.clone()).collect();
        // Those defined in the program (library functions have no source).
        let defined = names_at(a, callees.iter().filter_map(|c| c.decl));
        let implementation = a.goto_implementation(pos).unwrap();
        if !implementation.is_empty() {
            n.implementation += 1;
            let got = names_at(
                a,
                implementation.iter().map(|t| pointee_ide::FileRange {
                    file: t.file,
                    range: t.range,
                }),
            );
            if got != defined {
                out.push(format!("{at}: implementation {got:?}, callees {all:?}"));
            }
        }
        // Hover on the callee itself (not on the call's result).
        if let Some(h) = a.hover(pos).unwrap().filter(|h| h.range.range.end <= paren) {
            n.hover += 1;
            let may: BTreeSet<String> = h.may_call.iter().map(|c| c.name.clone()).collect();
            if may != all {
                out.push(format!("{at}: hover may call {may:?}, callees {all:?}"));
            }
        }
        let Some(caller) = functions
            .iter()
            .filter(|f| f.range.start <= offset && offset < f.range.end)
            .min_by_key(|f| f.range.end - f.range.start)
        else {
            continue;
        };
        let outgoing: BTreeSet<String> = a
            .outgoing_calls(file, &caller.name)
            .unwrap()
            .into_iter()
            .filter(|l| {
                l.calls
                    .iter()
                    .any(|c| c.range.start <= offset && offset < c.range.end)
            })
            .map(|l| l.item.name)
            .collect();
        // Outgoing calls of nested calls include the outer call's range;
        // compare with the callees of every call around the offset.
        n.outgoing += 1;
        if !defined.is_subset(&outgoing) {
            out.push(format!("{at}: outgoing {outgoing:?}, callees {all:?}"));
        }
    }
    out
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut v = Vec::new();
    for dir in ["fixtures/c/flow", "examples"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "c") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

#[test]
fn every_call_gets_one_answer() {
    let mut failures = Vec::new();
    let mut n = Compared::default();
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let a = analyse(&[(&name, &text)]);
        if a.program_error(Lang::C).unwrap().is_some() {
            continue;
        }
        let file = a.file_id(&name).unwrap();
        failures.extend(disagreements(&a, file, &name, &mut n));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        n.implementation >= 15 && n.hover >= 15 && n.outgoing >= 200,
        "too few calls compared: {} implementation, {} hover, {} outgoing",
        n.implementation,
        n.hover,
        n.outgoing
    );
}

/// A header the program includes is not given, so the front end does not
/// know that `Pfunc` is a function pointer and lowers `(*f)(x)` as a call
/// through `*f`: the call still reaches what `f` points to, and every
/// answer says so (as at `(*f)(L, ud)` in Lua's `ldo.c`).
#[test]
fn a_call_through_a_function_pointer_of_unknown_type_gets_one_answer() {
    let text = "\
#include \"missing.h\"
void one(int *p) {}
void two(int *p) {}
void run(Pfunc f, int *x) {
    (*f)(x);
}
void run_indirect(Pfunc *pf, int *x) {
    (*pf)(x);
}
int g;
int main(void) {
    Pfunc h = two;
    run(one, &g);
    run(two, &g);
    run_indirect(&h, &g);
    return 0;
}
";
    let a = analyse(&[("unknown.c", text)]);
    let file = a.file_id("unknown.c").unwrap();
    let mut n = Compared::default();
    let failures = disagreements(&a, file, "unknown.c", &mut n);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((n.implementation, n.hover), (2, 2));
    let callees = |needle: &str| -> Vec<String> {
        let offset = text.find(needle).unwrap() as u32;
        a.callees(FilePosition { file, offset })
            .unwrap()
            .unwrap()
            .into_iter()
            .map(|c| c.name)
            .collect()
    };
    assert_eq!(callees("f)(x)"), ["one", "two"]);
    assert_eq!(callees("pf)(x)"), ["two"]);
}
