#!/usr/bin/env python3
"""The Java witness benchmark (docs/benchmarks.md, "Witness inputs", the
Java rows): test generation (`pointee witness --all`) on the programs of
fixtures/witness-java/bench, guided by the Java analysis's points-to sets
or plain, with and without the `//@` preconditions. For each operation F
(whose static predicate F_pre says whether an input is valid, the seed's
repOK) and each mode: inputs generated, invalid inputs (the emitted test
run with -Dpointee.check=F_pre exits with 3), paths explored and the
search's time. Branch coverage is not measured: the JDK has no coverage
tool of its own (JaCoCo is not installed).

usage: witness_bench_java.py [POINTEE]   (default: target/release/pointee)
"""
import glob, json, os, re, shutil, subprocess, sys, tempfile, time

# The C benchmark's root, binary and modes.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from witness_bench import MODES, POINTEE, ROOT

BENCH = os.path.join(ROOT, "fixtures/witness-java/bench")


def operations(path):
    """(name, line, column) of each static method F with a predicate F_pre."""
    text = open(path).read().split("\n")
    names = set(re.findall(r"static boolean (\w+)_pre\(", "\n".join(text)))
    out = []
    for i, line in enumerate(text):
        m = re.match(r"^\s*static \w+ (\w+)\(", line)
        if m and m.group(1) in names:
            out.append((m.group(1), i + 1, m.start(1) + 1))
    return out


def run(source, name, line, col, flags, work):
    tests = os.path.join(work, "tests")
    shutil.rmtree(tests, ignore_errors=True)
    start = time.time()
    out = subprocess.run([POINTEE, "witness", f"{source}:{line}:{col}", "--all",
                          "--emit-test", tests, "--format", "json", "--paths", "100",
                          "--time-ms", "60000"] + flags,
                         capture_output=True, text=True, check=True)
    seconds = time.time() - start
    v = json.loads(out.stdout)
    classes = sorted(glob.glob(os.path.join(tests, "*.java")))
    invalid = 0
    if classes:
        build = os.path.join(work, "classes")
        shutil.rmtree(build, ignore_errors=True)
        subprocess.run(["javac", "-d", build, source] + classes, check=True)
        for c in classes:
            cls = os.path.splitext(os.path.basename(c))[0]
            r = subprocess.run(["java", "-cp", build, f"-Dpointee.check={name}_pre", cls],
                               capture_output=True, text=True)
            invalid += r.returncode == 3
    return len(classes), invalid, v["stats"]["paths"], seconds


def main():
    work = tempfile.mkdtemp(prefix="pointee-witness-bench-java-")
    totals = {m: [0, 0, 0] for m, _ in MODES}
    print("| operation | mode | inputs | invalid | paths | s |")
    print("|---|---|---:|---:|---:|---:|", flush=True)
    for source in sorted(glob.glob(os.path.join(BENCH, "*.java"))):
        for name, line, col in operations(source):
            for mode, flags in MODES:
                n, bad, paths, s = run(source, name, line, col, flags, work)
                t = totals[mode]
                t[0] += 1
                t[1] += n
                t[2] += bad
                print(f"| {os.path.basename(source)}:{name} | {mode} | {n} | {bad} | {paths} | {s:.2f} |",
                      flush=True)
    print()
    print("| mode | operations | inputs | invalid |")
    print("|---|---:|---:|---:|")
    for mode, _ in MODES:
        ops, n, bad = totals[mode]
        print(f"| {mode} | {ops} | {n} | {bad} |")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
