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
