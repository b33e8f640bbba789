// The designer's side panel for the selected step: its id, the form of its type (with the
// server's problems about it), a channel step's content (StepContent: a template, or
// written here with the template editor's form and preview), where each way out goes,
// start and delete.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../ui/kit";
import { outputs, type Step, type StepEdge, type StepNode } from "./graph";
import { isChannel, type Components } from "./schemaForm";
import { StepContent } from "./StepContent";
import { StepForm } from "./StepForm";
import { contentStepFields, isContentProblem } from "../../api/stepContent";
import { keys } from "../../api/keys";
import { templatesApi } from "../templates/api";

/** StepPanel edits one step. */
export function StepPanel({
  node,
  nodes,
  edges,
  components,
  appId,
  workflow,
  variablePaths,
  sampleData,
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
  /** workflow: the workflow's identifier (a template made from a step is named after it). */
  workflow: string;
  /** variablePaths: more variables the content editors complete after {{ (e.g. a payload schema's). */
  variablePaths?: string[];
  /** sampleData: the content preview's starting data (e.g. made from the payload schema). */
  sampleData?: unknown;
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
  const templates = useQuery({ queryKey: keys.templates.all(appId), queryFn: () => templatesApi.list(appId), enabled: isChannel(components, step.type) });
  const others = nodes.filter((n) => n.id !== node.id).map((n) => n.data.step);
  const templateRefs = ((templates.data ?? []) as { id?: number; identifier?: string }[]).filter((t) => t.id && t.identifier).map((t) => ({ id: t.id!, identifier: t.identifier! }));
  const templateIds = templateRefs.map((t) => t.identifier);
  const channel = isChannel(components, step.type);
  const contentProblems = channel ? problems.filter((m) => isContentProblem(m, step.type)) : [];
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
      {channel && (
        <StepContent
          appId={appId}
          workflow={workflow}
          step={step}
          templates={templateRefs}
          problems={contentProblems}
          readOnly={readOnly}
          extraPaths={variablePaths}
          sampleData={sampleData}
          onChange={(s) => onChange(s as Step)}
        />
      )}
      <StepForm
        components={components}
        step={step}
        steps={others}
        templates={templateIds}
        server={problems.filter((m) => !contentProblems.includes(m))}
        omit={channel ? contentStepFields : []}
        onChange={onChange}
      />
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
