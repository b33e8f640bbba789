// The workflow definition as a graph and back, the layered layout and server problems on steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  definitionToGraph,
  edgeOf,
  graphToDefinition,
  layout,
  newStepId,
  nodeName,
  positionsOf,
  outputs,
  problemsByStep,
  type Definition,
} from "../../src/screens/workflows/graph.ts";

const journey: Definition = {
  steps: [
    { id: "hi", type: "inApp", content: { title: "Hi" }, next: "wait" },
    { id: "wait", type: "delay", duration: "5s", next: "check" },
    { id: "check", type: "branch", conditions: [{ if: { step: "hi", is: "notRead" }, next: "mail" }] },
    { id: "mail", type: "email", template: "welcome" },
  ],
};

const everything: Definition = {
  start: "fetch",
  steps: [
    { id: "late", type: "sms", content: { body: "x" } },
    { id: "fetch", type: "fetch", url: "https://example.com/x", next: "gate", onError: "late" },
    { id: "gate", type: "throttle", limit: 2, window: "1h", next: "sum" },
    { id: "sum", type: "digest", window: "10m", key: "{{data.thread}}", next: "note" },
    { id: "note", type: "inApp", template: "t", next: "read" },
    { id: "read", type: "waitForRead", step: "note", timeout: "1d", state: "clicked", next: "pick", timeoutNext: "late" },
    {
      id: "pick",
      type: "branch",
      conditions: [
        { if: { field: "data.plan", op: "eq", value: "pro" }, next: "late" },
        { if: { and: [{ field: "data.n", op: "gt", value: 3 }, { not: { step: "note", is: "read" } }] }, next: "end" },
      ],
      else: "end",
    },
    { id: "end", type: "webhook", content: { url: "https://example.com" } },
  ],
};

test("outputs: one handle per way out, branch conditions then else", () => {
  assert.deepEqual(
    outputs(everything.steps[6]!).map((o) => [o.handle, o.label, o.target]),
    [
      ["cond-0", 'data.plan eq "pro"', "late"],
      ["cond-1", "data.n gt 3 and not (note read)", "end"],
      ["else", "else", "end"],
    ],
  );
  assert.deepEqual(
    outputs(everything.steps[5]!).map((o) => [o.handle, o.label, o.target]),
    [
      ["next", "clicked", "pick"],
      ["timeoutNext", "timeout", "late"],
    ],
  );
  assert.deepEqual(outputs(everything.steps[1]!).map((o) => o.handle), ["next", "onError"]);
  assert.deepEqual(outputs({ id: "x", type: "email" }), [{ handle: "next", label: "", target: undefined }]);
});

test("definitionToGraph: nodes per step, an edge per named step, the start marked", () => {
  const g = definitionToGraph(everything);
  assert.deepEqual(g.nodes.map((n) => n.id), everything.steps.map((s) => s.id));
  assert.deepEqual(g.nodes.filter((n) => n.data.start).map((n) => n.id), ["fetch"]);
  assert.equal(g.edges.length, 10);
  assert.ok(g.edges.some((e) => e.id === "pick:cond-1" && e.target === "end" && e.sourceHandle === "cond-1"));
  assert.ok(g.edges.some((e) => e.id === "read:timeoutNext" && e.target === "late" && e.label === "timeout"));
});

test("round trip: definition → graph → definition is the same definition", () => {
  for (const def of [journey, everything]) {
    const g = definitionToGraph(def);
    assert.deepEqual(graphToDefinition(g.nodes, g.edges), def);
  }
});

