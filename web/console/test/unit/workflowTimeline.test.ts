// The test run's timeline (the step a run is on, delays counting down) and the version diff.
import { test } from "node:test";
import assert from "node:assert/strict";
import { current, durationMs, finished, nextAfter, remaining, type RunView } from "../../src/screens/workflows/timeline.ts";
import { canonical, diffLines, pretty } from "../../src/screens/workflows/diff.ts";
import type { Definition } from "../../src/screens/workflows/graph.ts";

const def: Definition = {
  steps: [
    { id: "hi", type: "inApp", content: { title: "Hi" }, next: "wait" },
    { id: "wait", type: "delay", duration: "5s", next: "check" },
    { id: "check", type: "branch", conditions: [{ if: { step: "hi", is: "notRead" }, next: "mail" }] },
    { id: "mail", type: "email", content: { subject: "s", text: "t" } },
    { id: "read", type: "waitForRead", step: "hi", timeout: "1h", next: "mail", timeoutNext: "check" },
  ],
};
const t0 = Date.parse("2026-01-01T00:00:00Z");
const at = (s: number) => new Date(t0 + s * 1000).toISOString();
const run = (steps: RunView["steps"], status = "running"): RunView => ({ userIdentifier: "ann", status, startedAt: at(0), steps });

test("durationMs reads workflow durations", () => {
  assert.equal(durationMs("5s"), 5000);
  assert.equal(durationMs("1d12h"), 129_600_000);
  assert.equal(durationMs("1.5m"), 90_000);
  assert.equal(durationMs("250ms"), 250);
  assert.equal(durationMs("soon"), undefined);
  assert.equal(durationMs(undefined), undefined);
});

test("current: the start before any step, then the way out of the last step", () => {
  assert.equal(current(run([]), def)?.step.id, "hi");
  const waiting = current(run([{ stepId: "hi", stepType: "inApp", outcome: "sent", detail: "", createdAt: at(1) }]), def)!;
  assert.equal(waiting.step.id, "wait");
  assert.equal(waiting.endsAt, t0 + 6000);
  assert.equal(remaining(waiting.endsAt!, t0 + 2500), 4);
  assert.equal(remaining(waiting.endsAt!, t0 + 9000), 0);
  const branched = run([
    { stepId: "hi", stepType: "inApp", outcome: "sent", detail: "", createdAt: at(1) },
    { stepId: "wait", stepType: "delay", outcome: "waited", detail: "5s", createdAt: at(6) },
    { stepId: "check", stepType: "branch", outcome: "branched", detail: "condition 0 → mail", createdAt: at(6) },
  ]);
  assert.equal(current(branched, def)?.step.id, "mail");
  assert.equal(current(branched, def)?.endsAt, undefined);
  assert.equal(current({ ...branched, status: "completed" }, def), undefined);
  const ended = run([{ stepId: "check", stepType: "branch", outcome: "branched", detail: "else → end", createdAt: at(1) }]);
  assert.equal(current(ended, def), undefined);
});

test("nextAfter: wait outcomes, fetch errors, digests and throttles end the run", () => {
  const rec = (outcome: string, detail = "") => ({ stepId: "x", stepType: "x", outcome, detail, createdAt: at(0) });
  assert.equal(nextAfter(def.steps[4]!, rec("waited", "read")), "mail");
  assert.equal(nextAfter(def.steps[4]!, rec("waited", "timed out")), "check");
  assert.equal(nextAfter({ id: "f", type: "fetch", next: "a", onError: "b" }, rec("failed")), "b");
  assert.equal(nextAfter({ id: "f", type: "fetch", next: "a", onError: "b" }, rec("fetched")), "a");
  assert.equal(nextAfter({ id: "d", type: "digest", next: "a" }, rec("digested")), "");
  assert.equal(nextAfter({ id: "t", type: "throttle", next: "a" }, rec("passed")), "a");
});

test("finished: every run ended, and there is one", () => {
  assert.equal(finished([]), false);
  assert.equal(finished([run([], "completed"), run([], "running")]), false);
  assert.equal(finished([run([], "completed"), run([], "failed")]), true);
});

test("diffLines: kept, removed and added lines in order", () => {
  assert.deepEqual(diffLines("a\nb\nc", "a\nc\nd"), [
    { op: " ", text: "a" },
    { op: "-", text: "b" },
    { op: " ", text: "c" },
    { op: "+", text: "d" },
  ]);
  assert.deepEqual(diffLines("x", "x"), [{ op: " ", text: "x" }]);
  assert.deepEqual(diffLines("", "y").filter((l) => l.op !== " "), [{ op: "-", text: "" }, { op: "+", text: "y" }]);
});

test("canonical: key order does not make a difference", () => {
  const a = { steps: [{ next: "b", type: "delay", id: "a", duration: "1s" }], start: "a" };
  const b = { start: "a", steps: [{ id: "a", duration: "1s", type: "delay", next: "b" }] };
  assert.equal(pretty(canonical(a)), pretty(canonical(b)));
  assert.deepEqual(Object.keys(canonical(a) as object), ["start", "steps"]);
  assert.deepEqual(Object.keys((canonical(a) as { steps: object[] }).steps[0]!), ["id", "type", "duration", "next"]);
});
