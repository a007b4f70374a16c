#!/usr/bin/env bash
# The main job: build the package, then serve the live demo page (www/) on
# 127.0.0.1 and print its URL. `--no-serve` instead runs the console
# scenarios through the package, printing each event and its decision.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
if [ "${1:-}" = "--no-serve" ]; then
  node examples/scenario.mjs
else
  exec node scripts/serve.mjs "$@"
fi