test("graphToDefinition: edges decide the ways out; a cut edge ends the run, a cut condition keeps an empty next", () => {
  const g = definitionToGraph(journey);
  const edges = g.edges.filter((e) => e.id !== "wait:next" && e.id !== "check:cond-0");
  edges.push(edgeOf("check", "else", "mail"));
  const def = graphToDefinition(g.nodes, edges);
  assert.equal(def.steps[1]!.next, undefined);
  assert.deepEqual(def.steps[2], { id: "check", type: "branch", conditions: [{ if: { step: "hi", is: "notRead" }, next: "" }], else: "mail" });
  // Moving the start to another node writes start.
  const moved = g.nodes.map((n) => ({ ...n, data: { ...n.data, start: n.id === "wait" } }));
  assert.equal(graphToDefinition(moved, g.edges).start, "wait");
});

test("layout: layers by longest path from the start, unreachable steps last, centred", () => {
  const pos = layout(journey);
  assert.deepEqual([pos.hi!.y, pos.wait!.y, pos.check!.y, pos.mail!.y], [0, 140, 280, 420]);
  assert.equal(pos.hi!.x, 0);
  const all = layout(everything);
  // late is reached from fetch (onError), read (timeout) and pick: it sits below all three.
  assert.ok(all.late!.y > all.pick!.y && all.pick!.y > all.read!.y && all.read!.y > all.fetch!.y);
  assert.equal(all.fetch!.y, 0);
  // end and late share the last layer, side by side around the centre.
  assert.equal(all.end!.y, all.late!.y);
  assert.equal(all.end!.x + all.late!.x, 0);
  const orphan = layout({ steps: [{ id: "a", type: "email" }, { id: "b", type: "sms" }] });
  assert.ok(orphan.b!.y > orphan.a!.y);
  // A cycle (the server refuses it, a draft may have it) still places every step.
  const cyc = layout({ steps: [{ id: "a", type: "delay", next: "b" }, { id: "b", type: "delay", next: "a" }] });
  assert.deepEqual(Object.keys(cyc).sort(), ["a", "b"]);
});

test("newStepId takes the first free type-n", () => {
  assert.equal(newStepId("email", ["email-1", "email-3"]), "email-2");
  assert.equal(newStepId("delay", []), "delay-1");
});

test("problemsByStep: messages under the step they name, the rest under ''", () => {
  const got = problemsByStep(
    [
      "steps[1].duration must be a duration",
      "steps[2] (branch) needs at least one condition",
      "steps[3]: no step with id \"x\"",
      "definition.start: no step with id \"zz\"",
      "steps[9].id should not be empty",
    ],
    journey,
  );
  assert.deepEqual(got, {
    wait: ["duration must be a duration"],
    check: ["(branch) needs at least one condition"],
    mail: ['no step with id "x"'],
    "": ['definition.start: no step with id "zz"', "steps[9].id should not be empty"],
  });
});

test("nodeName: a screen reader hears the node's problems in its name", () => {
  const [, wait] = definitionToGraph(journey).nodes;
  assert.equal(nodeName(wait!), "Step wait (delay)");
  assert.equal(nodeName({ ...wait!, data: { ...wait!.data, problems: ["duration: bad"] } }), "Step wait (delay), 1 problem");
  assert.equal(nodeName({ ...wait!, data: { ...wait!.data, problems: ["a", "b"] } }), "Step wait (delay), 2 problems");
});

test("positions: stored ones are where the steps are drawn, the rest laid out; read back rounded", () => {
  const auto = layout(journey);
  const { nodes } = definitionToGraph(journey, { wait: { x: 412.4, y: -37.6 }, gone: { x: 1, y: 1 } });
  assert.deepEqual(
    nodes.map((n) => [n.id, n.position]),
    [
      ["hi", auto.hi],
      ["wait", { x: 412.4, y: -37.6 }],
      ["check", auto.check],
      ["mail", auto.mail],
    ],
  );
  const back = positionsOf(nodes);
  assert.deepEqual(Object.keys(back), ["hi", "wait", "check", "mail"]);
  assert.deepEqual(back.wait, { x: 412, y: -38 });
  assert.deepEqual(graphToDefinition(nodes, definitionToGraph(journey).edges), journey);
});
