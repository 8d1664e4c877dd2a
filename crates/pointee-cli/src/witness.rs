//! `pointee witness`: asks pointee-ide for an input that makes the
//! dereference at a position fault, prints it (text or JSON) and writes
//! the C test program with `--emit-test`.

use crate::args::{Invocation, Position};
use crate::locate::Locator;
use crate::workspace::now;
use crate::{emit, load, not_here};
use pointee_ide::{
    field_text, type_text, Bounds, Fault, InputError, Outcome, Stats, WitnessAnswer, WitnessOptions,
};
use serde_json::json;
use std::fmt::Write;

/// The search's options from the command line's flags.
pub fn options(
    plain: bool,
    no_requires: bool,
    assume_alloc_succeeds: bool,
    bounds: &[Option<u64>; 4],
) -> WitnessOptions {
    let d = Bounds::default();
    WitnessOptions {
        bounds: Bounds {
            loop_unfoldings: bounds[0].map_or(d.loop_unfoldings, |n| n as u32),
            call_depth: bounds[1].map_or(d.call_depth, |n| n as u32),
            max_paths: bounds[2].map_or(d.max_paths, |n| n as u32),
            time_ms: bounds[3].unwrap_or(d.time_ms),
        },
        guided: !plain,
        preconditions: !no_requires,
        malloc_may_fail: !assume_alloc_succeeds,
    }
}

/// The workspace of the position's file (with `--with` files), analysed.
fn analysed(
    pos: &Position,
    with: &[String],
    config: pointee_ide::Config,
) -> Result<pointee_ide::Analysis, InputError> {
    Ok(load::workspace_with(&pos.file, with)?.analyse(config)?.1)
}

/// The analysed file's absolute path, which an emitted test includes.
fn canonical(pos: &Position) -> Result<String, InputError> {
    std::fs::canonicalize(&pos.file)
        .map(|p| p.to_string_lossy().into_owned())
        .map_err(|e| InputError(format!("{}: {e}", pos.file)))
}

/// The analysed file's name, for the emitted test's comment.
fn source_name(pos: &Position) -> String {
    std::path::Path::new(&pos.file)
        .file_name()
        .map_or_else(|| pos.file.clone(), |n| n.to_string_lossy().into_owned())
}

