#!/usr/bin/env bash
# Installs the MCP server the end-to-end tests talk to (tests/tool_mcp.rs),
# pinned, into target/mcp-servers, and prints the path of its entry point.
# Idempotent: when the pinned version is there, nothing is fetched.
# Needs node and npm; set MCP_SERVERS_DIR to install elsewhere.
set -euo pipefail

PACKAGE=@modelcontextprotocol/server-everything
VERSION=2026.8.31

root="$(cd "$(dirname "$0")/../.." && pwd)"
prefix="${MCP_SERVERS_DIR:-$root/target/mcp-servers}"
dir="$prefix/node_modules/$PACKAGE"
entry="$dir/dist/index.js"

installed() {
    [ -f "$entry" ] && [ "$(node -p "require('$dir/package.json').version" 2>/dev/null)" = "$VERSION" ]
}

if ! installed; then
    mkdir -p "$prefix"
    # One installer at a time (parallel test binaries, CI and a developer).
    exec 9>"$prefix/.install.lock"
    if command -v flock >/dev/null; then flock 9; fi
    if ! installed; then
        echo "installing $PACKAGE@$VERSION into $prefix" >&2
        npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$PACKAGE@$VERSION" >&2
    fi
fi
installed || { echo "error: $PACKAGE@$VERSION is not at $entry after npm install" >&2; exit 1; }
echo "$entry"
