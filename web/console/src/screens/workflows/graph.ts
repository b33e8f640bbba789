// A workflow definition as a graph and back (pure: no React, no DOM; unit-tested in
// test/unit/workflowGraph.test.ts). Nodes are the steps, keyed by step id; edges are the
// step fields that name another step: next, else, conditions[i].next, timeoutNext,
// onError. The node and edge shapes are those React Flow draws.

/** Step is one step of a definition: id, type, and the fields of its type. */
export type Step = { id: string; type: string; next?: string; [field: string]: unknown };
/** Definition is a workflow definition as /v1/apps/{appId}/workflows stores it. */
export type Definition = { start?: string; steps: Step[] };
/** Condition is a branch predicate (WorkflowCondition). */
export type Condition = {
  field?: string;
  op?: string;
  value?: unknown;
  step?: string;
  is?: string;
  and?: Condition[];
  or?: Condition[];
  not?: Condition;
};

export type StepNodeData = { step: Step; start: boolean; problems: string[] };
export type StepNode = { id: string; type: "step"; position: { x: number; y: number }; data: StepNodeData; selected?: boolean };
export type StepEdge = { id: string; source: string; target: string; sourceHandle: string; label?: string; selected?: boolean };

/** Output is one way out of a step: a handle on its node and the step it leads to. */
export type Output = { handle: string; label: string; target?: string };

/** The fields that name the step after this one; the canvas edits them as edges. */
export const edgeFields = ["next", "else", "timeoutNext", "onError"] as const;

/** outputs lists a step's ways out, in the order its node shows their handles. */
export function outputs(step: Step): Output[] {
  const str = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  switch (step.type) {
    case "branch": {
      const conds = Array.isArray(step.conditions) ? (step.conditions as { if?: Condition; next?: string }[]) : [];
      return [
        ...conds.map((c, i) => ({ handle: `cond-${i}`, label: describeCondition(c?.if), target: str(c?.next) })),
        { handle: "else", label: "else", target: str(step.else) },
      ];
    }
    case "waitForRead":
      return [
        { handle: "next", label: typeof step.state === "string" && step.state ? step.state : "read", target: str(step.next) },
        { handle: "timeoutNext", label: "timeout", target: str(step.timeoutNext) },
      ];
    case "fetch":
      return [
        { handle: "next", label: "ok", target: str(step.next) },
        { handle: "onError", label: "error", target: str(step.onError) },
      ];
    case "digest":
    case "throttle":
    case "delay":
    default:
      return [{ handle: "next", label: "", target: str(step.next) }];
  }
}

/** describeCondition is a short reading of a condition, for edge labels. */
export function describeCondition(c: Condition | undefined): string {
  if (!c || typeof c !== "object") return "?";
  if (c.and) return c.and.map(describeCondition).join(" and ");
  if (c.or) return c.or.map(describeCondition).join(" or ");
  if (c.not) return `not (${describeCondition(c.not)})`;
  if (c.step !== undefined) return `${c.step} ${c.is ?? "?"}`;
  if (c.field !== undefined) {
    if (c.op === "exists" || c.op === "notExists") return `${c.field} ${c.op}`;
    return `${c.field} ${c.op ?? "?"} ${JSON.stringify(c.value ?? null)}`;
  }
  return "?";
}

/** startOf is the id of the step a run begins with. */
export const startOf = (def: Definition) => def.start || def.steps[0]?.id || "";

/**
 * definitionToGraph draws a definition: one node per step, one edge per way out that names a
 * step; a step is where positions says, or where the automatic layout puts it.
 */
export function definitionToGraph(def: Definition, positions: Positions = {}): { nodes: StepNode[]; edges: StepEdge[] } {
  const ids = new Set(def.steps.map((s) => s.id));
  const start = startOf(def);
  const laid = { ...layout(def), ...positions };
  const nodes: StepNode[] = def.steps.map((s) => ({
    id: s.id,
    type: "step",
    position: laid[s.id] ?? { x: 0, y: 0 },
    data: { step: s, start: s.id === start, problems: [] },
  }));
  const edges: StepEdge[] = [];
  for (const s of def.steps) {
    for (const o of outputs(s)) {
      if (o.target && ids.has(o.target)) edges.push(edgeOf(s.id, o.handle, o.target, o.label));
    }
  }
  return { nodes, edges };
}

/** Positions is where the designer draws each step, by step id (stored with the draft, not in it). */
export type Positions = Record<string, { x: number; y: number }>;

/** positionsOf is where the nodes are, in node order, rounded to whole canvas units. */
export function positionsOf(nodes: StepNode[]): Positions {
  return Object.fromEntries(nodes.map((n) => [n.id, { x: Math.round(n.position.x), y: Math.round(n.position.y) }]));
}

/** nodeName is a node's accessible name: its id, its type and how many problems it shows. */
export function nodeName(n: StepNode): string {
  const k = n.data.problems.length;
  return `Step ${n.id} (${n.data.step.type})${k ? `, ${k} problem${k === 1 ? "" : "s"}` : ""}`;
}

