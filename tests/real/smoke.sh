#!/usr/bin/env bash
# Real programs through the front end (issue 9): zlib 1.3.1 with a `main`
# of ours (tests/real/zlib_main.c), bzip2 1.0.8's command-line program, and
# Lua 5.4.7 with a host `main` of ours (tests/real/lua_host.c), their
# sources fetched from cargo's registry through a throw-away Cargo project
# (never committed here). Checks for each that every unit preprocesses,
# parses and lowers with no note (no syntax error, nothing the
# preprocessor could not read, no code left unmodelled), that the units
# link, and that every direct call whose callee the program does not
# define calls a function of pointee's C library model (so no function
# the program defines, nor a macro it defines, is left an unknown call);
# for zlib also that the functions it defines are lowered under their
# names, and that deflate's call through `configuration_table[s->level].func`
# is lowered as an indirect call through the table's field, on its line.
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
root=$(pwd)
bin=$(realpath "${1:-target/release/pointee}")
limit=${SMOKE_TIMEOUT:-120}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/fetch/src" "$work/zlib" "$work/bzip2" "$work/lua"
touch "$work/fetch/src/lib.rs"
cat >"$work/fetch/Cargo.toml" <<'TOML'
[package]
name = "pointee-real-c-sources"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
libz-sys = { version = "=1.1.20", default-features = false, features = ["static"] }
bzip2-sys = "=0.1.13+1.0.8"
lua-src = "=547.0.0"
TOML
if ! (cd "$work/fetch" && cargo fetch -q 2>"$work/fetch.log"); then
    echo "real-program smoke: SKIPPED: could not fetch libz-sys, bzip2-sys and lua-src (the programs' sources):" >&2
    sed 's/^/  /' "$work/fetch.log" >&2
    exit 0
fi
registry="${CARGO_HOME:-$HOME/.cargo}/registry/src"
src=$(ls -d "$registry"/*/libz-sys-1.1.20/src/zlib 2>/dev/null | head -1)
bz=$(ls -d "$registry"/*/bzip2-sys-0.1.13+1.0.8/bzip2-1.0.8 2>/dev/null | head -1)
lua=$(ls -d "$registry"/*/lua-src-547.0.0/lua-5.4.7 2>/dev/null | head -1)
if [ -z "$src" ] || [ -z "$bz" ] || [ -z "$lua" ]; then
    echo "real-program smoke: SKIPPED: the sources were fetched, but not found under $registry" >&2
    exit 0
fi
libc=$(realpath crates/pointee-c/libc)
cp "$src"/*.c "$src"/*.h "$work/zlib/"
cp tests/real/zlib_main.c "$work/zlib/"
cp "$bz"/*.c "$bz"/*.h "$work/bzip2/"
cp "$lua"/*.c "$lua"/*.h tests/real/lua_host.c "$work/lua/"
cd "$work/zlib"

fail() {
    echo "real-program smoke: FAILED: $*" >&2
    exit 1
}

# A program's dump (`dump.json` here): no note, and every direct call to
# a function it does not define names a function the C library model
# declares.
calls_into_library_only() {
    python3 - dump.json "$libc" "$1" <<'PY'
import glob, json, re, sys
dump = json.load(open(sys.argv[1]))
libc = set()
for h in glob.glob(sys.argv[2] + "/**/*.h", recursive=True):
    libc |= set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", open(h).read()))
names = {f["name"] for f in dump["functions"]}
direct, indirect, outside = 0, 0, {}
for f in dump["functions"]:
    for s in f["statements"]:
        m = re.search(r"call#\d+ ([A-Za-z_][\w@./-]*)\(", s["text"])
        if m:
            direct += 1
            if m.group(1) not in names and m.group(1) not in libc:
                outside.setdefault(m.group(1), f["name"])
        elif "call#" in s["text"]:
            indirect += 1
for n in dump["notes"][:20]:
    print("note:", json.dumps(n), file=sys.stderr)
for callee, caller in sorted(outside.items()):
    print(f"{caller} calls {callee}: neither defined nor in the C library model", file=sys.stderr)
print(f"{sys.argv[3]}: {len(names)} functions, {len(dump['notes'])} notes, {direct} direct and {indirect} indirect calls", file=sys.stderr)
sys.exit(1 if outside or dump["notes"] else 0)
PY
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
calls_into_library_only zlib || fail "zlib's calls (above)"
echo "real-program smoke: zlib 1.3.1 preprocessed, parsed, lowered and linked with no note"

# bzip2's command-line program (the units of tests/real/bzip2.toml) and
# Lua with its host.
cd "$work/bzip2"
status=0
timeout "$limit" "$bin" dump --no-facts --format json bzip2.c blocksort.c huffman.c crctable.c \
    randtable.c compress.c decompress.c bzlib.c >dump.json 2>dump.err || status=$?
[ "$status" -eq 0 ] || fail "pointee dump on bzip2 exited with $status: $(head -c 2000 dump.err)"
calls_into_library_only bzip2 || fail "the front end on bzip2 (above)"
echo "real-program smoke: bzip2 1.0.8 preprocessed, parsed, lowered and linked with no note"
cd "$work/lua"
status=0
timeout "$limit" "$bin" dump --no-facts --format json ./*.c >dump.json 2>dump.err || status=$?
[ "$status" -eq 0 ] || fail "pointee dump on Lua exited with $status: $(head -c 2000 dump.err)"
calls_into_library_only lua || fail "the front end on Lua (above)"
echo "real-program smoke: Lua 5.4.7 preprocessed, parsed, lowered and linked with no note"

# The language server's view: each folder holding just one program's files
# (bzip2's command-line program without the folder's other five), every
# `.c` and `.h` file in the workspace, no model file; each must link
# (pointee-ide's tests/projects.rs, in the debug build CI has made).
mkdir -p "$work/bzip2-program"
(cd "$work/bzip2" && cp bzip2.c blocksort.c huffman.c crctable.c randtable.c compress.c \
    decompress.c bzlib.c ./*.h "$work/bzip2-program/")
cd "$root"
POINTEE_REAL_C_DIRS="$work/lua:$work/zlib:$work/bzip2-program" cargo test -q -p pointee-ide \
    --test projects real_program_folders_link_as_the_server_holds_them >"$work/server.log" 2>&1 ||
    fail "the real programs' folders as the server holds them: $(tail -c 2000 "$work/server.log")"
echo "real-program smoke: the Lua, zlib and bzip2 folders link as the language server holds them"
