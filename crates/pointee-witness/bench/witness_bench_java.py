#!/usr/bin/env python3
"""The Java witness benchmark (docs/benchmarks.md, "Witness inputs", the
Java rows): test generation (`pointee witness --all`) on the programs of
fixtures/witness-java/bench, guided by the Java analysis's points-to sets
or plain, with and without the `//@` preconditions. For each operation F
(whose static predicate F_pre says whether an input is valid, the seed's
repOK) and each mode: inputs generated, invalid inputs (the emitted test
run with -Dpointee.check=F_pre exits with 3), paths explored and the
search's time, and branch coverage of F by the valid inputs' tests.

Branch coverage: the JDK has no coverage tool of its own (JaCoCo is not
installed), so the script instruments a copy of the program: in F's body,
each condition of an `if`, `while`, `for` or `?:` becomes
`PointeeCov.b(K, condition)`, which records which of its two outcomes ran
and is written out when the JVM exits (`-Dpointee.cov=FILE`). A condition
is two branches, as gcov counts them; each side of a top-level `&&` or
`||` is a condition of its own, as in gcov.

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


COV_CLASS = r"""
public class PointeeCov {
    static final java.util.Set<String> taken = new java.util.TreeSet<>();
    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (java.io.PrintWriter w = new java.io.PrintWriter(System.getProperty("pointee.cov"))) {
                for (String t : taken) w.println(t);
            } catch (java.io.IOException e) {
                throw new RuntimeException(e);
            }
        }));
    }
    public static boolean b(int k, boolean c) {
        taken.add(k + (c ? "+" : "-"));
        return c;
    }
}
"""


def closing(text, i):
    """The index of the `)` that closes the `(` at `i`."""
    depth = 0
    for j in range(i, len(text)):
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        if depth == 0:
            return j
    raise ValueError("unbalanced")


def sides(text, a, b):
    """The spans of the operands of a top-level `&&` or `||` in
    `text[a:b]` (the whole span when there is none)."""
    out, depth, start, i = [], 0, a, a
    while i < b:
        c = text[i]
        depth += {"(": 1, ")": -1}.get(c, 0)
        if depth == 0 and text[i:i + 2] in ("&&", "||"):
            out.append((start, i))
            start = i + 2
            i += 2
            continue
        i += 1
    out.append((start, b))
    return out


def instrument(text, line):
    """`text` with the conditions of the method that starts at `line`
    wrapped in `PointeeCov.b(K, ...)`, and the number K of them."""
    start = sum(len(l) + 1 for l in text.split("\n")[: line - 1])
    body = text.index("{", start)
    depth, end = 0, body
    for end in range(body, len(text)):
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        if depth == 0:
            break
    method = text[body:end]
    spans = []  # (start, end) of each condition in `method`
    for m in re.finditer(r"\b(if|while|for)\s*\(", method):
        open_ = m.end() - 1
        close = closing(method, open_)
        if m.group(1) == "for":
            parts = method[open_ + 1:close].split(";")
            if len(parts) != 3 or not parts[1].strip():
                continue
            a = open_ + 1 + len(parts[0]) + 1
            spans.append((a, a + len(parts[1])))
        else:
            spans.append((open_ + 1, close))
    for m in re.finditer(r"return ([^;?]+)\?", method):
        spans.append((m.start(1), m.end(1)))
    spans = [s for a, b in spans for s in sides(method, a, b)]
    for k, (a, b) in sorted(enumerate(spans), key=lambda e: -e[1][0]):
        method = method[:a] + f"PointeeCov.b({k}, {method[a:b].strip()})" + method[b:]
    return text[:body] + method + text[end:], len(spans)


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
    text, conditions = instrument(open(source).read(), line)
    taken = set()
    if classes:
        build = os.path.join(work, "classes")
        src = os.path.join(work, "src")
        for d in (build, src):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        copy = os.path.join(src, os.path.basename(source))
        open(copy, "w").write(text)
        cov = os.path.join(src, "PointeeCov.java")
        open(cov, "w").write(COV_CLASS)
        subprocess.run(["javac", "-d", build, copy, cov] + classes, check=True)
        out = os.path.join(work, "taken")
        for c in classes:
            cls = os.path.splitext(os.path.basename(c))[0]
            r = subprocess.run(["java", "-cp", build, f"-Dpointee.check={name}_pre",
                                f"-Dpointee.cov={out}", cls],
                               capture_output=True, text=True)
            if r.returncode == 3:
                invalid += 1
            elif os.path.exists(out):
                taken |= set(open(out).read().split())
            if os.path.exists(out):
                os.remove(out)
    return len(classes), invalid, len(taken), 2 * conditions, v["stats"]["paths"], seconds


def main():
    work = tempfile.mkdtemp(prefix="pointee-witness-bench-java-")
    totals = {m: [0, 0, 0, 0, 0, 0.0] for m, _ in MODES}
    print("| operation | mode | inputs | invalid | branches covered | paths | s |")
    print("|---|---|---:|---:|---:|---:|---:|", flush=True)
    for source in sorted(glob.glob(os.path.join(BENCH, "*.java"))):
        for name, line, col in operations(source):
            for mode, flags in MODES:
                n, bad, hit, total, paths, s = run(source, name, line, col, flags, work)
                t = totals[mode]
                for i, x in enumerate([1, n, bad, hit, total, s]):
                    t[i] += x
                print(f"| {os.path.basename(source)}:{name} | {mode} | {n} | {bad} | "
                      f"{hit}/{total} | {paths} | {s:.2f} |", flush=True)
    print()
    print("| mode | operations | inputs | invalid | branch coverage | s |")
    print("|---|---:|---:|---:|---:|---:|")
    for mode, _ in MODES:
        ops, n, bad, hit, total, s = totals[mode]
        pct = 100.0 * hit / total if total else 0.0
        print(f"| {mode} | {ops} | {n} | {bad} | {hit}/{total} = {pct:.1f}% | {s:.1f} |")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
