// Headless Chromium (Debian's, driven by playwright-core) against pkg/, served
// from the repo root by a throwaway static server. Prints one summary line
// `browser: N passed, N failed`; exits non-zero on any failure.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listenStatic } from "../../scripts/static.mjs";
import { PERSIST_TESTS, runPersistTests } from "./persist-driver.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const CHROMIUM = "/usr/bin/chromium";

function skip(reason) {
  console.log(`browser: skipped (${reason})`);
  // CI must really run the browser tests, so a skip there is a failure.
  process.exit(process.env.CI === "true" ? 1 : 0);
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) skip(`${CHROMIUM} missing and not root; install the Debian chromium package`);
  for (const cmd of [
    "apt-get update -qq",
    "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium",
  ]) {
    console.log(`browser: ${CHROMIUM} missing; running: ${cmd}`);
    const r = spawnSync("sh", ["-c", cmd], { stdio: "inherit" });
    if (r.status !== 0) skip(`\`${cmd}\` failed with ${r.status ?? r.signal}`);
  }
  if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} still missing after apt-get install`);
}


ensureChromium();
if (!existsSync(join(ROOT, "pkg/reins_core_bg.wasm"))) {
  console.log("browser: pkg/ is not built; run `bash scripts/build.sh` first");
  process.exit(1);
}
const { chromium } = await import("playwright-core");

const results = [];
// CORS for the sandboxed (opaque-origin) frame of the persistence tests: its
// module scripts and wasm fetch are cross-origin requests.
const server = await listenStatic({ "/": ROOT }, { "access-control-allow-origin": "*" });
const base = `http://127.0.0.1:${server.address().port}`;
const profile = await mkdtemp(join(tmpdir(), "reins-chromium-"));
let context;
const watchdog = setTimeout(() => {
  console.log("browser: timed out after 90 s");
  process.exit(1); // context and server die with this process
}, 90_000);
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      // Even with the flags above Chromium still resolves accounts.google.com
      // and update.googleapis.com; fail every lookup (we only use 127.0.0.1).
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
  });
  // Errors and warnings in the page (e.g. wasm-bindgen's wrong-MIME fallback
  // warning) fail the run even when the tests themselves pass.
  const watch = (page, label) => {
    page.on("pageerror", (e) => results.push({ name: `${label}: page error`, ok: false, detail: e.message }));
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") {
        results.push({ name: `${label}: console ${m.type()}`, ok: false, detail: `${m.text()} (${m.location().url})` });
      }
    });
  };
  const collect = async (page, label) => {
    const handle = await page.waitForFunction(() => window.__results, null, { timeout: 10_000 });
    for (const r of await handle.jsonValue()) results.push({ ...r, name: `${label} ${r.name}` });
  };

  const page = context.pages()[0] ?? (await context.newPage());
  watch(page, "[browser]");
  await page.goto(`${base}/tests/browser/index.html?entry=browser`);
  await collect(page, "[browser]");
  await page.reload(); // same profile: localStorage survives
  await collect(page, "[browser, reloaded]");

  const slim = await context.newPage();
  watch(slim, "[slim]");
  await slim.goto(`${base}/tests/browser/index.html?entry=slim`);
  await collect(slim, "[slim]");
  await slim.close();
  await page.close();

  // Persistence (openRegulator over localStorage and IndexedDB): several
  // pages of this context at once, reloads, quota, blocked and deleted
  // databases; persist-driver.mjs.
  await runPersistTests({ context, base, watch, results });
} catch (e) {
  results.push({ name: "runner", ok: false, detail: String(e?.stack ?? e) });
} finally {
  clearTimeout(watchdog);
  await context?.close().catch(() => {});
  server.close();
  await rm(profile, { recursive: true, force: true });
}

// A phase that silently didn't run (e.g. localStorage lost on reload) is a failure too.
for (const name of ["[browser] browser: shared scenario", "[browser] persist: export() stored in localStorage",
  "[browser, reloaded] persist: import after reload gives the same decisions", "[slim] slim: shared scenario",
  ...PERSIST_TESTS.map(([name]) => name)]) {
  if (!results.some((r) => r.name === name)) results.push({ name, ok: false, detail: "did not run" });
}
const failed = results.filter((r) => !r.ok);
const timing = (r) => (r.ms === undefined ? "" : ` (${r.ms} ms${r.note ? `; ${r.note}` : ""})`);
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? timing(r) : `\n     ${r.detail.replaceAll("\n", "\n     ")}`}`);
console.log(`browser: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
