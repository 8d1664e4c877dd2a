//! Call graphs of a real program against its runs (issue 14): bzip2 1.0.8
//! (the command-line program of `tests/real/bzip2.toml`, sources from
//! cargo's registry, never committed) built by gcc with `-O0 -fno-inline
//! -finstrument-functions` and the recorder of `src/call_runs.rs`, run on
//! real work (compress at two block sizes, decompress, test, small-memory
//! mode, stdin to stdout, a damaged file, a file that is not bzip2 data);
//! every observed caller-to-callee edge between two functions of the
//! program must be among pointee's outgoing calls of the caller.
//!
//! Needs gcc, nm and the sources (fetched through a throw-away Cargo
//! project, as `tests/real/smoke.sh` does); without them it skips with a
//! message, unless `CI` is set. A documented long run (ignored by `cargo
//! test`); the figures are in docs/reliability.md.

use pointee_fuzz::call_runs::{functions, have, observed, recorder};
use pointee_ide::{AnalysisHost, CModel, Change, Config};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

const UNITS: [&str; 8] = [
    "bzip2.c",
    "blocksort.c",
    "huffman.c",
    "crctable.c",
    "randtable.c",
    "compress.c",
    "decompress.c",
    "bzlib.c",
];
const FLAGS: [&str; 5] = [
    "-std=gnu99",
    "-w",
    "-O0",
    "-fno-inline",
    "-D_FILE_OFFSET_BITS=64",
];

fn skip_or_fail(why: &str) {
    assert!(std::env::var_os("CI").is_none(), "CI needs it: {why}");
    eprintln!("real call graphs: SKIPPED: {why}");
}

/// bzip2's sources in cargo's registry, fetched when they are not there.
fn bzip2_sources(work: &Path) -> Option<PathBuf> {
    let find = || {
        let home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
        std::fs::read_dir(home.join("registry/src"))
            .ok()?
            .flatten()
            .map(|e| e.path().join("bzip2-sys-0.1.13+1.0.8/bzip2-1.0.8"))
            .find(|p| p.join("bzlib.c").exists())
    };
    if let Some(p) = find() {
        return Some(p);
    }
    let fetch = work.join("fetch");
    std::fs::create_dir_all(fetch.join("src")).ok()?;
    std::fs::write(fetch.join("src/lib.rs"), "").ok()?;
    std::fs::write(
        fetch.join("Cargo.toml"),
        "[package]\nname = \"pointee-real-c-sources\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\nbzip2-sys = \"=0.1.13\"\n",
    )
    .ok()?;
    let ok = Command::new("cargo")
        .args(["fetch", "-q"])
        .current_dir(&fetch)
        .status()
        .is_ok_and(|s| s.success());
    ok.then(find).flatten()
}

/// Runs the instrumented bzip2 with `args` (stdin from `input` when
/// given), recording its calls; returns its exit code.
fn run(exe: &Path, args: &[&str], input: Option<&Path>, calls: &Path, dir: &Path) -> Option<i32> {
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .current_dir(dir)
        .env("POINTEE_CALLS", calls)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(i) = input {
        cmd.stdin(std::fs::File::open(i).unwrap());
    }
    cmd.status().unwrap().code()
}

