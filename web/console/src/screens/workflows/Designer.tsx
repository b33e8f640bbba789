// The workflow designer: the workflow as a graph on a canvas, a palette of the step types
// of the workflow JSON Schema, a side panel with the selected step's form, undo and redo,
// the server's problems on the steps they name, drafts, publishing, the JSON view, the
// version history and test runs.
import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { applyEdgeChanges, applyNodeChanges, type Connection, type Edge, type EdgeChange, type Node, type NodeChange } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useOutletContext, useParams } from "react-router-dom";
import { api, ApiError, data } from "../../api/client";
import { Button, ErrorState, FormError, Loading, useToast } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import Canvas from "./Canvas";
import { pretty } from "./diff";
import {
  definitionToGraph,
  edgeOf,
  graphToDefinition,
  layout,
  newStepId,
  outputs,
  problemsByStep,
  type Definition,
  type Step,
  type StepEdge,
  type StepNode,
  type StepNodeData,
} from "./graph";
import { isChannel, newStep, stepTypes, type Components } from "./schemaForm";
import { StepForm } from "./StepForm";
import { TestRun } from "./TestRun";
import { Versions } from "./Versions";

type Snapshot = { nodes: StepNode[]; edges: StepEdge[] };
type History = { past: Snapshot[]; present: Snapshot; future: Snapshot[] };

/** useWorkflowSchema loads the workflow JSON Schema: components.schemas of /v1/openapi.json. */
export const useWorkflowSchema = () =>
  useQuery({
    queryKey: ["openapi", "v1"],
    staleTime: Infinity,
    queryFn: async () => {
      const res = await fetch("/v1/openapi.json");
      if (!res.ok) throw new ApiError(res.status, ["the workflow schema could not be loaded"]);
      return ((await res.json()) as { components: { schemas: Components } }).components.schemas;
    },
  });

/** Designer is the screen of one workflow (/apps/:appId/workflows/:identifier). */
export default function Designer() {
  const app = useOutletContext<App>();
  const { identifier = "" } = useParams();
  useEffect(() => {
    document.title = `${identifier} · Workflows · ${app.name} · Herald`;
  }, [app.name, identifier]);
  const flow = useQuery({
    queryKey: ["apps", app.id, "workflows", identifier],
    queryFn: () => data(api.GET("/v1/apps/{appId}/workflows/{identifier}", { params: { path: { appId: app.id!, identifier } } })),
  });
  const schema = useWorkflowSchema();
  if (flow.isError) return <ErrorState error={flow.error} retry={() => flow.refetch()} />;
  if (schema.isError) return <ErrorState error={schema.error} retry={() => schema.refetch()} />;
  if (!flow.data || !schema.data) return <Loading label="Loading the workflow" />;
  return <Editor key={identifier} app={app} flow={flow.data as Flow} components={schema.data} />;
}

type Flow = { identifier: string; name: string; definition: Definition; publishedVersion?: number | null };

