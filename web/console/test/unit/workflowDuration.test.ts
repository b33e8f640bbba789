// Durations as an amount and a unit; "8s" typed whole still works.
import { test } from "node:test";
import assert from "node:assert/strict";
import { splitDuration, typed } from "../../src/screens/workflows/duration.ts";

test("splitDuration: one number and one unit; anything else is not split", () => {
  assert.deepEqual(splitDuration("8s"), { amount: "8", unit: "s" });
  assert.deepEqual(splitDuration("1.5h"), { amount: "1.5", unit: "h" });
  assert.deepEqual(splitDuration(" 3d "), { amount: "3", unit: "d" });
  for (const v of ["1d12h", "90ms", "soon", "8 seconds", "", undefined, 8]) assert.equal(splitDuration(v), undefined, String(v));
});

test("typed: a bare number takes the menu's unit, 8s is itself, the rest is kept for the check", () => {
  assert.equal(typed("15", "m"), "15m");
  assert.equal(typed("8s", "m"), "8s");
  assert.equal(typed(" 2 h", "s"), "2h");
  assert.equal(typed("1d12h", "s"), "1d12h");
  assert.equal(typed("8 seconds", "s"), "8 seconds");
  assert.equal(typed("  ", "s"), "");
});
