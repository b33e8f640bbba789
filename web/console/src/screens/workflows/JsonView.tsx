// The designer's JSON view: the draft as the API stores it, editable and applied to the canvas.
import { useEffect, useState } from "react";
import { Button } from "../../ui/kit";
import type { Definition } from "./graph";

/** JsonView shows the draft's JSON; Apply opens an edited one on the canvas. */
export function JsonView({ json, readOnly, onApply }: { json: string; readOnly: boolean; onApply: (d: Definition) => void }) {
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
