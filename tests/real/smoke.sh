#!/usr/bin/env bash
# A real program through the front end (issue 9): zlib 1.3.1 with a `main`
# of ours (tests/real/zlib_main.c), its sources fetched from cargo's
# registry through a throw-away Cargo project (never committed here).
# Checks that every unit preprocesses, parses and lowers with no note (no
# syntax error, nothing the preprocessor could not read, no code left
# unmodelled), that the units link, that the functions zlib defines are
# lowered under their names, and that deflate's call through
# `configuration_table[s->level].func` is lowered as an indirect call
# through the table's field, on its line.
#
# FIXME(issue 10): it should also ask `pointee callees` for that call and
# expect exactly deflate_stored, deflate_fast and deflate_slow; the engine
# does not finish zlib yet (`pointee check` on this folder ran past 150 s,
# release build, load 16), so only the front end is checked here.
#
#   bash tests/real/smoke.sh [POINTEE_BINARY]   (default target/release/pointee)
#
# Skips (exit 0, with a message saying so) only when the sources cannot be
# fetched.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-target/release/pointee}")
limit=${SMOKE_TIMEOUT:-120}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fetch/src" "$work/zlib"
touch "$work/fetch/src/lib.rs"
cat >"$work/fetch/Cargo.toml" <<'TOML'
[package]
name = "pointee-real-c-sources"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
libz-sys = { version = "=1.1.20", default-features = false, features = ["static"] }
TOML
if ! (cd "$work/fetch" && cargo fetch -q 2>"$work/fetch.log"); then
    echo "real-program smoke: SKIPPED: could not fetch libz-sys 1.1.20 (zlib's sources):" >&2
    sed 's/^/  /' "$work/fetch.log" >&2
    exit 0
fi
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
src=$(ls -d "$registry"/*/libz-sys-1.1.20/src/zlib 2>/dev/null | head -1)
if [ -z "$src" ]; then
    echo "real-program smoke: SKIPPED: libz-sys 1.1.20 fetched, but not found under $registry" >&2
    exit 0
fi
cp "$src"/*.c "$src"/*.h "$work/zlib/"
cp tests/real/zlib_main.c "$work/zlib/"
cd "$work/zlib"

fail() {
    echo "real-program smoke: FAILED: $*" >&2
    exit 1
}

# The whole program's IR and the front end's notes (`--no-facts`: no
# analysis). A link error is exit code 2.
status=0
timeout "$limit" "$bin" dump --no-facts --format json ./*.c >dump.json 2>dump.err || status=$?
[ "$status" -eq 0 ] || fail "pointee dump exited with $status: $(head -c 2000 dump.err)"
line=$(grep -n '(\*(configuration_table\[s->level\]\.func))(s, flush)' deflate.c | head -1 | cut -d: -f1)
[ -n "$line" ] || fail "deflate.c no longer holds the call through configuration_table"
python3 - dump.json "$line" <<'PY' || fail "the front end on zlib (above)"
import json, sys
dump = json.load(open(sys.argv[1]))
table_line = int(sys.argv[2])
bad = False
for n in dump["notes"][:20]:
    print("note:", json.dumps(n), file=sys.stderr)
    bad = True
names = {f["name"] for f in dump["functions"]}
# Functions zlib defines (a sample over its units, statics included) and
# our main, each lowered under its own name.
for f in ["main", "deflate", "deflate_stored", "deflate_fast", "deflate_slow",
          "deflateResetKeep", "inflate", "inflate_fast", "inflate_table",
          "crc32", "adler32", "compress2", "uncompress2", "gzopen", "gzwrite",
          "gzread", "gzclose", "zcalloc", "_tr_flush_block"]:
    if f not in names:
        print("not lowered:", f, file=sys.stderr)
        bad = True
# deflate calls through the function pointer in the table's field.
deflate = [f for f in dump["functions"] if f["name"] == "deflate"]
calls = [s["text"] for f in deflate for s in f["statements"]
         if s["line"] == table_line and "call#" in s["text"]]
if not any("(*configuration_table[?].func)(s, flush)" in c for c in calls):
    print(f"deflate.c:{table_line}: not a call through the table's field: {calls}", file=sys.stderr)
    bad = True
print(f"zlib: {len(names)} functions lowered, {len(dump['notes'])} notes", file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "real-program smoke: zlib 1.3.1 preprocessed, parsed, lowered and linked with no note"
