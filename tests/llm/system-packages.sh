#!/usr/bin/env bash
# Installs the Debian packages llama.cpp's build needs (provider-local):
# cmake, and libclang for bindgen. Nothing happens when they are there.
# .ci/run installs them too; the provider-local tests call this so that
# `cargo test --workspace` works on a fresh machine by itself.
set -euo pipefail
missing=()
for package in cmake libclang-dev; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
echo "installing ${missing[*]} (for llama.cpp in provider-local)" >&2
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq "${missing[@]}" >&2