/// The class a Java test written to `out` must have: the file's stem, a
/// Java identifier.
fn java_class(out: &str) -> Result<String, InputError> {
    let path = std::path::Path::new(out);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ident = stem
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && stem
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    if path.extension().is_some_and(|e| e == "java") && ident {
        Ok(stem)
    } else {
        Err(InputError(format!(
            "{out}: a Java test is a class, written to `NAME.java` with NAME a Java identifier"
        )))
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run(
    inv: &Invocation,
    config: pointee_ide::Config,
    pos: &Position,
    with: &[String],
    emit_test: Option<&str>,
    options: WitnessOptions,
) -> Result<u8, InputError> {
    let analysis = analysed(pos, with, config)?;
    let loc = Locator {
        analysis: &analysis,
    };
    let at = loc.position(&pos.file, pos.line, pos.column)?;
    let answer = match now(analysis.witness(at, options)) {
        Ok(a) => a,
        Err(e) => return Err(not_here(pos, &e.describe())),
    };
    let stmt = loc.location(answer.stmt);
    if let Some(out) = emit_test {
        let test = match &answer.java {
            Some(_) => answer.java_test(&java_class(out)?, &source_name(pos), stmt.line),
            None => answer.c_test(&canonical(pos)?, stmt.line),
        };
        let Some(test) = test else {
            return Err(InputError(format!(
                "{}:{}:{}: no input found, so no test written",
                pos.file, pos.line, pos.column
            )));
        };
        std::fs::write(out, test).map_err(|e| InputError(format!("{out}: {e}")))?;
    }
    emit(inv, text(&answer, &loc), || json(&answer, &loc));
    Ok(0)
}

/// `pointee witness --all`: test generation for the function around the
/// position (one input per path within the bounds), each written as a C
/// test `DIR/NAME_N.c` with `--emit-test DIR`.
#[allow(clippy::too_many_arguments)]
pub fn run_all(
    inv: &Invocation,
    config: pointee_ide::Config,
    pos: &Position,
    with: &[String],
    emit_dir: Option<&str>,
    options: WitnessOptions,
) -> Result<u8, InputError> {
    let analysis = analysed(pos, with, config)?;
    let loc = Locator {
        analysis: &analysis,
    };
    let at = loc.position(&pos.file, pos.line, pos.column)?;
    let all =
        now(analysis.witness_inputs(at, options)).map_err(|e| not_here(pos, &e.describe()))?;
    if let Some(dir) = emit_dir {
        let source = canonical(pos)?;
        std::fs::create_dir_all(dir).map_err(|e| InputError(format!("{dir}: {e}")))?;
        for i in 0..all.inputs.len() {
            let (out, test) = match &all.java {
                Some(m) => {
                    // A class name: `Witness_add_1` for `List.add(Node,int)`.
                    let method = m.name.split('(').next().unwrap_or_default();
                    let method = method.rsplit('.').next().unwrap_or_default();
                    let class = format!("Witness_{}_{}", method.replace(['<', '>'], ""), i + 1);
                    let test = all.java_test(i, &class, &source_name(pos));
                    (format!("{class}.java"), test.unwrap_or_default())
                }
                None => (
                    format!("{}_{}.c", all.function, i + 1),
                    all.c_test(i, &source),
                ),
            };
            let out = std::path::Path::new(dir).join(out);
            std::fs::write(&out, test)
                .map_err(|e| InputError(format!("{}: {e}", out.display())))?;
        }
    }
    let faulting = all.inputs.iter().filter(|w| w.fault.is_some()).count();
    let text = format!(
        "{}: {} inputs ({} fault), {}{}\n  explored: {}\n",
        all.function,
        all.inputs.len(),
        faulting,
        options.describe(),
        if all.exhausted {
            "; the budget ran out"
        } else {
            ""
        },
        all.stats.describe()
    );
    emit(inv, text, || {
        json!({
            "function": all.function,
            "inputs": all.inputs.len(),
            "faulting": faulting,
            "exhausted": all.exhausted,
            "guided": options.guided,
            "stats": stats_json(&all.stats),
            "faults": all.inputs.iter().map(|w| w.fault.map(Fault::code)).collect::<Vec<_>>(),
        })
    });
    Ok(0)
}

fn text(a: &WitnessAnswer, loc: &Locator) -> String {
    let at = loc.location(a.stmt);
    let mut s = format!(
        "dereference of `{}` at {}:{}:{} in {}\n",
        a.pointer, at.file, at.line, at.column, a.function
    );
    let _ = writeln!(
        s,
        "  {}{}",
        a.verdict(),
        if matches!(a.outcome, Outcome::Found(..)) {
            ":"
        } else {
            ""
        }
    );
    if let Outcome::Found(w, _) = &a.outcome {
        for line in w.input_lines() {
            let _ = writeln!(s, "    {line}");
        }
        if !a.path.is_empty() {
            let _ = writeln!(s, "  path:");
        }
        for step in &a.path {
            let place = match step.after {
                Some(r) => format!("after line {}", loc.location(r).line),
                None => format!("at the start of {}", step.function),
            };
            let _ = writeln!(s, "    {place}: {}", step.decision.describe());
        }
        if let Some(why) = w.unconfirmed_note() {
            let _ = writeln!(s, "  unconfirmed: {why}");
        }
    }
    if let Some(stats) = a.stats() {
        let _ = writeln!(s, "  explored: {}", stats.describe());
    }
    s
}

fn stats_json(s: &Stats) -> serde_json::Value {
    json!({
        "paths": s.paths, "choices": s.choices, "pruned": s.pruned, "cut": s.cut,
        "faulted_elsewhere": s.faulted_elsewhere, "infeasible": s.infeasible,
    })
}

fn json(a: &WitnessAnswer, loc: &Locator) -> serde_json::Value {
    let at = loc.location(a.stmt);
    let b = a.options.bounds;
    let mut v = json!({
        "function": a.function,
        "pointer": a.pointer,
        "at": {"file": at.file, "line": at.line, "column": at.column},
        "bounds": {
            "loops": b.loop_unfoldings, "depth": b.call_depth, "paths": b.max_paths,
            "time_ms": b.time_ms, "guided": a.options.guided,
        },
    });
    let (outcome, stats) = match &a.outcome {
        Outcome::Found(w, stats) => {
            v["fault"] = json!(w.fault.map(Fault::code));
            v["args"] = w
                .args
                .iter()
                .map(|(n, t, val)| json!({"name": n.to_string(), "type": type_text(t), "value": val.text()}))
                .collect();
            v["objects"] = w
                .objects
                .iter()
                .map(|o| {
                    json!({
                        "id": format!("o{}", o.id + 1),
                        "type": type_text(&o.ty),
                        "fields": o.fields.iter().map(|(p, val)| json!({"field": field_text(p), "value": val.text()})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            v["path"] = a
                .path
                .iter()
                .map(|step| {
                    json!({
                        "after_line": step.after.map(|r| loc.location(r).line),
                        "function": step.function,
                        "test": step.decision.test,
                        "taken": step.decision.taken,
                    })
                })
                .collect();
            v["assumed"] = json!(w.assumed);
            v["unmodelled_calls"] = json!(w.unmodelled_calls);
            ("found", Some(stats))
        }
        Outcome::NoneWithinBounds(stats) => ("none-within-bounds", Some(stats)),
        Outcome::BudgetExhausted(stats) => ("budget-exhausted", Some(stats)),
        Outcome::NoFunction => ("no-function", None),
    };
    v["outcome"] = json!(outcome);
    if let Some(s) = stats {
        v["stats"] = stats_json(s);
    }
    v
}
