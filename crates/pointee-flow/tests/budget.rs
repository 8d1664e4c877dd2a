//! The budget (`budget.rs`): a run stopped by it says so, and its answers
//! are never sharper than a full run's: every fixture under
//! `fixtures/c/flow/` and `fixtures/c/soundness/`, run with step budgets
//! from 0 up to what the full run takes, keeps every alias verdict of the
//! full run or answers `may`, and every target the full run gives (or
//! `unknown`), never a definite one the full run does not give.

use pointee_flow::{
    Alias, Analysis, Budget, Interrupt, LocId, MemoryProbe, Settings, Spent, UNKNOWN,
};
use pointee_ir::{Basic, Callee, Point, Program, Rvalue, StmtId};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
    let mut v: Vec<PathBuf> = Vec::new();
    for dir in ["flow", "soundness"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "c") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

fn steps(n: u64) -> Settings {
    Settings {
        budget: Budget {
            steps: Some(n),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// A time budget already spent when the run starts.
fn no_time() -> Settings {
    Settings {
        budget: Budget {
            time: Some(std::time::Duration::ZERO),
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The alias checks of a program: (function, statement, first, second).
fn checks(p: &Program) -> Vec<(String, StmtId, Rvalue, Rvalue)> {
    let mut out = Vec::new();
    for f in &p.functions {
        pointee_ir::for_each_basic(&f.body, &mut |id, b| {
            if let Basic::Call {
                callee: Callee::Direct(name),
                args,
                ..
            } = b
            {
                if pointee_flow::is_alias_check(name) && args.len() == 2 {
                    out.push((f.name.to_string(), id, args[0].clone(), args[1].clone()));
                }
            }
        });
    }
    out
}

/// Every pointer variable's targets at every point of every function,
/// merged over contexts as hover merges them, by name.
type Answers = Vec<(String, Option<Vec<(String, bool)>>)>;

fn answers(a: &mut Analysis<'_>, p: &Program) -> Answers {
    let mut out = Vec::new();
    for f in &p.functions {
        for s in 0..f.stmt_count {
            for (vi, v) in f.vars.iter().enumerate() {
                if !v.ty.is_pointer_like() {
                    continue;
                }
                let place = pointee_ir::Place::var(pointee_ir::VarId(vi as u32));
                let rv = Rvalue::Use(place);
                let point = Point::Before(StmtId(s));
                let per = a.values_at(&f.name, point, &rv);
                let merged = Analysis::merge_values(&per).map(|v| {
                    v.iter()
                        .map(|&(l, d): &(LocId, bool)| (a.name(l), d))
                        .collect::<Vec<_>>()
                });
                out.push((format!("{} {point:?} {}", f.name, v.name), merged));
            }
        }
    }
    out
}

#[test]
fn partial_runs_never_answer_sharper_than_full_ones() {
    let mut failures = Vec::new();
    let mut partial_runs = 0;
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let Ok(lowered) = pointee_c::lower(&[(&name, &text)]) else {
            continue;
        };
        let p = &lowered.program;
        let mut full = pointee_flow::analyze(p, Settings::default());
        assert!(full.partial().is_none(), "{name}: no budget, not partial");
        let full_answers = answers(&mut full, p);
        let full_checks: Vec<Alias> = checks(p)
            .iter()
            .map(|(f, s, x, y)| full.alias(f, Point::Before(*s), x, y))
            .collect();
        // What the full run takes, found by running with growing budgets.
        let mut n = 0;
        loop {
            let mut a = pointee_flow::analyze(p, steps(n));
            let Some(partial) = a.partial() else {
                // The budget was enough: the same result as the full run.
                assert_eq!(answers(&mut a, p), full_answers, "{name}: budget {n}");
                break;
            };
            partial_runs += 1;
            assert_eq!(partial.spent, Spent::Steps);
            assert_eq!(partial.steps, n, "{name}: stopped at its budget");
            let label = format!("{name}: budget {n}");
            never_sharper(
                &label,
                &mut a,
                p,
                &full_checks,
                &full_answers,
                &mut failures,
            );
            n = if n < 8 { n + 1 } else { n * 2 };
        }
    }
    assert!(partial_runs > 50, "only {partial_runs} partial runs");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Checks that `a`'s answers are never sharper than the full run's: every
/// alias verdict the same or `may`, every target kept (or `unknown`
/// there), nothing definite the full run does not make definite.
fn never_sharper(
    label: &str,
    a: &mut Analysis<'_>,
    p: &Program,
    full_checks: &[Alias],
    full_answers: &Answers,
    failures: &mut Vec<String>,
) {
    for ((f, s, x, y), want) in checks(p).iter().zip(full_checks) {
        let got = a.alias(f, Point::Before(*s), x, y);
        let ok = got == *want || got == Alias::May;
        if !ok {
            failures.push(format!("{label}: {f} s{}: {got:?}, full {want:?}", s.0));
        }
    }
    for ((what, got), (_, want)) in answers(a, p).iter().zip(full_answers) {
        let (Some(want), Some(got)) = (want, got) else {
            continue;
        };
        let unknown = got.iter().any(|t| t.0 == a.name(UNKNOWN));
        // A newest heap object the partial run demoted (a cut-off call
        // demotes every one) is in its summary, of the same name.
        let summary = |t: &str| t.strip_prefix("newest ").unwrap_or(t).to_string();
        for (t, d) in want {
            let same = got.iter().find(|g| g.0 == *t || g.0 == summary(t));
            if same.is_none() && !unknown {
                failures.push(format!("{label}: {what}: lost {t}"));
            }
            if same.is_some_and(|g| g.1 && !d) {
                failures.push(format!("{label}: {what}: {t} definite"));
            }
        }
        for (t, d) in got {
            let newest = format!("newest {t}");
            if *d && !want.contains(&(t.clone(), true)) && !want.contains(&(newest, true)) {
                failures.push(format!("{label}: {what}: {t} definite"));
            }
        }
    }
}

/// A copy of memory too wide to build fact by fact is collapsed
/// (`copy_facts`): at a cap of 0 every `memcpy`, `memmove` and `realloc` of
/// the fixtures is, and every answer stays sound (the full run's or less
/// sharp).
#[test]
fn collapsed_copies_never_answer_sharper_than_full_ones() {
    let mut failures = Vec::new();
    let mut copies = 0;
    let mut changed = 0;
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        if !["memcpy", "memmove", "realloc"]
            .iter()
            .any(|c| text.contains(c))
        {
            continue;
        }
        let Ok(lowered) = pointee_c::lower(&[(&name, &text)]) else {
            continue;
        };
        let p = &lowered.program;
        copies += 1;
        let mut full = pointee_flow::analyze(p, Settings::default());
        let full_answers = answers(&mut full, p);
        let full_checks: Vec<Alias> = checks(p)
            .iter()
            .map(|(f, s, x, y)| full.alias(f, Point::Before(*s), x, y))
            .collect();
        let collapsed = Settings {
            budget: Budget {
                copy_facts: Some(0),
                ..Default::default()
            },
            ..Default::default()
        };
        let mut a = pointee_flow::analyze(p, collapsed);
        assert!(
            a.partial().is_none(),
            "{name}: a collapsed copy is not a cut"
        );
        if answers(&mut a, p) != full_answers {
            changed += 1;
        }
        never_sharper(&name, &mut a, p, &full_checks, &full_answers, &mut failures);
    }
    assert!(copies >= 5, "only {copies} fixtures copy memory");
    // The cap took effect: collapsing made some answers less sharp.
    assert!(
        changed >= 3,
        "collapsing changed only {changed} of {copies}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A step budget stops the run deterministically and says which functions
/// it did not finish; with budget 0 only the entry runs, every call cut off.
#[test]
fn a_step_budget_stops_and_lists_what_it_did_not_finish() {
    let text = "int x, y; int *g;\n\
        void leaf(int **p) { *p = &y; }\n\
        void mid(int **p) { leaf(p); }\n\
        int main(void) { int *q = &x; mid(&q); g = q; return 0; }\n";
    let lowered = pointee_c::lower(&[("b.c", text)]).unwrap();
    let p = &lowered.program;
    let none = pointee_flow::analyze(p, steps(0));
    let partial = none.partial().expect("partial");
    assert_eq!(partial.steps, 0);
    assert!(none.units_of("mid").is_empty(), "mid not analysed");
    let names = |v: &[pointee_ir::Name]| v.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    assert_eq!(names(&partial.incomplete), ["leaf", "mid"]);
    // One call analysed (main's call to mid), the next one (mid's to leaf)
    // cut off.
    let mut one = pointee_flow::analyze(p, steps(1));
    let partial = one.partial().expect("partial");
    assert_eq!(names(&partial.incomplete), ["leaf"]);
    assert!(one.units_of("leaf").is_empty());
    let mid = one.units_of("mid");
    assert_eq!(mid.len(), 1);
    assert!(one.unit(mid[0]).partial, "mid's result depends on the cut");
    let main = one.units_of("main")[0];
    assert!(one.unit(main).partial);
    // q may now point anywhere leaf could make it point: x (kept) or
    // unknown, never definitely x.
    let q = lowered
        .program
        .functions
        .iter()
        .find(|f| &*f.name == "main")
        .unwrap();
    let qv = q.vars.iter().position(|v| &*v.name == "q").unwrap();
    let rv = Rvalue::Use(pointee_ir::Place::var(pointee_ir::VarId(qv as u32)));
    let last = Point::Before(StmtId(q.stmt_count - 1));
    let got = Analysis::merge_values(&one.values_at("main", last, &rv)).unwrap();
    let got: Vec<(String, bool)> = got.iter().map(|&(l, d)| (one.name(l), d)).collect();
    assert!(got.contains(&("unknown".to_string(), false)), "{got:?}");
    assert!(got.iter().all(|t| !t.1), "{got:?}");
    // Enough steps: the full result.
    let mut all = pointee_flow::analyze(p, steps(2));
    assert!(all.partial().is_none());
    let got = Analysis::merge_values(&all.values_at("main", last, &rv)).unwrap();
    let got: Vec<(String, bool)> = got.iter().map(|&(l, d)| (all.name(l), d)).collect();
    assert_eq!(got, [("y".to_string(), true)]);
}

/// A function the budget stopped before any of its contexts ("not
/// analysed") answers no alias check `unreachable` (nor `no`, `must`): a
/// run may reach its points with anything. Found by the command-line
/// oracle (seed 53 with first-member casts: the last call of `main`, to a
/// function nothing else called, cut off after unknown code's callbacks
/// spent the budget).
#[test]
fn a_function_not_analysed_answers_may() {
    let text = "int x, y;\n\
        void leaf(int *a, int *b) { *(&a) = b; }\n\
        int main(void) { leaf(&x, &y); leaf(&x, &x); return 0; }\n";
    let lowered = pointee_c::lower(&[("n.c", text)]).unwrap();
    let p = &lowered.program;
    let leaf = p.functions.iter().find(|f| &*f.name == "leaf").unwrap();
    let var = |n: &str| {
        let v = leaf.vars.iter().position(|v| &*v.name == n).unwrap();
        Rvalue::Use(pointee_ir::Place::var(pointee_ir::VarId(v as u32)))
    };
    let (a, b) = (var("a"), var("b"));
    let at = Point::Before(StmtId(0));
    let mut full = pointee_flow::analyze(p, Settings::default());
    assert_eq!(full.alias("leaf", at, &a, &b), Alias::May);
    assert_eq!(full.alias("leaf", at, &a, &a), Alias::Must);
    let mut none = pointee_flow::analyze(p, steps(0));
    assert!(none.units_of("leaf").is_empty(), "leaf not analysed");
    assert!(none.is_incomplete("leaf"));
    assert!(Analysis::merge_values(&none.values_at("leaf", at, &a)).is_none());
    assert_eq!(none.alias("leaf", at, &a, &b), Alias::May);
    assert_eq!(none.alias("leaf", at, &a, &a), Alias::May);
}

/// The time budget and the memory ceiling stop a run too (the assertion
/// is on the kind, not on how far it got: that depends on the machine).
#[test]
fn time_and_memory_budgets_stop_a_run() {
    let mut text = String::from("int x; int *g;\n");
    for i in 0..600 {
        text.push_str(&format!("void f{i}(int **p) {{ *p = &x; }}\n"));
    }
    text.push_str("int main(void) { int *q = 0;\n");
    for i in 0..600 {
        text.push_str(&format!("  f{i}(&q);\n"));
    }
    text.push_str("  g = q; return 0; }\n");
    let lowered = pointee_c::lower(&[("t.c", &text)]).unwrap();
    let p = &lowered.program;
    let a = pointee_flow::analyze(p, no_time());
    assert_eq!(a.partial().map(|p| p.spent), Some(Spent::Time));
    let probe = MemoryProbe(Some(Arc::new(|| 100)));
    let memory = |mb| Settings {
        budget: Budget {
            memory_mb: Some(mb),
            memory_probe: probe.clone(),
            ..Default::default()
        },
        ..Default::default()
    };
    let a = pointee_flow::analyze(p, memory(50));
    let partial = a.partial().expect("over the ceiling");
    assert_eq!(partial.spent, Spent::Memory);
    assert_eq!(partial.steps, 0, "the probe is asked at the first look");
    assert!(pointee_flow::analyze(p, memory(200)).partial().is_none());
}

/// Unknown code's work counts against the step budget: each pass over
/// what it reaches and each callback it calls is a step, so a program
/// whose one call is to unknown code reaching many callbacks stops at a
/// small budget (it ran to its end, uncounted, before) and answers
/// soundly: the callbacks not analysed are incomplete.
#[test]
fn unknown_code_and_its_callbacks_count_against_the_step_budget() {
    let mut text = String::from("int x; int *g;\nvoid ext(void (**t)(void));\n");
    for i in 0..40 {
        text.push_str(&format!("void cb{i}(void) {{ g = &x; }}\n"));
    }
    text.push_str("void (*table[40])(void) = {");
    for i in 0..40 {
        text.push_str(&format!("cb{i}, "));
    }
    text.push_str("};\nint main(void) { ext(table); return g == 0; }\n");
    let lowered = pointee_c::lower(&[("u.c", &text)]).unwrap();
    let p = &lowered.program;
    let full = pointee_flow::analyze(p, steps(1000));
    assert!(full.partial().is_none(), "1000 steps are enough");
    let a = pointee_flow::analyze(p, steps(4));
    let partial = a.partial().expect("the callbacks are counted");
    assert_eq!(partial.spent, Spent::Steps);
    assert!(
        partial.incomplete.len() >= 30,
        "most callbacks were cut off: {:?}",
        partial.incomplete
    );
}

/// The clock is looked at between statements, not only at calls: a body
/// of thousands of statements before its one call stops at a time budget
/// (looked at every 256 calls before, this run never saw its clock).
#[test]
fn the_time_budget_is_looked_at_inside_a_long_body() {
    let mut text = String::from("int x, y; int *g;\nvoid f(void) { g = &y; }\n");
    text.push_str("int main(void) { int *q = &x;\n");
    for _ in 0..2000 {
        text.push_str("  q = &x;\n");
    }
    text.push_str("  f(); return 0; }\n");
    let lowered = pointee_c::lower(&[("long.c", &text)]).unwrap();
    let p = &lowered.program;
    let a = pointee_flow::analyze(p, no_time());
    let partial = a.partial().expect("stopped by the clock before the call");
    assert_eq!(partial.spent, Spent::Time);
    assert_eq!(partial.steps, 0, "no call analysed");
    let names: Vec<String> = partial.incomplete.iter().map(|n| n.to_string()).collect();
    // `main` itself may be given up too when the rest of its body takes
    // longer than the grace past the budget (a slow debug build).
    assert!(names == ["f"] || names == ["f", "main"], "{names:?}");
    assert!(a.units_of("f").is_empty());
}

/// A run reports `partial` exactly when the budget cut something off: a
/// budget that runs out on a call answered from the memo (nothing left to
/// analyse) is a complete run, with the full run's answers.
#[test]
fn a_budget_spent_with_nothing_cut_off_is_not_partial() {
    let text = "int x, y; int *g;\n\
        void set(int **p) { *p = &y; }\n\
        int main(void) { int *q = &x; int *r = &x; set(&q); set(&r); g = q; q = r; return 0; }\n";
    let lowered = pointee_c::lower(&[("memo.c", text)]).unwrap();
    let p = &lowered.program;
    let mut full = pointee_flow::analyze(p, Settings::default());
    let mut one = pointee_flow::analyze(p, steps(1));
    // The second call (same mapped input: a pointer to a local pointing
    // to x) is past the budget but is the first one's memo hit.
    assert!(one.partial().is_none(), "nothing was cut off");
    assert_eq!(answers(&mut one, p), answers(&mut full, p));
    assert!(pointee_flow::analyze(p, steps(0)).partial().is_some());
}

/// Past the budget, the calls one indirect call site would cut off are cut
/// off together: one pass over what they all reach, not one per target (a
/// table of 3,000 function pointers called through one site took 10.8 s
/// of CPU at a budget of 0 steps in a release build, one cut-off summary
/// per target). The answer is the cut-off's: `unknown` possibly, every
/// target incomplete. The wall time is only a generous guard.
#[test]
fn a_table_of_function_pointers_past_the_budget_is_cut_off_in_one_pass() {
    let n = 3000;
    let mut text = String::from("int x, y; int *g0, *g1, *g2;\n");
    for i in 0..n {
        text.push_str(&format!(
            "void f{i}(int **p) {{ *p = &y; g{} = &x; }}\n",
            i % 3
        ));
    }
    text.push_str("void (*table[])(int **) = {");
    for i in 0..n {
        text.push_str(&format!("f{i}, "));
    }
    text.push_str("};\nint main(int argc, char **argv) { int *q = &x;\n");
    text.push_str("  table[argc](&q); g0 = q; return 0; }\n");
    let lowered = pointee_c::lower(&[("table.c", &text)]).unwrap();
    let p = &lowered.program;
    let started = std::time::Instant::now();
    let mut a = pointee_flow::analyze(p, steps(0));
    let took = started.elapsed();
    let partial = a.partial().expect("every target cut off");
    assert_eq!(partial.steps, 0);
    assert_eq!(partial.incomplete.len(), n);
    assert!(a.units_of("f0").is_empty() && a.units_of("f2999").is_empty());
    let main = p.functions.iter().find(|f| &*f.name == "main").unwrap();
    let qv = main.vars.iter().position(|v| &*v.name == "q").unwrap();
    let rv = Rvalue::Use(pointee_ir::Place::var(pointee_ir::VarId(qv as u32)));
    let last = Point::Before(StmtId(main.stmt_count - 1));
    let got = Analysis::merge_values(&a.values_at("main", last, &rv)).unwrap();
    let got: Vec<(String, bool)> = got.iter().map(|&(l, d)| (a.name(l), d)).collect();
    assert!(got.contains(&("x".to_string(), false)), "{got:?}");
    assert!(got.contains(&("unknown".to_string(), false)), "{got:?}");
    assert!(got.iter().all(|t| !t.1), "{got:?}");
    assert!(took.as_secs() < 60, "{took:?} for one cut-off call site");
}

/// `main` calls `f` first (the call a budget of 0 steps cuts off), then
/// walks `n` assignments.
fn call_then_long_body(n: usize) -> String {
    let mut text = String::from("int x, y; int *g;\nvoid f(int **p) { *p = &y; }\n");
    text.push_str("int main(void) { int *q = &x; f(&q);\n");
    for _ in 0..n {
        text.push_str("  q = &x;\n");
    }
    text.push_str("  g = q; return 0; }\n");
    text
}

/// Past the budget the open bodies finish their pass only within a grace
/// (statements, deterministic; or a share of the time): then they are
/// given up, and what called them cuts the call off. Here `main`'s first
/// call spends the budget and 6,000 statements follow: `main` is given
/// up (no context, incomplete) instead of walked to its end. Before, a
/// body whose statements grew slow past the budget (Lua's `ldo.c` at
/// `--budget-ms 1000`) ran past 60 s.
#[test]
fn open_bodies_past_the_budget_are_given_up_after_a_grace() {
    let lowered = pointee_c::lower(&[("grace.c", &call_then_long_body(6000))]).unwrap();
    let p = &lowered.program;
    let a = pointee_flow::analyze(p, steps(0));
    let partial = a.partial().expect("partial");
    let names: Vec<String> = partial.incomplete.iter().map(|n| n.to_string()).collect();
    assert_eq!(names, ["f", "main"]);
    assert!(given_up(&a, "main"), "main given up");
    assert!(a.is_incomplete("main"));
    // A shorter body finishes its pass within the grace.
    let mut text = String::from("int x, y; int *g;\nvoid f(int **p) { *p = &y; }\n");
    text.push_str("int main(void) { int *q = &x; f(&q); q = &x; g = q; return 0; }\n");
    let lowered = pointee_c::lower(&[("short.c", &text)]).unwrap();
    let a = pointee_flow::analyze(&lowered.program, steps(0));
    assert!(!given_up(&a, "main"));
    let names: Vec<String> = a
        .partial()
        .expect("partial")
        .incomplete
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(names, ["f"]);
}

/// The memory ceiling holds absolutely: past it the open bodies get no
/// grace (a step budget's grace would let `short.c`'s `main` finish its
/// pass, as above), and a grace given for another limit ends as soon as
/// the probe reports the ceiling reached. Counted by the probe's own
/// reports, not by the machine's memory.
#[test]
fn the_memory_ceiling_gives_no_grace() {
    let text = "int x, y; int *g;\nvoid f(int **p) { *p = &y; }\n\
                int main(void) { int *q = &x; f(&q); q = &x; g = q; return 0; }\n";
    let lowered = pointee_c::lower(&[("short.c", text)]).unwrap();
    let p = &lowered.program;
    let over = |steps: Option<u64>| Settings {
        budget: Budget {
            steps,
            memory_mb: Some(50),
            memory_probe: MemoryProbe(Some(Arc::new(|| 100))),
            ..Default::default()
        },
        ..Default::default()
    };
    let a = pointee_flow::analyze(p, over(None));
    let partial = a.partial().expect("partial");
    assert_eq!(partial.spent, Spent::Memory);
    assert!(given_up(&a, "main"), "main given up at once");
    assert!(a.is_incomplete("main") && a.is_incomplete("f"));
    // A step budget spent first: its grace (5,000 statements) would
    // cover 3,000 more, but the probe reports the ceiling reached.
    let lowered = pointee_c::lower(&[("grace.c", &call_then_long_body(3000))]).unwrap();
    let p = &lowered.program;
    let a = pointee_flow::analyze(p, steps(0));
    assert!(!given_up(&a, "main"), "within the step grace");
    let a = pointee_flow::analyze(p, over(Some(0)));
    assert_eq!(a.partial().map(|p| p.spent), Some(Spent::Steps));
    assert!(given_up(&a, "main"), "grace ended by the ceiling");
    assert!(a.is_incomplete("main"));
}

/// A body given up walks no further: every statement gives bottom, labels
/// and loops too. A label keeps the state its gotos brought before the
/// body was given up, and the walk went on from it (Lua's `lvm.c` went on
/// 77 s past its memory ceiling, and past 4 GB at the default one,
/// cloning states at labels). Here 3,000 labels reached by gotos before
/// the ceiling: counted by the interrupt, asked every 256 statements, the
/// walk past the ceiling is not one interrupt's worth.
#[test]
fn a_body_given_up_walks_no_further() {
    let n = 3000;
    let mut text =
        String::from("int x, c; int *g;\nint main(void) {\n  int *q = &x;\n  switch (c) {\n");
    for i in 0..n {
        text.push_str(&format!("  case {i}: goto L{i};\n"));
    }
    text.push_str("  }\n");
    for _ in 0..8 {
        text.push_str("  q = &x;\n");
    }
    for i in 0..n {
        text.push_str(&format!("  L{i}: q = &x;\n"));
    }
    text.push_str("  g = q; return 0; }\n");
    let lowered = pointee_c::lower(&[("labels.c", &text)]).unwrap();
    let p = &lowered.program;
    let asked = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let settings = |memory_mb: Option<u64>| {
        let asked = asked.clone();
        Settings {
            interrupt: Interrupt(Some(Arc::new(move || {
                asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                false
            }))),
            budget: Budget {
                memory_mb,
                memory_probe: MemoryProbe(Some(Arc::new(|| 100))),
                ..Default::default()
            },
            ..Default::default()
        }
    };
    let full = pointee_flow::analyze(p, settings(None));
    assert!(full.partial().is_none());
    let walked = asked.swap(0, std::sync::atomic::Ordering::SeqCst);
    assert!(
        walked >= n / 256,
        "the full walk is {walked} interrupts long"
    );
    let a = pointee_flow::analyze(p, settings(Some(50)));
    assert_eq!(a.partial().map(|p| p.spent), Some(Spent::Memory));
    assert!(given_up(&a, "main"), "main given up");
    assert_eq!(asked.load(std::sync::atomic::Ordering::SeqCst), 0);
}

/// The time limit covers the queries made after the run (the checkers'
/// replays) once they are bounded by it: past the limit, a query that
/// would replay answers what an incomplete function answers, and says so.
/// A limit of 0 ms is past at once, and a run of two statements and no
/// call never looks at the clock: it finishes, complete.
#[test]
fn bounded_queries_past_the_time_limit_answer_without_replaying() {
    let text = "int x; int *g;\nint main(void) { int *q = &x; g = q; return 0; }\n";
    let lowered = pointee_c::lower(&[("late.c", text)]).unwrap();
    let p = &lowered.program;
    let main = p.functions.iter().find(|f| &*f.name == "main").unwrap();
    let mut last = None;
    pointee_ir::for_each_basic(&main.body, &mut |id, _| last = Some(id));
    let at = Point::Before(last.unwrap());
    let qi = main.vars.iter().position(|v| &*v.name == "q").unwrap();
    let q = Rvalue::Use(pointee_ir::Place::var(pointee_ir::VarId(qi as u32)));
    let settings = Settings {
        budget: Budget {
            time: Some(std::time::Duration::ZERO),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut a = pointee_flow::analyze(p, settings.clone());
    assert!(a.partial().is_none(), "the run itself finished");
    let exact = a.values_at("main", at, &q);
    let exact = Analysis::merge_values(&exact).unwrap();
    assert_eq!(exact.len(), 1);
    assert!(exact[0].1, "q definitely points to x");
    assert!(a.queries_partial().is_none(), "not bounded");
    // (A kept replay still answers: a fresh analysis.)
    let mut a = pointee_flow::analyze(p, settings);
    a.bound_queries_by_budget(true);
    let late = Analysis::merge_values(&a.values_at("main", at, &q)).unwrap();
    assert!(
        late.contains(&(UNKNOWN, false)) && late.iter().all(|t| !t.1),
        "{late:?}"
    );
    let partial = a.queries_partial().expect("said");
    assert_eq!(partial.spent, Spent::Time);
    let names: Vec<String> = partial.incomplete.iter().map(|n| n.to_string()).collect();
    assert_eq!(names, ["main"]);
}

/// `func` has one context, whose body the budget gave up part-way (kept
/// for queries, with no result).
fn given_up(a: &Analysis<'_>, func: &str) -> bool {
    let units = a.units_of(func);
    units.len() == 1 && a.unit(units[0]).output.is_none() && a.unit(units[0]).partial
}

/// A partial result keeps what finished before the stop: `main` given up
/// past the grace still answers at the statements it walked, with the
/// units of the calls analysed before the stop, soundly (its answers are
/// incomplete: `unknown` added, nothing definite). It kept nothing before
/// (whole Lua under a 30 s budget answered nothing in `main`).
#[test]
fn a_body_given_up_keeps_what_it_finished() {
    let mut text = String::from(
        "int x, y; int *g;\nvoid f(int **p) { *p = &y; }\nvoid h(int **p) { *p = &x; }\n\
         int main(void) { int *q = &x; void (*fp)(int **) = h;\n  f(&q);\n  fp(&q);\n  f(&q);\n",
    );
    for _ in 0..6000 {
        text.push_str("  q = &x;\n");
    }
    text.push_str("  g = q; return 0; }\n");
    let lowered = pointee_c::lower(&[("kept.c", &text)]).unwrap();
    let p = &lowered.program;
    let main = p.functions.iter().find(|f| &*f.name == "main").unwrap();
    let mut indirect = None;
    pointee_ir::for_each_basic(&main.body, &mut |id, b| {
        if let Basic::Call {
            callee: Callee::Indirect(_),
            ..
        } = b
        {
            indirect = Some(id);
        }
    });
    let indirect = indirect.unwrap();
    let qi = main.vars.iter().position(|v| &*v.name == "q").unwrap();
    let q = Rvalue::Use(pointee_ir::Place::var(pointee_ir::VarId(qi as u32)));
    let full = {
        let mut a = pointee_flow::analyze(p, Settings::default());
        Analysis::merge_values(&a.values_at("main", Point::After(indirect), &q)).unwrap()
    };
    // Two calls analysed; the third (a memo hit) spends the budget, and
    // 6,000 statements outlast the grace.
    let mut a = pointee_flow::analyze(p, steps(2));
    assert!(a.partial().is_some());
    assert!(given_up(&a, "main"));
    assert!(a.is_incomplete("main"));
    let callees: Vec<String> = a
        .callees("main", indirect)
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(callees, ["h"]);
    let late = Analysis::merge_values(&a.values_at("main", Point::After(indirect), &q)).unwrap();
    for &(t, _) in &full {
        assert!(late.iter().any(|l| l.0 == t), "{full:?} kept in {late:?}");
    }
    assert!(
        late.contains(&(UNKNOWN, false)) && late.iter().all(|t| !t.1),
        "{late:?}"
    );
}

/// A query's replay holds to the memory ceiling too: one that reaches it
/// is given up, and the query answers as for an incomplete function, and
/// says so. (Keeping the units of bodies given up part-way made the
/// checkers replay `luaV_execute` past the ceiling: lvm.c to 4 GB.) The
/// probe is asked at most every 20 ms: the test waits that long before
/// the query, so the replay's first look asks it.
#[test]
fn a_replay_past_the_memory_ceiling_is_given_up() {
    let mut text = String::from("int x; int *g;\nint main(void) { int *q = &x;\n");
    for _ in 0..40 {
        text.push_str("  q = &x;\n");
    }
    text.push_str("  g = q; return 0; }\n");
    let lowered = pointee_c::lower(&[("replay.c", &text)]).unwrap();
    let p = &lowered.program;
    let main = p.functions.iter().find(|f| &*f.name == "main").unwrap();
    let mut last = None;
    pointee_ir::for_each_basic(&main.body, &mut |id, _| last = Some(id));
    let at = Point::Before(last.unwrap());
    let qi = main.vars.iter().position(|v| &*v.name == "q").unwrap();
    let q = Rvalue::Use(pointee_ir::Place::var(pointee_ir::VarId(qi as u32)));
    let mb = Arc::new(std::sync::atomic::AtomicU64::new(10));
    let probe = mb.clone();
    let settings = Settings {
        budget: Budget {
            memory_mb: Some(50),
            memory_probe: MemoryProbe(Some(Arc::new(move || {
                probe.load(std::sync::atomic::Ordering::SeqCst)
            }))),
            ..Default::default()
        },
        ..Default::default()
    };
    let mut a = pointee_flow::analyze(p, settings);
    assert!(a.partial().is_none(), "under the ceiling");
    mb.store(100, std::sync::atomic::Ordering::SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(40));
    let v = Analysis::merge_values(&a.values_at("main", at, &q)).unwrap();
    assert_eq!(v, [(UNKNOWN, false)]);
    let partial = a.queries_partial().expect("said");
    assert_eq!(partial.spent, Spent::Memory);
    mb.store(10, std::sync::atomic::Ordering::SeqCst);
    std::thread::sleep(std::time::Duration::from_millis(40));
    let v = Analysis::merge_values(&a.values_at("main", at, &q)).unwrap();
    assert_eq!(v.len(), 1);
    assert!(v[0].1, "replayed again under the ceiling: {v:?}");
}

/// Queries replay bodies (the facts inside a body are never stored), and
/// checkers ask at every point of every unit: the replays kept were every
/// point's state of every unit asked so far, which took `pointee check
/// inflate.c` to 1.3 GB past a ceiling of 300 MB after the run had
/// finished under it. Kept replays are bounded in facts: here a cap far
/// below what the program's states hold, asked in body order and then
/// backwards (which replays again from the point asked), holds at most
/// twice the cap and answers every point exactly as unbounded replays do.
#[test]
fn replays_kept_for_queries_are_bounded_and_answer_the_same() {
    let mut text = String::from("int x0, x1, x2, x3;\n");
    for i in 0..40 {
        text.push_str(&format!("int *g{i};\n"));
    }
    for f in 0..12 {
        text.push_str(&format!("void f{f}(int *a) {{\n"));
        for i in 0..40 {
            text.push_str(&format!("  g{i} = &x{};\n", (i + f) % 4));
            text.push_str(&format!("  if (a) g{} = a;\n", (i * 7 + f) % 40));
        }
        text.push_str("}\n");
    }
    text.push_str("int main(void) { int y;\n");
    for f in 0..12 {
        text.push_str(&format!("  f{f}(&y); f{f}(0);\n"));
    }
    text.push_str("  return 0; }\n");
    let lowered = pointee_c::lower(&[("replays.c", &text)]).unwrap();
    let p = &lowered.program;
    let mut points: Vec<(String, Point)> = Vec::new();
    for f in &p.functions {
        pointee_ir::for_each_basic(&f.body, &mut |id, _| {
            points.push((f.name.to_string(), Point::Before(id)));
            points.push((f.name.to_string(), Point::After(id)));
        });
    }
    let mut full = pointee_flow::analyze(p, Settings::default());
    let mut capped = pointee_flow::analyze(p, Settings::default());
    let cap = 2_000;
    capped.set_replay_facts(cap);
    let mut largest = 0;
    let mut asked = 0;
    for (func, point) in points.iter().chain(points.iter().rev()) {
        for u in full.units_of(func) {
            let want = full.facts_at(u, *point).cloned();
            largest = largest.max(want.as_ref().map_or(0, |f| f.len()));
            assert_eq!(
                capped.facts_at(u, *point),
                want.as_ref(),
                "{func} {point:?}"
            );
            assert!(capped.replay_facts_held() <= 2 * cap, "{func} {point:?}");
            asked += 1;
        }
    }
    assert!(asked > 4_000, "{asked} points asked");
    assert!(
        largest * 10 < cap,
        "a state ({largest} facts) is small against the cap"
    );
    assert!(
        full.replay_facts_held() > 10 * cap,
        "the program's states ({}) dwarf the cap",
        full.replay_facts_held()
    );
}
