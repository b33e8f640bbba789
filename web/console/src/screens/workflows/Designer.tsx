// The workflow designer: the workflow as a graph on a canvas, a palette of the step types
// of the workflow JSON Schema, a side panel with the selected step's form, undo and redo,
// the server's problems on the steps they name, drafts, publishing, the JSON view, the
// version history and test runs.
import * as Tabs from "@radix-ui/react-tabs";
import { useEffect, useMemo, useState } from "react";
import { Link, useOutletContext, useParams } from "react-router-dom";
import { Button, ErrorState, FormError, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import Canvas from "./Canvas";
import { pretty } from "./diff";
import { useGraphEditing } from "./editing";
import { definitionToGraph, graphToDefinition, outputs, positionsOf, type Definition } from "./graph";
import { useHistory } from "./history";
import { JsonView } from "./JsonView";
import { PayloadPanel } from "./PayloadPanel";
import { sampleFromSchema, schemaPaths, type JsonSchema } from "./payloadSchema";
import { banner, current, problemCount } from "./problems";
import type { Components } from "./schemaForm";
import { StepPanel } from "./StepPanel";
import { WorkflowActions } from "./Manage";
import { TestRun } from "./TestRun";
import { Versions } from "./Versions";
import { useWorkflow, useWorkflowSchema } from "./api";
import { useDraftStore, type Flow } from "./draftStore";
import { Palette } from "./Palette";

/** Draft is what Save sends: the definition, where the designer draws its steps, and the payload schema. */

/** Designer is the screen of one workflow (/apps/:appId/workflows/:identifier). */
export default function Designer() {
  const app = useOutletContext<App>();
  const { identifier = "" } = useParams();
  useEffect(() => {
    document.title = `${identifier} · Workflows · ${app.name} · Herald`;
  }, [app.name, identifier]);
  const flow = useWorkflow(app.id!, identifier);
  const schema = useWorkflowSchema();
  if (flow.isError) return <ErrorState error={flow.error} retry={() => flow.refetch()} />;
  if (schema.isError) return <ErrorState error={schema.error} retry={() => schema.refetch()} />;
  if (!flow.data || !schema.data) return <Loading label="Loading the workflow" />;
  return <Editor key={identifier} app={app} flow={flow.data as Flow} components={schema.data} />;
}

function Editor({ app, flow, components }: { app: App; flow: Flow; components: Components }) {
  const clients = useClients();
  const canEdit = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const { present, canUndo, canRedo, commit, quiet, undo, redo } = useHistory(() => definitionToGraph(flow.definition, flow.positions));
  const edit = useGraphEditing(commit, quiet, components, present.nodes);
  const [tab, setTab] = useState("canvas");
  const [layouts, setLayouts] = useState(0);
  const { nodes, edges } = present;
  const definition = useMemo(() => graphToDefinition(nodes, edges), [nodes, edges]);
  const json = useMemo(() => pretty(definition), [definition]);
  const positions = useMemo(() => positionsOf(nodes), [nodes]);
  const [payloadSchema, setPayloadSchema] = useState<JsonSchema | null>(flow.payloadSchema ?? null);
  const schemaJSON = JSON.stringify(payloadSchema);
  const store = useDraftStore(app.id!, flow);
  // Only the report about this very draft counts: once the draft or the stored draft
  // changes, what the server said before is gone from the steps, the fields and the banner.
  const report = current(store.report, json, store.saved);
  const problems = report?.byStep ?? {};
  const blocked = problemCount(report) > 0;
  // Moving a step is a change to save too (positions are stored with the draft).
  const dirty = json !== store.saved || JSON.stringify(positions) !== store.savedPositions || schemaJSON !== store.savedSchema;
  // The server's problems with the payload schema count while that schema is on screen.
  const schemaProblems = store.schemaReport?.schema === schemaJSON ? store.schemaReport.problems : [];

  // Leaving the page with unsaved changes asks first.
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const openDefinition = (def: Definition) => {
    commit(() => definitionToGraph(def));
    setLayouts((n) => n + 1);
  };

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
  const selected = nodes.filter((n) => n.selected);
  const one = selected.length === 1 ? selected[0] : undefined;

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
          {flow.archivedAt && <span className="badge">archived: takes no sends</span>}{" "}
          {dirty ? <span className="badge">unsaved changes</span> : <span className="muted small">draft saved</span>}
        </div>
      </div>
      {canEdit && (
        <div className="toolbar" role="toolbar" aria-label="Manage the workflow">
          <WorkflowActions appId={app.id!} flow={flow} from="designer" />
        </div>
      )}
      {canEdit && (
        <div className="toolbar" role="toolbar" aria-label="Designer">
          <Button variant="secondary" onClick={undo} disabled={!canUndo} aria-keyshortcuts="Control+Z">
            Undo
          </Button>
          <Button variant="secondary" onClick={redo} disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z">
            Redo
          </Button>
          <Button variant="secondary" onClick={() => (edit.autoLayout(), setLayouts((n) => n + 1))}>
            Auto layout
          </Button>
          <Button variant="secondary" onClick={() => store.save.mutate({ def: definition, positions, payloadSchema })} busy={store.save.isPending} disabled={!dirty}>
            Save draft
          </Button>
          {/* Refused only while the server's problems with this very draft stand. */}
          <Button onClick={() => store.publish.mutate({ def: definition, positions, payloadSchema })} busy={store.publish.isPending} disabled={blocked || schemaProblems.length > 0} aria-describedby={blocked ? "designer-problems" : undefined}>
            Publish
          </Button>
        </div>
      )}
      <div id="designer-problems">
        <FormError errors={banner(report)} />
        {schemaProblems.length > 0 && <FormError errors={[`The payload schema has ${schemaProblems.length} problem${schemaProblems.length === 1 ? "" : "s"}: see the Payload tab`]} />}
      </div>
      <Tabs.Root value={tab} onValueChange={setTab}>
        <Tabs.List className="tab-list" aria-label="Workflow views">
          <Tabs.Trigger value="canvas" className="tab">
            Canvas
          </Tabs.Trigger>
          <Tabs.Trigger value="payload" className="tab">
            Payload
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
            {canEdit && <Palette components={components} onAdd={edit.addStep} />}
            <Canvas
              nodes={shownNodes}
              edges={shownEdges}
              onNodesChange={canEdit ? edit.onNodesChange : edit.onViewChange}
              onEdgesChange={edit.onEdgesChange}
              onConnect={canEdit ? edit.onConnect : () => {}}
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
                  workflow={flow.identifier}
                  variablePaths={schemaPaths(payloadSchema)}
                  sampleData={payloadSchema ? sampleFromSchema(payloadSchema) : undefined}
                  problems={problems[one.id] ?? []}
                  readOnly={!canEdit}
                  onChange={(s) => edit.updateStep(one.id, s)}
                  onRename={(to) => edit.renameStep(one.id, to)}
                  onConnect={(handle, target) => edit.connect(one.id, handle, target)}
                  onStart={() => edit.setStart(one.id)}
                  onDelete={edit.deleteSelected}
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
        <Tabs.Content value="payload" className="tab-panel">
          <PayloadPanel value={payloadSchema} onChange={setPayloadSchema} problems={schemaProblems} readOnly={!canEdit} />
        </Tabs.Content>
        <Tabs.Content value="json" className="tab-panel">
          <JsonView json={json} readOnly={!canEdit} onApply={openDefinition} />
        </Tabs.Content>
        <Tabs.Content value="versions" className="tab-panel">
          <Versions appId={app.id!} identifier={flow.identifier} draft={definition} onLoad={canEdit ? (def, schema) => (openDefinition(def), setPayloadSchema(schema), setTab("canvas")) : undefined} />
        </Tabs.Content>
        <Tabs.Content value="test" className="tab-panel">
          <TestRun appId={app.id!} identifier={flow.identifier} published={flow.publishedVersion ?? null} dirty={dirty} payloadSchema={payloadSchema} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
