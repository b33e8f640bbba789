// The designer's edits of the graph, each one undoable through the history's commit.
import { applyEdgeChanges, applyNodeChanges, type Connection, type Edge, type EdgeChange, type Node, type NodeChange } from "@xyflow/react";
import { useCallback } from "react";
import { edgeOf, graphToDefinition, layout, newStepId, outputs, type Step, type StepNode, type StepNodeData } from "./graph";
import type { Snapshot } from "./history";
import { newStep, type Components } from "./schemaForm";

type FlowNode = Node<StepNodeData, "step">;
type Change = (fn: (s: Snapshot) => Snapshot, key?: string) => void;

/** withStart makes the first step the start when no step is (the start step was deleted). */
const withStart = (ns: StepNode[]) => (!ns.some((n) => n.data.start) && ns.length ? ns.map((n, i) => (i === 0 ? { ...n, data: { ...n.data, start: true } } : n)) : ns);

/** useGraphEditing returns the designer's edits: from the canvas, the palette and the step panel. */
export function useGraphEditing(commit: Change, quiet: Change, components: Components, nodes: StepNode[]) {
  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      const apply = (s: Snapshot): Snapshot => {
        const kept = withStart(applyNodeChanges(changes, s.nodes as FlowNode[]) as StepNode[]);
        const ids = new Set(kept.map((n) => n.id));
        return { nodes: kept, edges: s.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
      };
      if (changes.some((c) => c.type === "remove" || c.type === "add")) commit(apply);
      else quiet(apply);
    },
    [commit, quiet],
  );
  /** onViewChange: what a viewer may change (selection and sizes). */
  const onViewChange = useCallback(
    (changes: NodeChange<FlowNode>[]) =>
      quiet((s) => ({ ...s, nodes: applyNodeChanges(changes.filter((x) => x.type === "select" || x.type === "dimensions"), s.nodes as FlowNode[]) as StepNode[] })),
    [quiet],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<Edge>[]) => {
      const apply = (s: Snapshot): Snapshot => ({ ...s, edges: applyEdgeChanges(changes, s.edges as Edge[]) as typeof s.edges });
      if (changes.some((c) => c.type === "remove")) commit(apply);
      else quiet(apply);
    },
    [commit, quiet],
  );
  const connect = useCallback(
    (source: string, handle: string, target: string | undefined) =>
      commit((s) => {
        const edges = s.edges.filter((e) => !(e.source === source && e.sourceHandle === handle));
        if (target && target !== source) edges.push(edgeOf(source, handle, target));
        return { ...s, edges };
      }),
    [commit],
  );
  const onConnect = useCallback((c: Connection) => c.source && c.target && connect(c.source, c.sourceHandle ?? "next", c.target), [connect]);

  const addStep = (type: string) =>
    commit((s) => {
      const id = newStepId(type, s.nodes.map((n) => n.id));
      const from = s.nodes.filter((n) => n.selected).length === 1 ? s.nodes.find((n) => n.selected) : undefined;
      const free = from && outputs(from.data.step).find((o) => !s.edges.some((e) => e.source === from.id && e.sourceHandle === o.handle));
      const pos = from ? { x: from.position.x, y: from.position.y + 160 } : { x: 0, y: Math.max(0, ...s.nodes.map((n) => n.position.y + 160)) };
      const node: StepNode = { id, type: "step", position: pos, selected: true, data: { step: newStep(components, type, id), start: s.nodes.length === 0, problems: [] } };
      return {
        nodes: [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node],
        edges: from && free ? [...s.edges, edgeOf(from.id, free.handle, id)] : s.edges,
      };
    });

  const updateStep = (id: string, step: Step) =>
    commit((s) => ({ ...s, nodes: s.nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, step } } : n)) }), `edit:${id}`);

  /** renameStep changes a step's id and every reference to it; false when the id is taken or empty. */
  const renameStep = (from: string, to: string) => {
    if (!to.trim() || to === from || nodes.some((n) => n.id === to)) return false;
    const ref = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(ref) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === "step" && x === from ? to : ref(x)])) : v;
    commit((s) => ({
      nodes: s.nodes.map((n) => {
        const step = ref(n.data.step) as Step;
        return n.id === from ? { ...n, id: to, data: { ...n.data, step: { ...step, id: to } } } : { ...n, data: { ...n.data, step } };
      }),
      edges: s.edges.map((e) => {
        const source = e.source === from ? to : e.source;
        return { ...e, id: `${source}:${e.sourceHandle}`, source, target: e.target === from ? to : e.target };
      }),
    }));
    return true;
  };

  const deleteSelected = () =>
    commit((s) => {
      const gone = new Set(s.nodes.filter((n) => n.selected).map((n) => n.id));
      return {
        nodes: withStart(s.nodes.filter((n) => !gone.has(n.id))),
        edges: s.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target) && !e.selected),
      };
    });

  const autoLayout = () =>
    commit((s) => {
      const pos = layout(graphToDefinition(s.nodes, s.edges));
      return { ...s, nodes: s.nodes.map((n) => ({ ...n, position: pos[n.id] ?? n.position })) };
    });

  const setStart = (id: string) => commit((s) => ({ ...s, nodes: s.nodes.map((n) => ({ ...n, data: { ...n.data, start: n.id === id } })) }));

  return { onNodesChange, onViewChange, onEdgesChange, onConnect, connect, addStep, updateStep, renameStep, deleteSelected, autoLayout, setStart };
}