function Editor({ app, flow, components }: { app: App; flow: Flow; components: Components }) {
  const qc = useQueryClient();
  const toast = useToast();
  const clients = useClients();
  const role = clients.data?.find((c) => c.id === app.clientId)?.role;
  const canEdit = atLeast(role, "developer");
  const [hist, setHist] = useState<History>(() => ({ past: [], present: definitionToGraph(flow.definition), future: [] }));
  const [saved, setSaved] = useState(() => pretty(graphToDefinition(definitionToGraph(flow.definition).nodes, definitionToGraph(flow.definition).edges)));
  const [problems, setProblems] = useState<Record<string, string[]>>({});
  const [tab, setTab] = useState("canvas");
  const [layouts, setLayouts] = useState(0);
  const pushed = useRef(false);

  const { nodes, edges } = hist.present;
  const definition = useMemo(() => graphToDefinition(nodes, edges), [nodes, edges]);
  const json = useMemo(() => pretty(definition), [definition]);
  const dirty = json !== saved;
  const selected = nodes.filter((n) => n.selected);
  const one = selected.length === 1 ? selected[0] : undefined;

  /**
   * commit makes a change undoable: the present goes to the past, once per event, and once
   * per run of changes with the same key (typing in one step's form is one undo step).
   */
  const lastKey = useRef("");
  const commit = useCallback((fn: (s: Snapshot) => Snapshot, key = "") => {
    const same = key !== "" && key === lastKey.current;
    lastKey.current = key;
    setHist((h) => {
      const next = fn(h.present);
      if (next === h.present) return h;
      const past = pushed.current || same ? h.past : [...h.past.slice(-99), h.present];
      pushed.current = true;
      queueMicrotask(() => (pushed.current = false));
      return { past, present: next, future: [] };
    });
  }, []);
  /** quiet changes the present without history (selection, sizes, a drag in progress). */
  const quiet = useCallback((fn: (s: Snapshot) => Snapshot) => setHist((h) => ({ ...h, present: fn(h.present) })), []);
  const undo = useCallback(
    () => (lastKey.current = "", setHist((h) => (h.past.length ? { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] } : h))),
    [],
  );
  const redo = useCallback(
    () => (lastKey.current = "", setHist((h) => (h.future.length ? { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) } : h))),
    [],
  );

  // Leaving the page with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest("input, textarea, select, [contenteditable]")) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === "z" && !e.shiftKey) (e.preventDefault(), undo());
      else if (mod && (e.key.toLowerCase() === "y" || (e.key.toLowerCase() === "z" && e.shiftKey))) (e.preventDefault(), redo());
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo, redo]);

  const onNodesChange = useCallback(
    (changes: NodeChange<Node<StepNodeData, "step">>[]) => {
      const apply = (s: Snapshot): Snapshot => {
        const kept = applyNodeChanges(changes, s.nodes as Node<StepNodeData, "step">[]) as StepNode[];
        const ids = new Set(kept.map((n) => n.id));
        let ns = kept;
        // Deleting the start step makes the first remaining step the start.
        if (!ns.some((n) => n.data.start) && ns.length) ns = ns.map((n, i) => (i === 0 ? { ...n, data: { ...n.data, start: true } } : n));
        return { nodes: ns, edges: s.edges.filter((e) => ids.has(e.source) && ids.has(e.target)) };
      };
      if (changes.some((c) => c.type === "remove" || c.type === "add")) commit(apply);
      else quiet(apply);
    },
    [commit, quiet],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<Edge>[]) => {
      const apply = (s: Snapshot): Snapshot => ({ ...s, edges: applyEdgeChanges(changes, s.edges as Edge[]) as StepEdge[] });
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
      const node: StepNode = { id, type: "step", position: pos, selected: true, data: { step: newStep(components, type, id), start: s.nodes.length === 0, problems: [] } } as StepNode;
      return {
        nodes: [...s.nodes.map((n) => (n.selected ? { ...n, selected: false } : n)), node],
        edges: from && free ? [...s.edges, edgeOf(from.id, free.handle, id)] : s.edges,
      };
    });

  const updateStep = (id: string, step: Step) =>
    commit((s) => ({ ...s, nodes: s.nodes.map((n) => (n.id === id ? { ...n, data: { ...n.data, step } } : n)) }), `edit:${id}`);

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
    setProblems((p) => {
      const { [from]: moved, ...rest } = p;
      return moved ? { ...rest, [to]: moved } : rest;
    });
    return true;
  };

  const deleteSelected = () =>
    commit((s) => {
      const gone = new Set(s.nodes.filter((n) => n.selected).map((n) => n.id));
      let ns = s.nodes.filter((n) => !gone.has(n.id));
      if (!ns.some((n) => n.data.start) && ns.length) ns = ns.map((n, i) => (i === 0 ? { ...n, data: { ...n.data, start: true } } : n));
      return { nodes: ns, edges: s.edges.filter((e) => !gone.has(e.source) && !gone.has(e.target) && !e.selected) };
    });

  const autoLayout = () => {
    setLayouts((n) => n + 1);
    commit((s) => {
      const pos = layout(graphToDefinition(s.nodes, s.edges));
      return { ...s, nodes: s.nodes.map((n) => ({ ...n, position: pos[n.id] ?? n.position })) };
    });
  };

  const openDefinition = (def: Definition) => {
    commit(() => definitionToGraph(def));
    setLayouts((n) => n + 1);
    setProblems({});
  };

  const save = useMutation({
    mutationFn: (def: Definition) =>
      data(
        api.PUT("/v1/apps/{appId}/workflows/{identifier}", {
          params: { path: { appId: app.id!, identifier: flow.identifier } },
          body: { name: flow.name, definition: def as never },
        }),
      ),
    onMutate: () => setProblems({}),
    onSuccess: (_, def) => {
      setSaved(pretty(def));
      qc.invalidateQueries({ queryKey: ["apps", app.id, "workflows"], exact: true });
    },
    onError: (err, def) => {
      if (err instanceof ApiError && err.status === 400) setProblems(problemsByStep(err.messages, def));
    },
  });
  const publish = useMutation({
    mutationFn: async () => {
      if (dirty) await save.mutateAsync(definition);
      return data(api.POST("/v1/apps/{appId}/workflows/{identifier}/publish", { params: { path: { appId: app.id!, identifier: flow.identifier } } }));
    },
    onSuccess: (res) => {
      toast(`Published version ${res.version}`);
      qc.invalidateQueries({ queryKey: ["apps", app.id, "workflows"] });
    },
  });

  const shownNodes = useMemo(
    () => nodes.map((n) => (problems[n.id]?.length || n.data.problems.length ? { ...n, data: { ...n.data, problems: problems[n.id] ?? [] } } : n)),
    [nodes, problems],
  );
  const shownEdges = useMemo(() => {
    const byId = new Map(nodes.map((n) => [n.id, n.data.step]));
    return edges.map((e) => {
      // The handle shows the way's label; the edge carries it for assistive technology only.
      const label = outputs(byId.get(e.source) ?? { id: "", type: "" }).find((o) => o.handle === e.sourceHandle)?.label;
      const { label: _drop, ...rest } = e;
      return label ? { ...rest, way: label } : rest;
    });
  }, [nodes, edges]);
  const problemCount = Object.values(problems).flat().length;
  const types = stepTypes(components);

  return (
    <div className="designer">
      <div className="designer-head">
        <div>
          <p className="muted small">
            <Link to="..">Workflows</Link> / {flow.identifier}
          </p>
          <h1>{flow.name}</h1>
        </div>
        <div className="designer-status" role="status">
          {flow.publishedVersion ? <span className="badge badge-ok">published v{flow.publishedVersion}</span> : <span className="badge">not published</span>}{" "}
          {dirty ? <span className="badge">unsaved changes</span> : <span className="muted small">draft saved</span>}
        </div>
      </div>
      {canEdit && (
        <div className="toolbar" role="toolbar" aria-label="Designer">
          <Button variant="secondary" onClick={undo} disabled={!hist.past.length} aria-keyshortcuts="Control+Z">
            Undo
          </Button>
          <Button variant="secondary" onClick={redo} disabled={!hist.future.length} aria-keyshortcuts="Control+Shift+Z">
            Redo
          </Button>
          <Button variant="secondary" onClick={autoLayout}>
            Auto layout
          </Button>
          <Button variant="secondary" onClick={() => save.mutate(definition)} busy={save.isPending} disabled={!dirty}>
            Save draft
          </Button>
          <Button onClick={() => publish.mutate()} busy={publish.isPending}>
            Publish
          </Button>
        </div>
      )}
      {(save.isError || publish.isError) && (
        <FormError
          errors={
            problemCount
              ? [`The draft has ${problemCount} problem${problemCount === 1 ? "" : "s"}: see the marked steps`, ...(problems[""] ?? [])]
              : [((save.error ?? publish.error) as Error).message]
          }
        />
      )}
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tab-list" aria-label="Workflow views">
          <Tabs.Trigger value="canvas" className="tab">
            Canvas
          </Tabs.Trigger>
          <Tabs.Trigger value="json" className="tab">
            JSON
          </Tabs.Trigger>
          <Tabs.Trigger value="versions" className="tab">
            Versions
          </Tabs.Trigger>
          <Tabs.Trigger value="test" className="tab">
            Test run
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="canvas" className="tab-panel">
          <div className="designer-grid">
            {canEdit && (
              <nav className="palette" aria-label="Add a step">
                <h2 className="small" title="Added after the selected step">Add a step</h2>
                {["Channels", "Control"].map((group) => (
                  <div key={group} role="group" aria-label={group}>
                    <h3 className="small muted">{group}</h3>
                    {types
                      .filter((t) => isChannel(components, t) === (group === "Channels"))
                      .map((t) => (
                        <button key={t} type="button" className="palette-item" onClick={() => addStep(t)} aria-label={`Add ${t} step`}>
                          {t}
                        </button>
                      ))}
                  </div>
                ))}
              </nav>
            )}
            <Canvas
              nodes={shownNodes}
              edges={shownEdges}
              onNodesChange={canEdit ? onNodesChange : (c) => quiet((s) => ({ ...s, nodes: applyNodeChanges(c.filter((x) => x.type === "select" || x.type === "dimensions"), s.nodes as Node<StepNodeData, "step">[]) as StepNode[] }))}
              onEdgesChange={onEdgesChange}
              onConnect={canEdit ? onConnect : () => {}}
              onDragStart={() => commit((s) => ({ ...s }))}
              fitKey={`${layouts}:${nodes.length}`}
              readOnly={!canEdit}
            />
            <aside className="side-panel" aria-label="Selected step">
              {one ? (
                <StepPanel
                  key={one.id}
                  node={one}
                  nodes={nodes}
                  edges={edges}
                  components={components}
                  appId={app.id!}
                  problems={problems[one.id] ?? []}
                  readOnly={!canEdit}
                  onChange={(s) => updateStep(one.id, s)}
                  onRename={(to) => renameStep(one.id, to)}
                  onConnect={(handle, target) => connect(one.id, handle, target)}
                  onStart={() => commit((s) => ({ ...s, nodes: s.nodes.map((n) => ({ ...n, data: { ...n.data, start: n.id === one.id } })) }))}
                  onDelete={deleteSelected}
                />
              ) : (
                <div className="muted">
                  <h2 className="small">No step selected</h2>
                  <p>
                    {canEdit
                      ? "Select a step on the canvas to edit it. Drag from a step's bottom handle to another step to connect them; Delete removes the selection; Ctrl+Z undoes."
                      : "Select a step on the canvas to see its settings."}
                  </p>
                  {problems[""]?.length ? <FormError errors={problems[""]} /> : null}
                </div>
              )}
            </aside>
          </div>
        </Tabs.Content>
        <Tabs.Content value="json" className="tab-panel">
          <JsonView json={json} readOnly={!canEdit} onApply={openDefinition} />
        </Tabs.Content>
        <Tabs.Content value="versions" className="tab-panel">
          <Versions appId={app.id!} identifier={flow.identifier} draft={definition} onLoad={canEdit ? (def) => (openDefinition(def), setTab("canvas")) : undefined} />
        </Tabs.Content>
        <Tabs.Content value="test" className="tab-panel">
          <TestRun appId={app.id!} identifier={flow.identifier} published={flow.publishedVersion ?? null} dirty={dirty} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

function StepPanel({
  node,
  nodes,
  edges,
  components,
  appId,
  problems,
  readOnly,
  onChange,
  onRename,
  onConnect,
  onStart,
  onDelete,
}: {
  node: StepNode;
  nodes: StepNode[];
  edges: StepEdge[];
  components: Components;
  appId: number;
  problems: string[];
  readOnly: boolean;
  onChange: (s: Step) => void;
  onRename: (to: string) => boolean;
  onConnect: (handle: string, target: string | undefined) => void;
  onStart: () => void;
  onDelete: () => void;
}) {
  const step = node.data.step;
  const [id, setId] = useState(node.id);
  const [idError, setIdError] = useState("");
  const templates = useQuery({
    queryKey: ["apps", appId, "templates"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/templates", { params: { path: { appId } } })),
    enabled: isChannel(components, step.type),
  });
  const others = nodes.filter((n) => n.id !== node.id).map((n) => n.data.step);
  const templateIds = ((templates.data ?? []) as { identifier?: string }[]).map((t) => t.identifier ?? "").filter(Boolean);
  return (
    <fieldset className="step-panel" disabled={readOnly}>
      <legend>
        {step.type} step <code>{node.id}</code>
      </legend>
      <div className="field">
        <label htmlFor="step-id">Step id</label>
        <input
          id="step-id"
          value={id}
          aria-invalid={idError ? true : undefined}
          onChange={(e) => setId(e.target.value)}
          onBlur={() => {
            if (id === node.id) return setIdError("");
            if (!onRename(id.trim())) setIdError(id.trim() ? `a step with id ${id.trim()} exists` : "the id is required");
            else setIdError("");
          }}
        />
        {idError && (
          <p className="field-error" role="alert">
            {idError}
          </p>
        )}
      </div>
      <StepForm components={components} step={step} steps={others} templates={templateIds} server={problems} onChange={onChange} />
      <fieldset className="subform">
        <legend>Goes to</legend>
        {outputs(step).map((o) => {
          const target = edges.find((e) => e.source === node.id && e.sourceHandle === o.handle)?.target ?? "";
          return (
            <div className="field" key={o.handle}>
              <label htmlFor={`out-${o.handle}`}>{o.handle === "next" && !o.label ? "Next step" : `When ${o.label}`}</label>
              <select id={`out-${o.handle}`} value={target} onChange={(e) => onConnect(o.handle, e.target.value || undefined)}>
                <option value="">(end of the run)</option>
                {others.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.id} ({s.type})
                  </option>
                ))}
              </select>
            </div>
          );
        })}
      </fieldset>
      <div className="row">
        <Button variant="secondary" type="button" onClick={onStart} disabled={node.data.start}>
          {node.data.start ? "Runs start here" : "Start runs here"}
        </Button>
        <Button variant="danger" type="button" onClick={onDelete}>
          Delete step
        </Button>
      </div>
    </fieldset>
  );
}

