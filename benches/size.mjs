// Transfer sizes of the package's parts: the wasm module, the core wrapper,
// and the persistence layer (openRegulator, stores, signing), each minified
// by esbuild and compressed (gzip -9, brotli). Run after `bash scripts/build.sh`.
import { buildSync } from "esbuild";
import { readFileSync, readdirSync } from "node:fs";
import { brotliCompressSync, gzipSync } from "node:zlib";

const pkg = new URL("../pkg/", import.meta.url).pathname;
const row = (what, bytes) => {
  const gz = gzipSync(bytes, { level: 9 }).length;
  const br = brotliCompressSync(bytes).length;
  console.log(`${what.padEnd(50)} ${String(bytes.length).padStart(9)} B  gzip ${String(gz).padStart(7)} B  brotli ${String(br).padStart(7)} B`);
};
/** The named exports of pkg/<file>, bundled alone (other package modules external). */
function minified(file, names, external) {
  const src = `export { ${names.join(", ")} } from "${pkg}${file}";`;
  const out = buildSync({
    stdin: { contents: src, resolveDir: pkg, loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    write: false,
    external: external.map((f) => `${pkg}${f}`).concat(external.map((f) => `./${f}`), ["node:*", "cloudflare:*", "ai", "@langchain/*", "@openai/*", "@opentelemetry/*"]),
    logLevel: "error",
  });
  return Buffer.from(out.outputFiles[0].contents);
}

row("pkg/reins_core_bg.wasm", readFileSync(`${pkg}reins_core_bg.wasm`));
row("pkg/reins_replay_bg.wasm (reins/replay, the CLI)", readFileSync(`${pkg}reins_replay_bg.wasm`));
// pkg/reins.js is the chunk every entry shares: the wasm glue, the wrapper
// and the persistence layer.
const PERSISTENCE = ["openRegulator", "StoredRegulator", "forget", "memoryKey", "memoryStore", "localStorageStore", "indexedDbStore", "workersKvStore", "durableObjectStore", "denoKvStore", "redisStore", "StoreError", "signSnapshot", "verifySnapshot"];
row("core wrapper (Regulator + wasm glue)", minified("reins.js", ["Regulator"], []));
row("wrapper + persistence (stored, stores, envelope)", minified("reins.js", ["Regulator", ...PERSISTENCE], []));
row("reins/file-store", minified("file-store.js", ["fileStore"], []));
// The adapters, with what they share; the package's core modules and the frameworks external.
const core = ["entry-workerd.js", "reins.js"];
for (const [name, names] of [["ai-sdk", ["regulate"]], ["langchain", ["ReinsCallbackHandler", "ReinsHaltError"]], ["openai-agents", ["regulate", "ReinsHaltError"]], ["otel", ["ReinsSpanProcessor"]], ["workers", ["withReins", "ReinsMemory", "durableObjectMemory"]]]) {
  row(`reins/${name}`, minified(`adapters/${name}.js`, names, core.map((f) => `../${f}`).concat(core)));
}

// The demo page as a browser fetches it: each file compressed on its own.
const www = new URL("../www/", import.meta.url).pathname;
const files = (dir, names) => names.map((n) => readFileSync(`${dir}${n}`));
const pageFiles = files(www, readdirSync(www).filter((n) => /\.(html|js|css)$/.test(n)));
const moduleFiles = files(pkg, ["entry-browser.js", "reins.js", "reins_core_bg.wasm"]);
const sum = (list, f) => list.reduce((n, b) => n + f(b), 0);
for (const [what, list] of [["demo page (www/), unminified", pageFiles], ["demo page + the package it loads", [...pageFiles, ...moduleFiles]]]) {
  console.log(`${what.padEnd(50)} ${String(sum(list, (b) => b.length)).padStart(9)} B  gzip ${String(sum(list, (b) => gzipSync(b, { level: 9 }).length)).padStart(7)} B  brotli ${String(sum(list, (b) => brotliCompressSync(b).length)).padStart(7)} B`);
}
