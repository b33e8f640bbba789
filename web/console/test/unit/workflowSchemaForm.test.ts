// The step form read from the workflow JSON Schema of /v1/openapi.json.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  check,
  checkStep,
  conditionMode,
  conditionModes,
  fields,
  isChannel,
  newStep,
  parseValue,
  resolve,
  stepTypes,
  waitKinds,
  type Components,
} from "../../src/screens/workflows/schemaForm.ts";

const doc = JSON.parse(readFileSync(new URL("../../../../api/v1/openapi.json", import.meta.url), "utf8"));
const components = doc.components.schemas as Components;

test("stepTypes: every type of the discriminator, channels and control steps", () => {
  const types = stepTypes(components);
  for (const t of ["inApp", "email", "sms", "delay", "digest", "branch", "waitForRead", "fetch", "throttle"]) assert.ok(types.includes(t), t);
  assert.ok(isChannel(components, "email"));
  assert.ok(!isChannel(components, "delay"));
});

test("fields: kinds from the schema, edges left to the canvas", () => {
  const kinds = (type: string) => Object.fromEntries(fields(components, type).map((f) => [f.name, f.kind]));
  // sendWindow ({days, start, end}) is edited as JSON in the step panel for now; template,
  // content and layout by the step's content editor (StepContent), not by these kinds.
  assert.deepEqual(kinds("email"), { template: "template", content: "map", layout: "text", sendWindow: "json" });
  assert.deepEqual(kinds("delay"), { duration: "duration", until: "text", timeOfDay: "text", timezone: "text" });
  assert.deepEqual(kinds("digest"), { window: "duration", count: "integer", key: "text", timeOfDay: "text", timezone: "text" });
  assert.deepEqual(kinds("branch"), { conditions: "conditions" });
  assert.deepEqual(kinds("waitForRead"), { step: "stepRef", state: "enum", timeout: "duration" });
  assert.deepEqual(kinds("throttle"), { limit: "integer", window: "duration", key: "text" });
  assert.equal(kinds("fetch").method, "enum");
  assert.equal(kinds("fetch").headers, "map");
  assert.equal(kinds("fetch").onError, undefined);
  const delay = fields(components, "delay");
  assert.deepEqual(delay.find((f) => f.name === "duration")!.group, ["duration", "until", "timeOfDay"]);
  assert.equal(fields(components, "throttle").find((f) => f.name === "limit")!.required, true);
  assert.deepEqual(fields(components, "nope"), []);
});

test("a new step type in the schema gets its form without code", () => {
  const extended: Components = structuredClone(components);
  extended.WorkflowPauseStep = {
    type: "object",
    required: ["id", "type", "reason"],
    properties: { id: { type: "string" }, type: { type: "string", enum: ["pause"] }, next: { type: "string" }, reason: { type: "string" }, hours: { type: "integer", minimum: 1 } },
  };
  extended.WorkflowStep!.discriminator!.mapping!.pause = "#/components/schemas/WorkflowPauseStep";
  assert.ok(stepTypes(extended).includes("pause"));
  assert.deepEqual(fields(extended, "pause").map((f) => [f.name, f.kind, f.required]), [
    ["reason", "text", true],
    ["hours", "integer", false],
  ]);
  assert.deepEqual(newStep(extended, "pause", "pause-1"), { id: "pause-1", type: "pause", reason: "" });
});

test("check: required, durations, enums, bounds", () => {
  const f = (type: string, name: string) => fields(components, type).find((x) => x.name === name)!;
  assert.deepEqual(check(f("throttle", "limit"), undefined), ["limit is required"]);
  assert.deepEqual(check(f("throttle", "limit"), 0), ["limit must be at least 1"]);
  assert.deepEqual(check(f("throttle", "limit"), 1.5), ["limit must be a whole number"]);
  assert.deepEqual(check(f("digest", "count"), 1001), ["count must be at most 1000"]);
  assert.deepEqual(check(f("delay", "duration"), "5s"), []);
  assert.deepEqual(check(f("delay", "duration"), "1d12h"), []);
  assert.deepEqual(check(f("delay", "duration"), "soon"), ["duration must be a duration like 30s, 15m, 2h or 1d"]);
  assert.deepEqual(check(f("waitForRead", "state"), "opened"), ["state must be one of read, clicked, seen, interacted"]);
  assert.deepEqual(check(f("delay", "timeOfDay"), "25:00"), ["timeOfDay has the wrong form"]);
  assert.deepEqual(check(f("delay", "until"), "{{data.at}}"), []);
});

