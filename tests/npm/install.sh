#!/usr/bin/env bash
# Installs a pinned npm package that end-to-end tests run (an MCP server, an
# EventSource client; the pins are in tests/npm/pins) into target/npm/NAME,
# and prints the path of its pinned file. With no PACKAGE, installs them all.
# Idempotent: when the pinned version is there, nothing is fetched.
# Needs node and npm; set NPM_TESTS_DIR to install elsewhere.
#
# usage: tests/npm/install.sh [PACKAGE]
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if [ $# -eq 0 ]; then
    grep -v '^#' "$here/pins" | while read -r package _; do
        bash "$0" "$package" >/dev/null
    done
    exit 0
fi

read -r package version file < <(awk -v p="$1" '$1 == p' "$here/pins") || true
[ -n "${version:-}" ] || { echo "error: $1 is not pinned in $here/pins" >&2; exit 1; }

prefix="${NPM_TESTS_DIR:-$root/target/npm}/${package//\//+}"
dir="$prefix/node_modules/$package"
entry="$dir/$file"

installed() {
    [ -f "$entry" ] && [ "$(node -p "require('$dir/package.json').version" 2>/dev/null)" = "$version" ]
}

if ! installed; then
    mkdir -p "$prefix"
    # One installer at a time (parallel test binaries, CI and a developer).
    exec 9>"$prefix/.install.lock"
    if command -v flock >/dev/null; then flock 9; fi
    if ! installed; then
        echo "installing $package@$version into $prefix" >&2
        npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$package@$version" >&2
    fi
fi
installed || { echo "error: $package@$version is not at $entry after npm install" >&2; exit 1; }
echo "$entry"
