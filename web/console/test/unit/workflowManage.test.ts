// Managing workflows: a duplicate's proposed identifier, when Cancel is offered, what it did.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cancelledText, copyIdentifier, copyName, running } from "../../src/screens/workflows/manage.ts";

test("a duplicate is proposed as the server derives it", () => {
  assert.equal(copyIdentifier("welcome"), "welcome-copy");
  assert.equal(copyName("Welcome"), "Welcome (copy)");
});

test("cancel is offered while a run is running", () => {
  assert.equal(running(undefined), 0);
  assert.equal(running([{ status: "completed" }, { status: "cancelled" }]), 0);
  assert.equal(running([{ status: "running" }, { status: "completed" }, { status: "running" }]), 2);
});

test("the outcome of a cancel is said in words", () => {
  assert.equal(cancelledText({ cancelled: 0, failed: 0 }), "Nothing was running any more.");
  assert.equal(cancelledText({ cancelled: 1, failed: 0 }), "1 run cancelled.");
  assert.equal(cancelledText({ cancelled: 2, failed: 1 }), "2 runs cancelled; 1 could not be stopped in Temporal (marked cancelled).");
});