// A long run, not CI: the whole-program analysis of bzip2 takes minutes in
// a debug build (3.4 s of CPU in a release build). Run it with
// `cargo test --release -p pointee-fuzz --test real_call_graphs -- --ignored --nocapture`.
#[test]
#[ignore = "a long run (docs/reliability.md): minutes of analysis in a debug build"]
fn every_observed_call_edge_of_bzip2_is_in_pointees_call_graph() {
    if !have("gcc") || !have("nm") {
        return skip_or_fail("gcc and nm");
    }
    let work = std::env::temp_dir().join(format!("pointee-real-calls-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let Some(src) = bzip2_sources(&work) else {
        return skip_or_fail("bzip2-sys 0.1.13's sources could not be fetched");
    };
    let dir = work.join("bzip2");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap().flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "c" || x == "h") {
            std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    std::fs::copy(
        pointee_fuzz::repo_root().join("tests/real/bzip2.toml"),
        dir.join("pointee.toml"),
    )
    .unwrap();

    // The instrumented program, and which unit defines each function.
    let exe = dir.join("bzip2-instrumented");
    let cc = Command::new("gcc")
        .args(FLAGS)
        .args(["-finstrument-functions", "-no-pie"])
        .args(UNITS.map(|u| dir.join(u)))
        .arg(recorder())
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "gcc: {}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let mut unit_of: BTreeMap<String, String> = BTreeMap::new();
    for u in UNITS {
        let obj = work.join(u.replace(".c", ".o"));
        let cc = Command::new("gcc")
            .args(FLAGS)
            .arg("-c")
            .arg(dir.join(u))
            .arg("-o")
            .arg(&obj)
            .output()
            .unwrap();
        assert!(cc.status.success(), "gcc -c {u}");
        for (_, name) in functions(&obj) {
            unit_of.insert(name, dir.join(u).to_string_lossy().into_owned());
        }
    }

    // Real work: a file of text, repeats and noise.
    let mut data = Vec::new();
    for u in UNITS {
        data.extend(std::fs::read(dir.join(u)).unwrap());
    }
    data.extend(std::iter::repeat_n(b'a', 100_000));
    let mut x = 12345u32;
    data.extend((0..200_000).map(|_| {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (x >> 16) as u8
    }));
    std::fs::write(dir.join("in"), &data).unwrap();
    std::fs::write(dir.join("empty"), b"").unwrap();
    std::fs::write(dir.join("notbz"), b"plain text, not bzip2 data\n").unwrap();
    let calls = |i: usize| work.join(format!("run{i}.calls"));
    let runs: Vec<(Vec<&str>, Option<&str>)> = vec![
        (vec!["-k", "-f", "in"], None),
        (vec!["-d", "-k", "-f", "in.bz2"], None),
        (vec!["-t", "in.bz2"], None),
        (vec!["-1", "-c", "-s"], Some("in")),
        (vec!["-d", "-c", "-s"], Some("in.bz2")),
        (vec!["-c"], Some("empty")),
        (vec!["-d", "-c"], Some("notbz")),
        (vec!["-tvv", "in.bz2"], None),
    ];
    let mut codes = Vec::new();
    for (i, (args, input)) in runs.iter().enumerate() {
        if i == 2 {
            // The round trip gave the data back.
            assert_eq!(std::fs::read(dir.join("in")).unwrap(), data);
        }
        codes.push(run(
            &exe,
            args,
            input.map(|f| dir.join(f)).as_deref(),
            &calls(i),
            &dir,
        ));
    }
    assert_eq!(&codes[..6], &[Some(0); 6], "runs of bzip2: {codes:?}");
    assert_eq!(codes[6], Some(2), "bzip2 -d on data that is not bzip2");
    let mut edges = BTreeSet::new();
    for i in 0..runs.len() {
        edges.extend(observed(&exe, &calls(i)));
    }

    // pointee's call graph of the program its model names.
    let mut files = Vec::new();
    let mut listing = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        listing.push(name.clone());
        if name.ends_with(".c") || name.ends_with(".h") {
            let path = e.path().to_string_lossy().into_owned();
            files.push((path, std::fs::read_to_string(e.path()).unwrap()));
        }
    }
    let root = dir.to_string_lossy().into_owned();
    let mut read = |p: &str| std::fs::read_to_string(p).map_err(|e| e.to_string());
    let model = CModel::read(&root, &listing, &mut read).expect("bzip2.toml reads");
    let mut host = AnalysisHost::with_system(Arc::new(pointee_lsp::disk::Disk));
    let mut change = Change::of_files(files, Config::default());
    change.set_c_model(Some(model));
    host.apply_change(change);
    let a = host.analysis();
    let started = std::time::Instant::now();
    let (mut checked, mut outside) = (0, 0);
    let mut missed = Vec::new();
    let mut outgoing = BTreeMap::new();
    for (caller, callee) in &edges {
        let (Some(caller), true) = (caller, unit_of.contains_key(callee)) else {
            outside += 1;
            continue;
        };
        let Some(unit) = unit_of.get(caller) else {
            outside += 1;
            continue;
        };
        checked += 1;
        let links = outgoing.entry(caller.clone()).or_insert_with(|| {
            let file = a.file_id(unit).expect("a unit of the program");
            a.outgoing_calls(file, caller)
                .unwrap()
                .into_iter()
                .map(|l| l.item.name)
                .collect::<BTreeSet<String>>()
        });
        if !links.contains(callee) {
            missed.push(format!("{caller} -> {callee}"));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    eprintln!(
        "bzip2: {} runs, {} distinct edges observed, {checked} between program functions checked, \
         {outside} from or to outside the program, {} missed; pointee's call graph took {:.1} s",
        runs.len(),
        edges.len(),
        missed.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(checked >= 50, "too little checked: {checked} edges");
    assert!(
        missed.is_empty(),
        "edges pointee's call graph misses:\n{}",
        missed.join("\n")
    );
}
