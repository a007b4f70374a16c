// Builds tests/bundlers/app.js (the plain `import { Regulator } from "reins"`)
// with esbuild, Vite, webpack and Rollup, each in a throwaway project whose
// node_modules/reins links to the built pkg/, as a user's project would hold
// the package. Serves each build on 127.0.0.1 and loads it in headless
// Chromium (Debian's, via playwright-core): the page must show the expected
// decision, with no page error, console error or warning, or failed request.
// Where the plain import needs a step of the user's, the case does exactly
// that step (the recipe; see RECIPES below and the README).
// Prints one summary line `bundlers: N passed, N failed`; exits non-zero on failure.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { listenStatic } from "../../scripts/static.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
const HERE = join(ROOT, "tests/bundlers");
const BIN = join(ROOT, "node_modules/.bin");
const CHROMIUM = "/usr/bin/chromium";
const EXPECTED = "circuitBreak:toolLoop";

const html = (script, module = true) =>
  `<!doctype html><meta charset="utf-8"><title>reins</title><link rel="icon" href="data:,"><p id="out">pending</p>` +
  `<script${module ? ' type="module"' : ""} src="${script}"></script>\n`;

// The wasm next to the bundle: the browser entry fetches
// new URL("./reins_core_bg.wasm", import.meta.url), which esbuild and Rollup
// leave as it is (they emit no asset for it).
const copyWasm = (dir) => ["cp node_modules/reins/reins_core_bg.wasm " + dir, (p) =>
  copyFile(join(p, "node_modules/reins/reins_core_bg.wasm"), join(p, dir, "reins_core_bg.wasm"))];

// name, the project's package.json "type", the app file (source → name in
// the project), the build commands (bin + args, or a recipe step), the page.
const CASES = [
  {
    name: "esbuild",
    type: "module",
    app: ["app.js", "app.js"],
    steps: [["esbuild", "app.js", "--bundle", "--format=esm", "--outdir=dist"], copyWasm("dist")],
    page: ["dist", html("app.js")],
  },
  {
    // "type": "commonjs": esbuild treats app.js as CommonJS and wraps it in a
    // sync function, where the package's top-level await is a SyntaxError.
    // An .mjs app file (and --format=esm) keeps it ESM.
    name: "esbuild, type commonjs",
    type: "commonjs",
    app: ["app.js", "app.mjs"],
    steps: [["esbuild", "app.mjs", "--bundle", "--format=esm", "--outdir=dist"], copyWasm("dist")],
    page: ["dist", html("app.js")],
  },
  {
    // reins/slim has no top-level await, and the .wasm is imported as a URL:
    // works in either project type and any output format (here the default iife).
    name: "esbuild, reins/slim + --loader:.wasm=file, type commonjs",
    type: "commonjs",
    app: ["app-slim.js", "app.js"],
    steps: [["esbuild", "app.js", "--bundle", "--loader:.wasm=file", "--outdir=dist"]],
    page: ["dist", html("app.js", false)],
  },
  {
    name: "esbuild, reins/slim + --loader:.wasm=file",
    type: "module",
    app: ["app-slim.js", "app.js"],
    steps: [["esbuild", "app.js", "--bundle", "--format=esm", "--loader:.wasm=file", "--outdir=dist"]],
    page: ["dist", html("app.js")],
  },
  {
    name: "vite",
    type: "module",
    app: ["app.js", "app.js"],
    extra: { "index.html": html("./app.js") },
    steps: [["vite", "build", "--outDir", "dist", "--logLevel", "warn"]],
    page: ["dist", null],
  },
  {
    name: "webpack",
    type: "module",
    app: ["app.js", "app.js"],
    steps: [["webpack", "--mode=production", "--entry", "./app.js", "--output-path", "dist", "--no-stats"]],
    page: ["dist", html("main.js", false)],
  },
  {
    name: "rollup",
    type: "module",
    app: ["app.js", "app.js"],
    extra: {
      "rollup.config.mjs": `import { nodeResolve } from "@rollup/plugin-node-resolve";
export default { input: "app.js", output: { dir: "dist", format: "es" }, plugins: [nodeResolve({ browser: true })] };
`,
    },
    links: ["@rollup"],
    steps: [["rollup", "-c", "--silent"], copyWasm("dist")],
    page: ["dist", html("app.js")],
  },
];

function skip(reason) {
  console.log(`bundlers: skipped (${reason})`);
  process.exit(process.env.CI === "true" ? 1 : 0);
}

function run(cwd, [bin, ...args]) {
  return new Promise((ok) => {
    const child = spawn(join(BIN, bin), args, { cwd, env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let out = "";
    child.stdout.on("data", (b) => (out += b));
    child.stderr.on("data", (b) => (out += b));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      ok({ code, signal, out });
    });
  });
}

