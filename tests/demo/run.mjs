// The demo page (www/) in headless Chromium, served by scripts/serve.mjs as
// a visitor gets it: every scenario shows its expected decisions at its
// expected steps, free mode updates as one types, memory survives a reload
// and "Forget me" clears it, pasted markup stays text, the keyboard works,
// nothing overflows at phone width, decisions do not shift the layout, and
// the console stays clean. Screenshots go to a temporary directory (printed).
// Prints `demo: N passed, N failed`.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { SCENARIOS } from "../../www/scenarios.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const CHROMIUM = "/usr/bin/chromium";
const SHOTS = await mkdtemp(join(tmpdir(), "reins-demo-shots-"));

if (!existsSync(CHROMIUM)) {
  console.log(`demo: skipped (${CHROMIUM} missing; tests/browser/run.mjs installs it)`);
  process.exit(process.env.CI === "true" ? 1 : 0);
}

const results = [];
async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - t0 });
  } catch (e) {
    results.push({ name, ok: false, detail: String(e?.stack ?? e) });
  }
}
function assert(cond, msg) {
  if (!cond) throw new Error(msg);
}

const server = spawn(process.execPath, [join(ROOT, "scripts/serve.mjs"), "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((ok, fail) => {
  server.stdout.on("data", (d) => {
    const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(String(d));
    if (m) ok(m[0]);
  });
  server.on("exit", (code) => fail(new Error(`server exited with ${code}`)));
});
const watchdog = setTimeout(() => {
  console.log("demo: timed out after 120 s");
  server.kill();
  process.exit(1);
}, 120_000);

const profile = await mkdtemp(join(tmpdir(), "reins-demo-"));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu"],
  viewport: { width: 1280, height: 900 },
});
const problems = [];

