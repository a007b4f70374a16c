#!/usr/bin/env bash
# reins beside the reference design (noos 0.4.1 from crates.io) on the same
# turns: instructions per turn (callgrind), native and Node time, interleaved,
# with the ratios. The reference is a dependency of benches/vs-reference only.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f pkg/entry-node.js ] || bash scripts/build.sh
cargo build --quiet --release --manifest-path benches/vs-reference/Cargo.toml
node benches/vs-reference/report.mjs benches/vs-reference/target/release/reins-vs-reference "${1:-5}"