async function sizes(dir) {
  let js = 0, wasm = 0;
  const walk = async (d) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.name.endsWith(".js")) js += (await stat(p)).size;
      else if (e.name.endsWith(".wasm")) wasm += (await stat(p)).size;
    }
  };
  await walk(dir);
  return { js, wasm };
}

async function build(tmp, c, i) {
  const proj = join(tmp, `p${i}`);
  await mkdir(join(proj, "node_modules"), { recursive: true });
  await symlink(join(ROOT, "pkg"), join(proj, "node_modules/reins"));
  for (const l of c.links ?? []) await symlink(join(ROOT, "node_modules", l), join(proj, "node_modules", l));
  await writeFile(join(proj, "package.json"), JSON.stringify({ name: `app${i}`, private: true, type: c.type }) + "\n");
  await copyFile(join(HERE, c.app[0]), join(proj, c.app[1]));
  await copyFile(join(HERE, "loop.mjs"), join(proj, "loop.mjs"));
  for (const [name, text] of Object.entries(c.extra ?? {})) await writeFile(join(proj, name), text);
  const t0 = performance.now();
  for (const step of c.steps) {
    if (typeof step[1] === "function") {
      await step[1](proj);
      continue;
    }
    const r = await run(proj, step);
    if (r.code !== 0) throw new Error(`\`${step.join(" ")}\` exited ${r.code ?? r.signal}\n${r.out.trim()}`);
  }
  const ms = Math.round(performance.now() - t0);
  const [dir, page] = c.page;
  if (page) await writeFile(join(proj, dir, "index.html"), page);
  return { dir: join(proj, dir), ms, ...(await sizes(join(proj, dir))) };
}


if (!existsSync(CHROMIUM)) skip(`${CHROMIUM} missing; install the Debian chromium package`);
if (!existsSync(join(ROOT, "pkg/reins_core_bg.wasm"))) {
  console.log("bundlers: pkg/ is not built; run `bash scripts/build.sh` first");
  process.exit(1);
}
const { chromium } = await import("playwright-core");

const watchdog = setTimeout(() => {
  console.log("bundlers: timed out after 120 s");
  process.exit(1);
}, 120_000);
const tmp = await mkdtemp(join(tmpdir(), "reins-bundlers-"));
const results = [];
let browser, server;
try {
  // Builds one after another (2 cores; webpack alone takes both for a second).
  const built = [];
  for (const [i, c] of CASES.entries()) {
    try {
      built.push({ c, ...(await build(tmp, c, i)) });
    } catch (e) {
      results.push({ name: c.name, ok: false, detail: `build: ${e.message}` });
    }
  }
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
  });
  for (const b of built) {
    const problems = [];
    const page = await browser.newPage();
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("response", (r) => {
      if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
    });
    // Each build at the root of its own origin, as deployed (Vite's default base is "/").
    server = await listenStatic({ "/": b.dir });
    const t0 = performance.now();
    let shown = "";
    try {
      await page.goto(`http://127.0.0.1:${server.address().port}/`);
      await page.waitForFunction(() => document.title === "done", null, { timeout: 10_000 });
      shown = await page.textContent("#out");
    } catch (e) {
      shown = (await page.textContent("#out").catch(() => "")) ?? "";
      problems.push(String(e.message).split("\n")[0]);
    }
    const loadMs = Math.round(performance.now() - t0);
    await page.close();
    server.close();
    server = undefined;
    if (shown !== EXPECTED) problems.unshift(`page shows ${JSON.stringify(shown)}, expected ${JSON.stringify(EXPECTED)}`);
    const recipe = b.c.steps.map((s) => (typeof s[1] === "function" ? s[0] : s.join(" "))).join(" && ");
    results.push({
      name: b.c.name,
      ok: problems.length === 0,
      detail: problems.join("\n"),
      note: `build ${b.ms} ms, page ${loadMs} ms, js ${b.js} B, wasm ${b.wasm} B; ${recipe}`,
    });
  }
} catch (e) {
  results.push({ name: "runner", ok: false, detail: String(e?.stack ?? e) });
} finally {
  clearTimeout(watchdog);
  await browser?.close().catch(() => {});
  server?.close();
  await rm(tmp, { recursive: true, force: true });
}

for (const c of CASES) {
  if (!results.some((r) => r.name === c.name)) results.push({ name: c.name, ok: false, detail: "did not run" });
}
const failed = results.filter((r) => !r.ok);
for (const r of results) {
  console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}${r.note ? ` (${r.note})` : ""}` +
    (r.ok ? "" : `\n     ${r.detail.replaceAll("\n", "\n     ")}`));
}
console.log(`bundlers: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
