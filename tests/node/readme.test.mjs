// The README's quickstart runs as pasted, importing "reins" by name as an
// installed package would, and prints what the README says it prints.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

test("the README quickstart runs as pasted", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("## Quickstart"));
  const block = /```js\n([\s\S]*?)```/.exec(section)[1];
  assert.ok(block.trim().split("\n").length <= 15, "at most fifteen lines");
  const dir = mkdtempSync(join(tmpdir(), "reins-quickstart-"));
  try {
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(ROOT, "pkg"), join(dir, "node_modules", "reins"), "dir");
    writeFileSync(join(dir, "quickstart.mjs"), block);
    const out = execFileSync(process.execPath, [join(dir, "quickstart.mjs")], { encoding: "utf8" });
    assert.match(out, /^call 3: toolNudge: /m);
    assert.match(out, /^call 4: circuitBreak: /m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("`npx reins replay` runs the package's bin, as after `npm install reins`", () => {
  const dir = mkdtempSync(join(tmpdir(), "reins-npx-"));
  try {
    mkdirSync(join(dir, "node_modules", ".bin"), { recursive: true });
    symlinkSync(join(ROOT, "pkg"), join(dir, "node_modules", "reins"), "dir");
    // npm links each `bin` entry so; the path must be the package's own.
    const bin = JSON.parse(readFileSync(join(ROOT, "pkg", "package.json"), "utf8")).bin.reins;
    symlinkSync(join("..", "reins", bin), join(dir, "node_modules", ".bin", "reins"));
    writeFileSync(join(dir, "package.json"), "{}");
    const chat = [{ role: "user", content: "Where is order 4821?" }, { role: "assistant", content: "It shipped yesterday." }];
    writeFileSync(join(dir, "chat.json"), JSON.stringify(chat));
    const out = execFileSync("npx", ["--no", "reins", "replay", "chat.json"], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
    assert.match(out, /^1 runs from 1 file \(0 succeeded, 0 failed, 1 without an outcome\)/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
