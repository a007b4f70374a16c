import { test } from "node:test";
import assert from "node:assert/strict";
import { Regulator } from "../../pkg/entry-node.js";
import { runScenario } from "../shared/scenario.mjs";

test("the shared scenario gets the expected decisions", () => {
  const { failures, seen } = runScenario(Regulator);
  assert.deepEqual(failures, []);
  assert.ok(seen.length >= 12);
});
