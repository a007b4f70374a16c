#!/usr/bin/env bash
# The main job: build the package and run the demo scenarios through it,
# printing each event and the decision it produced.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
node examples/scenario.mjs
