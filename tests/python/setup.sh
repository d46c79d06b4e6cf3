#!/usr/bin/env bash
# Sets up target/pyvenv, a Python venv with tests/python/requirements.txt
# installed from PyPI. Idempotent: a venv whose packages match the pins is
# left alone; concurrent runs take turns (flock). Needs python3 (with venv)
# and PyPI, nothing else.
set -euo pipefail
cd "$(dirname "$0")/../.."

VENV="${AMPLIFIER_PYVENV:-target/pyvenv}"
REQUIREMENTS=tests/python/requirements.txt
STAMP="$VENV/requirements.txt"

# Tests run in parallel and each may call this: one installs, the others wait.
mkdir -p "$(dirname "$VENV")"
exec 9>"$VENV.lock"
if command -v flock >/dev/null; then flock 9; fi

if [ -x "$VENV/bin/python" ] && cmp -s "$REQUIREMENTS" "$STAMP"; then
    echo "python setup: ready ($VENV)"
    exit 0
fi
echo "python setup: installing $(grep -v '^#' "$REQUIREMENTS" | xargs) into $VENV"
python3 -m venv --clear "$VENV"
"$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
cp "$REQUIREMENTS" "$STAMP"
echo "python setup: ready ($VENV)"
