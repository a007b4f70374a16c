#!/usr/bin/env bash
# Runs every test. Idempotent; does its own set-up on a fresh machine that
# has only rustup, cargo, node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { echo; echo "== $*"; }

step "format and lint"
cargo fmt --check
cargo clippy --all-targets --quiet -- -D warnings

step "native Rust tests (unit, integration, property, doc)"
cargo test --quiet

step "benchmarks compile"
cargo build --quiet --benches --examples
