#!/usr/bin/env bash
# Builds the npm-style package into pkg/: one wasm module (--target web), the
# JS wrapper, one small entry file per runtime, types and package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --quiet --lib --target wasm32-unknown-unknown --profile wasm
# The replay module: the same core plus the replay binding, in its own target
# directory so that neither build invalidates the other's cache.
cargo build --quiet --lib --target wasm32-unknown-unknown --profile wasm \
  --features replay-wasm --target-dir target/replay
rm -rf pkg
wasm-bindgen --target web --weak-refs --out-dir pkg --out-name reins_core \
  target/wasm32-unknown-unknown/wasm/reins.wasm
wasm-bindgen --target web --weak-refs --out-dir pkg --out-name reins_replay \
  target/replay/wasm32-unknown-unknown/wasm/reins.wasm
# npm binaryen only: Debian's wasm-opt 108 silently breaks wasm-bindgen output.
# -ocimfs 100: a function with one caller is inlined only if it is small. By
# default binaryen inlines any size, which merged the whole detector into one
# 115 KB function that V8 was slow to tier up (the Node turn was sometimes
# 60 % slower for a whole run). Kept apart, the functions a first turn does
# not run are never compiled by V8 (its first turn −1.3 ms against -ocimfs
# 1000) and the module compresses better (gzip −3 %); -O3 rather than -Oz
# then costs nothing in size and takes ~3 % off a turn (docs/speed-and-size.md).
for m in reins_core reins_replay; do
  node_modules/.bin/wasm-opt -O3 -ocimfs 100 --strip-debug --strip-producers \
    "pkg/${m}_bg.wasm" -o "pkg/${m}_bg.wasm"
done
cp js/*.js js/*.d.ts js/package.json pkg/
# The main module's entries share one bundled chunk, pkg/reins.js (the
# wasm-bindgen glue, the wrapper, the stores): a runtime loads two files
# instead of eight, which takes about 3 ms off a cold import in Node, and
# every entry still shares one instance of the module. esbuild drops
# comments, so each entry's leading comment (with Deno's @ts-self-types) is
# put back.
ENTRIES="entry-node entry-browser entry-workerd slim index"
STAGE=target/js-bundle
rm -rf "$STAGE" && mkdir -p "$STAGE/src"
cp js/*.js pkg/reins_core.js "$STAGE/src/"
node_modules/.bin/esbuild $(for e in $ENTRIES; do echo "$STAGE/src/$e.js"; done) \
  --bundle --splitting --format=esm --platform=neutral --external:node:* \
  --external:./reins_core_bg.wasm --chunk-names=reins --outdir="$STAGE/out" \
  --log-level=warning
cp "$STAGE/out/reins.js" pkg/
for e in $ENTRIES; do
  { sed -n '/^\(\/\/\|\/\*\)/!q;p' "js/$e.js"; cat "$STAGE/out/$e.js"; } > "pkg/$e.js"
done
(cd pkg && rm api.js regulator.js stored.js stores.js envelope.js hidden.js reins_core.js)
mkdir -p pkg/adapters && cp js/adapters/* pkg/adapters/
cp README.md CHANGELOG.md CONTRIBUTING.md LICENSE-MIT LICENSE-APACHE pkg/
mkdir -p pkg/docs && cp docs/*.md pkg/docs/
for m in reins_core reins_replay; do
  echo "[build] pkg/${m}_bg.wasm: $(wc -c < "pkg/${m}_bg.wasm") bytes, $(gzip -9c "pkg/${m}_bg.wasm" | wc -c) gzipped" >&2
done
