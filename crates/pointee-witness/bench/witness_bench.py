#!/usr/bin/env python3
"""The witness benchmark (docs/benchmarks.md, "Witness inputs"): test
generation (`pointee witness --all`) on the data-structure programs of
fixtures/c/witness/bench, guided by points-to facts or plain, with and
without the `//@` preconditions. For each operation F (whose checker F_pre
says whether an input is valid, the seed's repOK) and each mode: inputs
generated, invalid inputs (F_pre says no), branch coverage of F by the
generated tests (gcov), paths explored and the search's time.

usage: witness_bench.py [POINTEE]   (default: target/release/pointee)
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
BENCH = os.path.join(ROOT, "fixtures/c/witness/bench")
POINTEE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/pointee")
MODES = [
    ("guided, requires", []),
    ("plain, requires", ["--plain"]),
    ("guided, no requires", ["--no-requires"]),
    ("plain, no requires", ["--plain", "--no-requires"]),
]
# A crash still writes the coverage data.
FAULT_HOOK = r"""
#include <signal.h>
#include <unistd.h>
extern void __gcov_dump(void);
static void pointee_bench_fault(int sig) { (void)sig; __gcov_dump(); _exit(4); }
__attribute__((constructor)) static void pointee_bench_init(void)
{ signal(SIGSEGV, pointee_bench_fault); signal(SIGBUS, pointee_bench_fault); }
"""


def operations(path):
    """(name, line, column) of each function F with a checker F_pre."""
    text = open(path).read().split("\n")
    names = set(re.findall(r"^int (\w+)_pre\(", "\n".join(text), re.M))
    out = []
    for i, line in enumerate(text):
        m = re.match(r"^[a-z].*?\b(\w+)\(", line)
        if m and m.group(1) in names and not line.rstrip().endswith(";"):
            out.append((m.group(1), i + 1, m.start(1) + 1))
    return out


def branches(gcda, source, function):
    """{(line, index): taken} of `function`'s branches in `source`."""
    out = subprocess.run(["gcov", "-b", "--json-format", "--stdout", gcda],
                         capture_output=True, text=True, cwd=os.path.dirname(gcda))
    data = json.loads(out.stdout)
    taken = {}
    for f in data["files"]:
        if os.path.abspath(f["file"]) != source:
            continue
        span = [(fn["start_line"], fn["end_line"]) for fn in f["functions"] if fn["name"] == function]
        if not span:
            continue
        lo, hi = span[0]
        for line in f["lines"]:
            if lo <= line["line_number"] <= hi:
                for i, b in enumerate(line["branches"]):
                    taken[(line["line_number"], i)] = b["count"] > 0
    return taken


def measure(source, name, line, col, flags, work):
    tests = os.path.join(work, "tests")
    shutil.rmtree(tests, ignore_errors=True)
    t0 = time.perf_counter()
    out = subprocess.run([POINTEE, "witness", f"{source}:{line}:{col}", "--all",
                          "--emit-test", tests, "--format", "json", "--paths", "100",
                          "--time-ms", "60000",
                          # as recorded: inputs where every allocation succeeds
                          "--assume-alloc-succeeds"] + flags,
                         capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    answer = json.loads(out.stdout)
    hook = os.path.join(work, "hook.h")
    open(hook, "w").write(FAULT_HOOK)
    invalid = 0
    covered = {}
    for test in sorted(os.listdir(tests)) if os.path.isdir(tests) else []:
        exe = os.path.join(tests, test[:-2])
        subprocess.run(["gcc", "--coverage", "-O0", "-w", "-include", hook,
                        f"-DPOINTEE_CHECK={name}_pre", "-o", exe, os.path.join(tests, test)],
                       check=True, cwd=tests)
        run = subprocess.run([exe], capture_output=True, cwd=tests, timeout=10)
        if run.returncode == 3:
            invalid += 1
            continue
        stem = test[:-2]
        gcda = [g for g in os.listdir(tests) if g == stem + ".gcda" or
                (g.startswith(stem + "-") and g.endswith(".gcda"))]
        for g in gcda:
            for k, v in branches(os.path.join(tests, g), source, name).items():
                covered[k] = covered.get(k, False) or v
            os.remove(os.path.join(tests, g))
    total = len(covered)
    hit = sum(covered.values())
    return answer, invalid, hit, total, seconds


def main():
    work = tempfile.mkdtemp(prefix="pointee-witness-bench-")
    print("| operation | mode | inputs | invalid | branches covered | paths | s |")
    print("|---|---|---:|---:|---:|---:|---:|", flush=True)
    sums = {m: [0, 0, 0, 0, 0.0] for m, _ in MODES}
    for file in sorted(os.listdir(BENCH)):
        if not file.endswith(".c"):
            continue
        source = os.path.join(BENCH, file)
        for name, line, col in operations(source):
            for mode, flags in MODES:
                a, invalid, hit, total, seconds = measure(source, name, line, col, flags, work)
                s = sums[mode]
                s[0] += a["inputs"]; s[1] += invalid; s[2] += hit; s[3] += total; s[4] += seconds
                row = (f"| {file}:{name} | {mode} | {a['inputs']} | {invalid} | "
                       f"{hit}/{total} | {a['stats']['paths']} | {seconds:.2f} |")
                print(row, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print()
    print("| mode | inputs | invalid | branch coverage | s |")
    print("|---|---:|---:|---:|---:|")
    for mode, _ in MODES:
        i, inv, hit, total, sec = sums[mode]
        pct = 100.0 * hit / total if total else 0.0
        print(f"| {mode} | {i} | {inv} | {hit}/{total} = {pct:.1f}% | {sec:.1f} |")


if __name__ == "__main__":
    main()
