// The canvas of the designer: React Flow draws the steps as nodes (a handle per way out)
// and the ways out as edges. Loaded only with the designer's route.
import {
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  type Connection,
  type EdgeChange,
  type Node,
  type NodeChange,
  type NodeProps,
  type Edge,
  type ReactFlowInstance,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { memo, useEffect, useRef } from "react";
import { useTheme } from "../../ui/theme";
import { nodeName, outputs, type StepEdge, type StepNode, type StepNodeData } from "./graph";

type FlowNode = Node<StepNodeData, "step">;

/** summary is the one line a node shows under its id. */
function summary(s: StepNodeData["step"]): string {
  const v = (k: string) => (typeof s[k] === "string" || typeof s[k] === "number" ? String(s[k]) : "");
  switch (s.type) {
    case "delay":
      return v("duration") || (v("until") && `until ${v("until")}`) || (v("timeOfDay") && `at ${v("timeOfDay")}`) || "";
    case "digest":
      return [v("window") && `window ${v("window")}`, v("timeOfDay") && `at ${v("timeOfDay")}`, v("count") && `${v("count")} items`, v("key") && `key ${v("key")}`].filter(Boolean).join(" · ");
    case "throttle":
      return `${v("limit")} per ${v("window")}`;
    case "waitForRead":
      return `${v("step")} ${v("state") || "read"} within ${v("timeout")}`;
    case "fetch":
      return `${v("method") || "GET"} ${v("url")}`;
    case "branch":
      return `${Array.isArray(s.conditions) ? s.conditions.length : 0} condition(s)`;
    default:
      return v("template") ? `template ${v("template")}` : s.content ? "inline content" : "";
  }
}

const StepNodeView = memo(function StepNodeView({ data, selected }: NodeProps<FlowNode>) {
  const outs = outputs(data.step);
  return (
    <div
      className={`wf-node${selected ? " selected" : ""}${data.problems.length ? " has-problems" : ""}`}
      data-type={data.step.type}
      style={{ minWidth: Math.max(170, outs.length * 112) }}
    >
      <Handle type="target" position={Position.Top} aria-label={`Into ${data.step.id}`} />
      <div className="wf-node-head">
        <span className="wf-node-type">{data.step.type}</span>
        {data.start && <span className="badge">start</span>}
        {/* A problem marks the node without growing it over the edges below: the count
            shows, the text is the pill's tooltip, the list is for assistive technology
            (and the step's form shows every problem in full). */}
        {data.problems.length > 0 && (
          <span className="wf-node-problem-count" title={data.problems.join("\n")} aria-hidden="true">
            {data.problems.length} problem{data.problems.length === 1 ? "" : "s"}
          </span>
        )}
      </div>
      <div className="wf-node-id">{data.step.id}</div>
      <div className="wf-node-summary">{summary(data.step)}</div>
      {data.problems.length > 0 && (
        <ul className="sr-only" aria-label={`Problems of ${data.step.id}`}>
          {data.problems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
      <div className="wf-node-outs">
        {outs.map((o, i) => (
          <div key={o.handle} className="wf-node-out" style={{ left: `${((i + 1) / (outs.length + 1)) * 100}%` }}>
            {o.label && <span className="wf-node-out-label">{o.label.length > 16 ? o.label.slice(0, 15) + "…" : o.label}</span>}
            <Handle type="source" position={Position.Bottom} id={o.handle} aria-label={`${data.step.id}: ${o.label || "next"}`} />
          </div>
        ))}
      </div>
    </div>
  );
});

const nodeTypes = { step: StepNodeView };

export type CanvasProps = {
  nodes: StepNode[];
  edges: (StepEdge & { way?: string })[];
  onNodesChange: (c: NodeChange<FlowNode>[]) => void;
  onEdgesChange: (c: EdgeChange<Edge>[]) => void;
  onConnect: (c: Connection) => void;
  onDragStart: () => void;
  /** fitKey: a change fits every step into view (steps added or removed, a new layout). */
  fitKey: string;
  /** readOnly: look and select only (viewers). */
  readOnly?: boolean;
};

/** Canvas draws the graph; changes go back to the designer, which keeps the history. */
export default function Canvas({ nodes, edges, onNodesChange, onEdgesChange, onConnect, onDragStart, fitKey, readOnly }: CanvasProps) {
  const theme = useTheme();
  const flow = useRef<ReactFlowInstance<FlowNode, Edge> | null>(null);
  useEffect(() => {
    // After the new nodes are measured.
    const t = setTimeout(() => flow.current?.fitView({ maxZoom: 1 }), 60);
    return () => clearTimeout(t);
  }, [fitKey]);
  const flowNodes: FlowNode[] = nodes.map((n) => ({ ...n, ariaLabel: nodeName(n) }));
  const flowEdges: Edge[] = edges.map(({ way, ...e }) => ({
    ...e,
    type: "smoothstep",
    markerEnd: { type: MarkerType.ArrowClosed },
    ariaLabel: `${e.source} ${way ? `(${way}) ` : ""}to ${e.target}`,
  }));
  return (
    <div className="wf-canvas">
      <ReactFlow
        aria-label="Workflow canvas"
        onInit={(inst) => (flow.current = inst)}
        nodes={flowNodes}
        edges={flowEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        onNodeDragStart={onDragStart}
        deleteKeyCode={readOnly ? null : ["Delete", "Backspace"]}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        colorMode={theme}
        fitView
        fitViewOptions={{ maxZoom: 1 }}
        proOptions={{ hideAttribution: true }}
      >
        <Background />
        <Controls />
      </ReactFlow>
    </div>
  );
}
