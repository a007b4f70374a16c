#!/usr/bin/env bash
# Builds the npm-style package into pkg/: one wasm module (--target web), the
# JS wrapper, one small entry file per runtime, types and package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --lib --target wasm32-unknown-unknown --profile wasm
rm -rf pkg
wasm-bindgen --target web --weak-refs --out-dir pkg --out-name reins_core \
  target/wasm32-unknown-unknown/wasm/reins.wasm
# npm binaryen only: Debian's wasm-opt 108 silently breaks wasm-bindgen output.
# -ocimfs 1000: a function with one caller is inlined only if small. By
# default binaryen inlines any size, which merged the whole detector into one
# 115 KB function that V8 was slow to tier up (the Node turn was sometimes
# 60 % slower for a whole run); split, the turn is ~5 % faster, same size.
node_modules/.bin/wasm-opt -Oz -ocimfs 1000 --strip-debug --strip-producers \
  pkg/reins_core_bg.wasm -o pkg/reins_core_bg.wasm
cp js/*.js js/*.d.ts js/package.json pkg/
mkdir -p pkg/adapters && cp js/adapters/* pkg/adapters/
cp README.md CHANGELOG.md CONTRIBUTING.md LICENSE-MIT LICENSE-APACHE pkg/
mkdir -p pkg/docs && cp docs/*.md pkg/docs/
echo "[build] pkg/reins_core_bg.wasm: $(wc -c < pkg/reins_core_bg.wasm) bytes, $(gzip -9c pkg/reins_core_bg.wasm | wc -c) gzipped" >&2