/** edgeOf is the edge of one way out (one edge per source handle: its id says so). */
export function edgeOf(source: string, handle: string, target: string, label?: string): StepEdge {
  return { id: `${source}:${handle}`, source, target, sourceHandle: handle, ...(label ? { label } : {}) };
}

/**
 * graphToDefinition reads the definition back from the graph: the steps in node order,
 * their step-naming fields taken from the edges (a way out without an edge ends the run,
 * except a condition's, which keeps an empty next for the server to name). start is
 * written only when the start node is not the first.
 */
export function graphToDefinition(nodes: StepNode[], edges: StepEdge[]): Definition {
  const out = new Map<string, Map<string, string>>();
  for (const e of edges) {
    if (!out.has(e.source)) out.set(e.source, new Map());
    out.get(e.source)!.set(e.sourceHandle, e.target);
  }
  const steps = nodes.map((n) => {
    const s: Step = { ...n.data.step, id: n.id };
    const ways = out.get(n.id) ?? new Map<string, string>();
    for (const f of edgeFields) delete s[f];
    if (s.type === "branch" && Array.isArray(s.conditions)) {
      s.conditions = (s.conditions as Record<string, unknown>[]).map((c, i) => ({ ...c, next: ways.get(`cond-${i}`) ?? "" }));
    }
    for (const f of edgeFields) {
      if (s.type === "branch" && f === "next") continue;
      const t = ways.get(f);
      if (t) s[f] = t;
    }
    return s;
  });
  const def: Definition = { steps };
  const start = nodes.find((n) => n.data.start)?.id;
  if (start && start !== nodes[0]?.id) def.start = start;
  return def;
}

const colWidth = 260;
const rowHeight = 140;

/**
 * layout places the steps in layers top-down: a step's layer is the longest path to it from
 * the start (so every edge points down), steps in a layer side by side in the order their
 * parents reach them, each layer centred. Steps the start does not reach go in a last layer.
 */
export function layout(def: Definition): Record<string, { x: number; y: number }> {
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  const children = (id: string) =>
    outputs(byId.get(id)!)
      .map((o) => o.target)
      .filter((t): t is string => !!t && byId.has(t));
  const rank = new Map<string, number>();
  const order: string[] = [];
  // Longest path by relaxation in topological order (Kahn); edges of a cycle are ignored.
  const indeg = new Map<string, number>(def.steps.map((s) => [s.id, 0]));
  for (const s of def.steps) for (const t of children(s.id)) indeg.set(t, indeg.get(t)! + 1);
  const start = startOf(def);
  const queue = [start, ...def.steps.map((s) => s.id).filter((id) => id !== start && indeg.get(id) === 0)].filter((id) => byId.has(id));
  const seen = new Set<string>();
  const reach = new Set<string>();
  if (byId.has(start)) {
    const stack = [start];
    while (stack.length) {
      const id = stack.pop()!;
      if (reach.has(id)) continue;
      reach.add(id);
      stack.push(...children(id));
    }
  }
  for (const id of queue) rank.set(id, 0);
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    order.push(id);
    for (const t of children(id)) {
      rank.set(t, Math.max(rank.get(t) ?? 0, rank.get(id)! + 1));
      indeg.set(t, indeg.get(t)! - 1);
      if (indeg.get(t) === 0) queue.push(t);
    }
  }
  // Steps on a cycle never reach in-degree 0: put them after what was placed.
  let last = Math.max(-1, ...rank.values());
  for (const s of def.steps) if (!seen.has(s.id)) (order.push(s.id), rank.set(s.id, ++last));
  // Unreachable steps go below everything.
  const deepest = Math.max(0, ...[...rank.entries()].filter(([id]) => reach.has(id)).map(([, r]) => r));
  const layers: string[][] = [];
  for (const id of order) {
    const r = reach.has(id) || reach.size === 0 ? rank.get(id)! : deepest + 1;
    (layers[r] ??= []).push(id);
  }
  const pos: Record<string, { x: number; y: number }> = {};
  layers.forEach((ids, r) => {
    ids?.forEach((id, i) => {
      pos[id] = { x: (i - (ids.length - 1) / 2) * colWidth, y: r * rowHeight };
    });
  });
  return pos;
}

/** newStepId is type-1, type-2, … : the first not taken. */
export function newStepId(type: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let n = 1; ; n++) if (!used.has(`${type}-${n}`)) return `${type}-${n}`;
}

/**
 * problemsByStep files the server's messages under the steps they name ("steps[2].url …"
 * names the third step of the definition that was sent); the rest go under "".
 */
export function problemsByStep(messages: string[], def: Definition): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const m of messages) {
    const hit = /^(?:definition\.)?steps\[(\d+)\]/.exec(m);
    const id = hit ? def.steps[Number(hit[1])]?.id : undefined;
    (out[id ?? ""] ??= []).push(id !== undefined ? m.replace(/^(?:definition\.)?steps\[\d+\][.:]?\s*/, "") || m : m);
  }
  return out;
}