test("checkStep: one-of groups of the variant", () => {
  assert.deepEqual(checkStep(components, { id: "d", type: "delay" }), { "": ["needs one of duration, until, timeOfDay"] });
  assert.deepEqual(checkStep(components, { id: "d", type: "delay", duration: "1m", until: "{{data.x}}" }), { "": ["needs exactly one of duration, until, timeOfDay"] });
  assert.deepEqual(checkStep(components, { id: "d", type: "delay", duration: "1m" }), {});
  assert.deepEqual(checkStep(components, { id: "m", type: "email", template: "welcome" }), {});
  assert.deepEqual(checkStep(components, { id: "g", type: "digest", window: "1m", count: 5 }), {});
  assert.deepEqual(checkStep(components, { id: "g", type: "digest" }), { "": ["needs at least one of window, count, timeOfDay"] });
  assert.deepEqual(checkStep(components, { id: "g", type: "digest", timeOfDay: "08:00", count: 5 }), {});
  assert.deepEqual(checkStep(components, { id: "g", type: "digest", timeOfDay: "08:00", window: "1h" }), { "": ["takes window or timeOfDay, not both"] });
  assert.deepEqual(checkStep(components, { id: "g", type: "digest", timeOfDay: "8 am" }), { timeOfDay: ["timeOfDay has the wrong form"] });
  assert.deepEqual(checkStep(components, { id: "d", type: "delay", timeOfDay: "08:00:30" }), {});
});

test("newStep: required fields present and empty, a branch with one condition", () => {
  assert.deepEqual(newStep(components, "throttle", "t"), { id: "t", type: "throttle", limit: 1, window: "" });
  assert.deepEqual(newStep(components, "waitForRead", "w"), { id: "w", type: "waitForRead", step: "", timeout: "" });
  const b = newStep(components, "branch", "b");
  assert.deepEqual(b.conditions, [{ if: { field: "data.", op: "eq", value: "" }, next: "" }]);
});

test("conditions: modes from the schema's oneOf, a condition's mode, values typed as JSON", () => {
  assert.deepEqual(conditionModes(components), [["field", "op"], ["step", "is"], ["and"], ["or"], ["not"]]);
  assert.equal(conditionMode(components, { step: "a", is: "read" }), 1);
  assert.equal(conditionMode(components, { field: "data.x", op: "eq", value: 1 }), 0);
  assert.equal(conditionMode(components, { not: { step: "a", is: "read" } }), 4);
  assert.equal(conditionMode(components, {}), -1);
  assert.deepEqual(parseValue("3"), 3);
  assert.deepEqual(parseValue('["a","b"]'), ["a", "b"]);
  assert.equal(parseValue("pro"), "pro");
  assert.deepEqual(resolve(components, { $ref: "#/components/schemas/WorkflowCondition" }).properties!.is!.enum!.slice(0, 2), ["read", "notRead"]);
});

test("waitKinds: a delay waits for a duration, until a time, or until a time of day (with its time zone); others have no picker", () => {
  assert.deepEqual(waitKinds(components, "delay"), [
    { field: "duration", label: "For a duration", with: [] },
    { field: "until", label: "Until a time", with: [] },
    { field: "timeOfDay", label: "Until a time of day in the recipient's time zone", with: ["timezone"] },
  ]);
  for (const t of ["email", "throttle", "branch"]) assert.deepEqual(waitKinds(components, t), [], t);
});

test("waitKinds: a digest closes after a window or at a time of day (with its time zone), the count beside either", () => {
  assert.deepEqual(waitKinds(components, "digest"), [
    { field: "window", label: "For a window after the first trigger", with: [] },
    { field: "timeOfDay", label: "Until a time of day in the recipient's time zone", with: ["timezone"] },
  ]);
});