async function open(hash = "", viewport) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${base}${hash ? `#${hash}` : ""}`);
  await page.waitForSelector("html[data-ready]", { timeout: 15_000 });
  return page;
}

const nowKind = (page) => page.getAttribute("#now .badge", "data-kind");

try {
  for (const s of SCENARIOS) {
    await check(`scenario ${s.id}: the expected decisions at the expected steps`, async () => {
      const page = await open(s.id);
      assert((await page.textContent("#summary")) === s.summary, "the summary shows");
      for (let i = 0; i < s.steps.length; i++) {
        await page.click("#step");
        await page.waitForFunction((n) => document.getElementById("progress").textContent.startsWith(`step ${n} `), i + 1);
        const want = s.steps[i].expect;
        if (want !== undefined) {
          const got = await nowKind(page);
          assert(got === want, `step ${i + 1}: decision ${got}, expected ${want}`);
          const last = await page.getAttribute("#console .turn:last-child .turn-verdict .badge", "data-kind");
          assert(last === want, `step ${i + 1}: the turn shows ${last}, expected ${want}`);
        }
      }
      assert(await page.isDisabled("#step"), "Step is disabled at the end");
      if (s.steps.some((x) => x.expect === "scopeDrift")) {
        assert((await page.locator("#console mark").count()) > 0, "drifted words are highlighted");
      }
      if (s.steps.some((x) => x.expectInjected)) {
        const injected = await page.textContent("#memory .injected");
        assert(injected && injected.length > 0, "the injected prelude shows");
      }
      await page.close();
    });
  }

  for (const id of ["runaway-loop", "cost-spiral"]) await check(`playing ${id} shifts no layout as decisions arrive`, async () => {
    const page = await open(id);
    await page.evaluate(() => {
      window.__cls = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
      }).observe({ type: "layout-shift", buffered: false });
    });
    await page.click("#play");
    await page.waitForFunction(() => document.getElementById("step").disabled, null, { timeout: 30_000 });
    const cls = await page.evaluate(() => window.__cls);
    assert(cls < 0.001, `cumulative layout shift ${cls.toFixed(4)}`);
    console.log(`note ${id}: cumulative layout shift ${cls.toFixed(4)}`);
    await page.close();
  });

  await check("keyboard: Tab reaches the controls, Enter steps", async () => {
    const page = await open(SCENARIOS[0].id);
    for (let i = 0; i < 10 && (await page.evaluate(() => document.activeElement?.id)) !== "step"; i++) await page.keyboard.press("Tab");
    assert((await page.evaluate(() => document.activeElement?.id)) === "step", "Step is reachable by Tab");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    assert((await page.textContent("#progress")).startsWith("step 2 "), "two steps taken");
    await page.close();
  });

  await check("free mode: the decision updates as you type", async () => {
    const page = await open("free");
    await page.waitForSelector("#free:not([hidden])");
    await page.fill("#f-message", "Where is my parcel 4821?");
    const call = 'get_tracking {"order_id":"4821"} -> in transit, Memphis';
    await page.fill("#f-tools", Array(5).fill(call).join("\n"));
    await page.waitForFunction(() => document.querySelector("#f-preview .badge")?.dataset.kind === "circuitBreak", null, { timeout: 5000 });
    await page.fill("#f-tools", call);
    await page.waitForFunction(() => document.querySelector("#f-preview .badge")?.dataset.kind === "continue", null, { timeout: 5000 });
    await page.fill("#f-tools", "get_tracking {not json} -> x");
    await page.waitForFunction(() => document.getElementById("f-error").textContent.includes("not JSON"), null, { timeout: 5000 });
    await page.close();
  });

  await check("free mode: pasted markup stays text", async () => {
    const page = await open("free");
    const evil = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"><b>bold</b>`;
    await page.fill("#f-message", evil);
    await page.fill("#f-response", `Echo: ${evil}`);
    await page.click("#f-send");
    await page.waitForSelector("#console .turn");
    assert((await page.textContent("#console .msg-user")).includes(evil), "the message shows as typed");
    assert((await page.locator("#console script, #console img, #console b").count()) === 0, "no element made from it");
    assert((await page.evaluate(() => window.__pwned)) === undefined, "nothing ran");
    await page.close();
  });

  await check("free mode: learned corrections survive a reload; Forget me clears them", async () => {
    const page = await open("free");
    await page.click("#forget");
    for (const [ask, answer, fix] of [
      ["add zod to the project", "Installed zod with npm install zod.", "we use pnpm here, not npm"],
      ["now add vitest", "Installed vitest with npm install -D vitest.", "pnpm again please, not npm"],
      ["run the tests", "Ran npx vitest: 3 passed.", "it's pnpm exec vitest here, not npx"],
    ]) {
      await page.fill("#f-message", ask);
      await page.fill("#f-tools", "");
      await page.fill("#f-response", answer);
      await page.click("#f-send");
      await page.fill("#f-correction", fix);
      await page.click("#f-correct");
    }
    await page.waitForFunction(() => document.getElementById("memory").textContent.includes("Learned rules"), null, { timeout: 5000 });
    await page.waitForFunction(() => /1 learned rule/.test(document.getElementById("stored").textContent), null, { timeout: 5000 });
    await page.screenshot({ path: join(SHOTS, "free-1280.png"), fullPage: true });
    await page.reload();
    await page.waitForSelector("html[data-ready]");
    const memory = await page.textContent("#memory");
    assert(memory.includes("Learned rules") && memory.includes("pnpm"), `after reload: ${memory}`);
    await page.click("#forget");
    await page.waitForFunction(() => !document.getElementById("memory").textContent.includes("Learned rules"), null, { timeout: 5000 });
    await page.reload();
    await page.waitForSelector("html[data-ready]");
    assert((await page.textContent("#memory")).includes("0 corrections"), "forgotten after reload too");
    await page.close();
  });

  for (const viewport of [{ width: 375, height: 800 }, { width: 1440, height: 900 }]) {
    await check(`${viewport.width} px: nothing overflows sideways; screenshots of three scenarios`, async () => {
      for (const id of ["runaway-loop", "scope-drift", "repeated-corrections"].filter((x) => SCENARIOS.some((s) => s.id === x))) {
        const page = await open(id, viewport);
        while (!(await page.isDisabled("#step"))) await page.click("#step");
        const wide = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert(wide <= 0, `${id}: the page is ${wide} px wider than the screen`);
        await page.screenshot({ path: join(SHOTS, `${id}-${viewport.width}.png`), fullPage: true });
        await page.close();
      }
    });
  }

  await check("no console errors or warnings on any page", () => {
    assert(problems.length === 0, problems.join("\n"));
  });
} finally {
  clearTimeout(watchdog);
  await context.close();
  server.kill();
  await rm(profile, { recursive: true, force: true });
}

const failed = results.filter((r) => !r.ok);
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}${r.ok ? ` (${r.ms} ms)` : `\n     ${r.detail.replaceAll("\n", "\n     ")}`}`);
console.log(`screenshots: ${SHOTS}`);
console.log(`demo: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