function JsonView({ json, readOnly, onApply }: { json: string; readOnly: boolean; onApply: (d: Definition) => void }) {
  const [text, setText] = useState(json);
  const [error, setError] = useState("");
  useEffect(() => setText(json), [json]);
  return (
    <div className="card">
      <p className="muted">The draft as the API stores it. Edit it and apply: the canvas opens it with an automatic layout.</p>
      <div className="field">
        <label htmlFor="wf-json">Workflow JSON</label>
        <textarea id="wf-json" className="mono" rows={22} value={text} readOnly={readOnly} onChange={(e) => setText(e.target.value)} aria-invalid={error ? true : undefined} />
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
      {!readOnly && (
        <Button
          onClick={() => {
            try {
              const def = JSON.parse(text) as Definition;
              if (!def || typeof def !== "object" || !Array.isArray(def.steps) || def.steps.some((s) => !s || typeof s.id !== "string" || typeof s.type !== "string")) {
                throw new Error("steps must be a list of steps, each with a string id and type");
              }
              setError("");
              onApply(def);
            } catch (e) {
              setError(e instanceof SyntaxError ? `not JSON: ${e.message}` : (e as Error).message);
            }
          }}
          disabled={text === json}
        >
          Apply JSON
        </Button>
      )}
    </div>
  );
}
