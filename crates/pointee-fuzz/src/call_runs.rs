//! Call graphs against real executions (`tests/call_graph_runs.rs` on the
//! fixtures, `tests/real_call_graphs.rs` on bzip2): a program built by gcc
//! with `-finstrument-functions` and the recorder
//! `tests/runtime/record_calls.c` writes each (callee, call site) pair it
//! runs; `nm` names the addresses (static functions too, which `dladdr`
//! cannot), and the observed edges are checked against pointee's call graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

/// How gcc builds a program whose calls the recorder writes: no
/// optimisation or inlining (every call the source makes is a call), the
/// entry hook in every function, addresses as `nm` prints them.
pub const INSTRUMENTED: &[&str] = &[
    "-std=gnu99",
    "-w",
    "-O0",
    "-fno-inline",
    "-finstrument-functions",
    "-no-pie",
];

/// The recorder's source.
pub fn recorder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/runtime/record_calls.c")
}

pub fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Text symbols of an executable, sorted by address: (address, name).
pub fn functions(exe: &Path) -> Vec<(u64, String)> {
    let out = Command::new("nm")
        .arg("-n")
        .arg(exe)
        .output()
        .expect("nm runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let (addr, kind, name) = (parts.next()?, parts.next()?, parts.next()?);
            matches!(kind, "T" | "t")
                .then(|| Some((u64::from_str_radix(addr, 16).ok()?, name.to_string())))?
        })
        .collect()
}

/// The function holding `addr` (the last symbol at or below it). An
/// address in a shared library lands past the executable's last text
/// symbol (`_fini`, not instrumented), so it never names a program
/// function.
pub fn function_at(funcs: &[(u64, String)], addr: u64) -> Option<&str> {
    let i = funcs.partition_point(|(a, _)| *a <= addr);
    (i > 0).then(|| funcs[i - 1].1.as_str())
}

/// Observed (caller, callee) edges of one run of `exe`; callers outside
/// the instrumented functions are `None`.
pub fn observed(exe: &Path, calls: &Path) -> BTreeSet<(Option<String>, String)> {
    observed_in(&functions(exe), calls)
}

/// [`observed`] with the executable's functions given (`functions`, some
/// renamed: two units' static functions of one name).
pub fn observed_in(funcs: &[(u64, String)], calls: &Path) -> BTreeSet<(Option<String>, String)> {
    let text = std::fs::read_to_string(calls).unwrap_or_default();
    let mut callees = BTreeSet::new();
    let mut raw = BTreeSet::new();
    for line in text.lines() {
        let mut it = line
            .split(' ')
            .map(|x| u64::from_str_radix(x, 16).unwrap_or(0));
        let (Some(f), Some(site)) = (it.next(), it.next()) else {
            continue;
        };
        raw.insert((f, site));
    }
    let exact: BTreeMap<u64, &str> = funcs.iter().map(|(a, n)| (*a, n.as_str())).collect();
    let mut edges = BTreeSet::new();
    for &(f, _) in &raw {
        if let Some(n) = exact.get(&f) {
            callees.insert(n.to_string());
        }
    }
    for (f, site) in raw {
        let Some(callee) = exact.get(&f) else {
            continue;
        };
        // A call site in an instrumented function of the program. `site`
        // is the return address, the instruction after the call: after a
        // call of a function that never returns (`l_noret`, `exit`) at the
        // end of its caller, that is the next function's first byte. The
        // call itself ends at `site - 1`.
        let caller = function_at(funcs, site.saturating_sub(1))
            .filter(|c| callees.contains(*c) || *c == "main")
            .map(str::to_string);
        edges.insert((caller, callee.to_string()));
    }
    edges
}
