// Transfer sizes of the package's parts: the wasm module, the core wrapper,
// and the persistence layer (openRegulator, stores, signing), each minified
// by esbuild and compressed (gzip -9, brotli). Run after `bash scripts/build.sh`.
import { buildSync } from "esbuild";
import { readFileSync } from "node:fs";
import { brotliCompressSync, gzipSync } from "node:zlib";

const pkg = new URL("../pkg/", import.meta.url).pathname;
const row = (what, bytes) => {
  const gz = gzipSync(bytes, { level: 9 }).length;
  const br = brotliCompressSync(bytes).length;
  console.log(`${what.padEnd(44)} ${String(bytes.length).padStart(9)} B  gzip ${String(gz).padStart(7)} B  brotli ${String(br).padStart(7)} B`);
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
    external: external.map((f) => `${pkg}${f}`).concat(external.map((f) => `./${f}`), ["node:*"]),
    logLevel: "error",
  });
  return Buffer.from(out.outputFiles[0].contents);
}

row("pkg/reins_core_bg.wasm", readFileSync(`${pkg}reins_core_bg.wasm`));
row("core wrapper (regulator.js + wasm glue)", minified("regulator.js", ["Regulator"], []));
row("persistence (stored, stores, envelope)", minified("api.js", ["openRegulator", "StoredRegulator", "forget", "memoryKey", "memoryStore", "localStorageStore", "indexedDbStore", "workersKvStore", "durableObjectStore", "denoKvStore", "redisStore", "StoreError", "signSnapshot", "verifySnapshot"], ["regulator.js", "reins_core.js"]));
row("reins/file-store", minified("file-store.js", ["fileStore"], []));
