// The server's problems belong to the draft they were reported for: a fixed value typed
// back, an undo or a save of something else makes them stale, and stale ones are not shown.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError } from "../../src/api/errors.ts";
import { pretty } from "../../src/screens/workflows/diff.ts";
import type { Definition } from "../../src/screens/workflows/graph.ts";
import { banner, current, problemCount, reportOf } from "../../src/screens/workflows/problems.ts";

const stored: Definition = { steps: [{ id: "delay-1", type: "delay", duration: "8s" }] };
const broken: Definition = { steps: [{ id: "delay-1", type: "delay", duration: "8 seconds" }] };
const refused = new ApiError(400, ["steps[0].duration must be a duration like 30s, 15m, 2h or 1d"]);

test("a save's 400 is filed under the step it names, for the draft that was sent", () => {
  const r = reportOf(refused, broken, pretty(broken), pretty(stored));
  assert.deepEqual(r.byStep, { "delay-1": ["duration must be a duration like 30s, 15m, 2h or 1d"] });
  assert.equal(current(r, pretty(broken), pretty(stored)), r);
  assert.equal(problemCount(current(r, pretty(broken), pretty(stored))), 1);
  assert.deepEqual(banner(r), ["The draft has 1 problem: see the marked steps"]);
});

test("typing the stored value back makes the report stale: nothing shown, counted or blocking", () => {
  const r = reportOf(refused, broken, pretty(broken), pretty(stored));
  const now = current(r, pretty(stored), pretty(stored));
  assert.equal(now, undefined);
  assert.equal(problemCount(now), 0);
  assert.deepEqual(banner(now), []);
});

test("any other change of the draft makes the report stale; undoing back to it brings it back", () => {
  const r = reportOf(refused, broken, pretty(broken), pretty(stored));
  const other: Definition = { steps: [{ id: "delay-1", type: "delay", duration: "8 secs" }] };
  assert.equal(current(r, pretty(other), pretty(stored)), undefined);
  assert.equal(current(r, pretty(broken), pretty(stored)), r);
});

test("a report is stale once the stored draft changed since (saved elsewhere in between)", () => {
  const r = reportOf(refused, broken, pretty(broken), pretty(stored));
  const later: Definition = { steps: [{ id: "delay-1", type: "delay", duration: "9s" }] };
  assert.equal(current(r, pretty(broken), pretty(later)), undefined);
});

test("a publish failure of the stored draft stands while that draft is on screen", () => {
  const r = reportOf(new ApiError(404, ["workflow not found"]), stored, pretty(stored), pretty(stored));
  assert.equal(problemCount(r), 0);
  assert.deepEqual(banner(current(r, pretty(stored), pretty(stored))), ["workflow not found"]);
  assert.equal(current(r, pretty(broken), pretty(stored)), undefined);
});

test("no report: nothing to show", () => {
  assert.equal(current(undefined, "{}", "{}"), undefined);
  assert.deepEqual(banner(undefined), []);
});
