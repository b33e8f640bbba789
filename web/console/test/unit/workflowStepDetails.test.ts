// What the run timeline shows of a step when expanded: a branch's comparisons, a wait's
// release, and the email document for the sandboxed frame.
import { test } from "node:test";
import assert from "node:assert/strict";
import { comparisonText, emailDocument, hasDetails, waitText, type StepRecord } from "../../src/screens/workflows/stepDetails.ts";

const base: StepRecord = { stepId: "check", stepType: "branch", outcome: "branched", detail: "", version: 1, createdAt: "2026-11-26T10:00:00Z", input: null, evaluation: null, message: null };

test("a comparison reads as the field, the value it had, the operator, the wanted value and the result", () => {
  assert.equal(comparisonText({ field: "data.total", op: "gt", value: 100, actual: 120, found: true, result: true }), "data.total (120) gt 100 → true");
  assert.equal(comparisonText({ field: "profile.plan", op: "eq", value: "pro", found: false, result: false }), 'profile.plan (missing) eq "pro" → false');
  assert.equal(
    comparisonText({ step: "ask", is: "read", state: { delivered: true, seen: true, read: false, clicked: false, interacted: false }, found: true, negated: true, result: false }),
    "not ask is read (known: delivered, seen) → false",
  );
});

test("a wait reads as what released it and when", () => {
  const at = "2026-11-26T10:02:03Z";
  const t = () => "10:02:03";
  const w = { step: "ask", state: "read", timeout: "10m", at, observed: { delivered: true, seen: true, read: true, clicked: false, interacted: false } };
  assert.equal(waitText({ ...w, released: "inboxEvent" }, t), "read at 10:02:03: released by an inbox event");
  assert.equal(waitText({ ...w, released: "timedOut" }, t), "timed out at 10:02:03 (waited for read of ask, timeout 10m)");
});

test("the email document gets a policy that loads nothing from outside", () => {
  const doc = emailDocument("<html><head><title>x</title></head><body><img src=https://t.example/p.gif></body></html>");
  assert.match(doc, /<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:;/);
  assert.match(emailDocument("<p>hi</p>"), /^<meta http-equiv="Content-Security-Policy"[^>]*><p>hi<\/p>$/);
});

test("a step without anything recorded has no details", () => {
  assert.equal(hasDetails(base), false);
  assert.equal(hasDetails({ ...base, input: { data: {}, recipient: { identifier: "ann" }, truncated: false } }), true);
});
