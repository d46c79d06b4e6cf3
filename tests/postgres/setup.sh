#!/usr/bin/env bash
# Makes sure PostgreSQL's server programs (initdb, postgres) are installed:
# Debian's `postgresql` package, from the distribution's registry, when they
# are missing. Idempotent; concurrent runs take turns (flock). The tests
# start their own server on a temporary directory and a free port
# (crates/test-postgres), never the system's.
set -euo pipefail

found() {
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null
}

exec 9>"${TMPDIR:-/tmp}/amplifier-postgres-setup.lock"
if command -v flock >/dev/null; then flock 9; fi

if found; then
    echo "postgres setup: ready"
    exit 0
fi
echo "postgres setup: installing Debian's postgresql package"
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
$sudo_cmd apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq postgresql >/dev/null
found
echo "postgres setup: ready"
