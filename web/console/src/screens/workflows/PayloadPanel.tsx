// The designer's Payload panel: the JSON Schema of the data a workflow's sends carry, built
// with a form (fields with a name, a type and required; objects and arrays of objects nest
// one level) or written as raw JSON — both in sync — or inferred from a pasted sample. The
// server's problems with the schema show next to the fields they name.
import { useEffect, useState } from "react";
import { Button, FormError } from "../../ui/kit";
import { fieldTypes, fieldsFromSchema, inferSchema, schemaFromFields, type Field, type FieldType, type JsonSchema } from "./payloadSchema";

type Props = { value: JsonSchema | null; onChange: (s: JsonSchema | null) => void; problems: string[]; readOnly: boolean };

const pretty = (s: JsonSchema | null) => (s ? JSON.stringify(s, null, 2) : "");

/** problemsOf files the server's schema problems under the top-level field they name ("" for the rest). */
function problemsOf(problems: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const p of problems) {
    const m = /^payloadSchema at \/properties\/([^/:]+)/.exec(p);
    const k = m ? decodeURIComponent(m[1]!.replace(/~1/g, "/").replace(/~0/g, "~")) : "";
    (out[k] ??= []).push(p);
  }
  return out;
}

export function PayloadPanel({ value, onChange, problems, readOnly }: Props) {
  const [text, setText] = useState(() => pretty(value));
  const [textError, setTextError] = useState("");
  const [sample, setSample] = useState("");
  const [sampleError, setSampleError] = useState("");
  // The builder's changes reach the raw JSON; typing there does not come back.
  useEffect(() => {
    setText((t) => {
      try {
        if (JSON.stringify(t.trim() ? JSON.parse(t) : null) === JSON.stringify(value)) return t;
      } catch {
        /* replaced below */
      }
      return pretty(value);
    });
  }, [value]);
  const fields = fieldsFromSchema(value);
  const setFields = (next: Field[]) => onChange(schemaFromFields(next, value ?? {}));
  const byField = problemsOf(problems);

  return (
    <div className="payload-panel">
      <p className="muted">
        The JSON Schema of the <code>data</code> each send of this workflow carries. Once published, a send whose data does not match is refused (422) with
        every problem listed. Editors complete <code>{"{{data.…}}"}</code> from it, and the test run starts with sample data made from it.
      </p>
      <FormError errors={byField[""]} />
      <div className="payload-grid">
        <section aria-labelledby="payload-fields-title" className="card">
          <h2 id="payload-fields-title" className="small">
            Fields
          </h2>
          {fields.length === 0 && <p className="muted small">{value ? "No fields yet." : "No payload schema: any data object is accepted."}</p>}
          <FieldRows fields={fields} onChange={setFields} readOnly={readOnly} problems={byField} path="" />
          {!readOnly && (
            <div className="toolbar">
              <Button variant="secondary" type="button" onClick={() => setFields([...fields, { name: `field${fields.length + 1}`, type: "string", required: false }])}>
                Add field
              </Button>
              {value && (
                <Button variant="ghost" type="button" onClick={() => onChange(null)}>
                  Remove schema
                </Button>
              )}
            </div>
          )}
        </section>
        <section aria-labelledby="payload-json-title" className="card">
          <h2 id="payload-json-title" className="small">
            <label htmlFor="payload-json">Schema JSON</label>
          </h2>
          <textarea
            id="payload-json"
            className="mono"
            rows={14}
            value={text}
            readOnly={readOnly}
            aria-invalid={textError ? true : undefined}
            aria-describedby={textError ? "payload-json-err" : undefined}
            onChange={(e) => {
              setText(e.target.value);
              const t = e.target.value.trim();
              if (!t) return setTextError(""), onChange(null);
              try {
                const v = JSON.parse(t);
                if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error();
                setTextError("");
                onChange(v as JsonSchema);
              } catch {
                setTextError("The schema must be a JSON object");
              }
            }}
          />
          {textError && (
            <p id="payload-json-err" className="field-error" role="alert">
              {textError}
            </p>
          )}
          {!readOnly && (
            <>
              <h3 className="small payload-infer">Infer from a sample</h3>
              <label htmlFor="payload-sample">Sample data (JSON)</label>
              <textarea id="payload-sample" className="mono" rows={4} value={sample} onChange={(e) => setSample(e.target.value)} placeholder='{"order": {"id": "A-1"}}' />
              {sampleError && (
                <p className="field-error" role="alert">
                  {sampleError}
                </p>
              )}
              <Button
                variant="secondary"
                type="button"
                onClick={() => {
                  try {
                    const v = JSON.parse(sample);
                    if (!v || typeof v !== "object" || Array.isArray(v)) throw new Error();
                    setSampleError("");
                    onChange(inferSchema(v));
                  } catch {
                    setSampleError("The sample must be a JSON object");
                  }
                }}
              >
                Infer from sample
              </Button>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function FieldRows({ fields, onChange, readOnly, problems, path }: { fields: Field[]; onChange: (f: Field[]) => void; readOnly: boolean; problems: Record<string, string[]>; path: string }) {
  const set = (i: number, f: Partial<Field>) => onChange(fields.map((x, j) => (j === i ? { ...x, ...f } : x)));
  return (
    <ul className="payload-fields" aria-label={path ? `Fields of ${path}` : "Payload fields"}>
      {fields.map((f, i) => {
        const label = path ? `${path}.${f.name || i + 1}` : f.name || `field ${i + 1}`;
        // Beside the field, its problems without the schema path the row already says.
        const errs = path ? [] : (problems[f.name] ?? []).map((m) => m.replace(`payloadSchema at /properties/${f.name}`, "").replace(/^\/?/, "").replace(/^:\s*/, "") || m);
        const nests = f.type === "object" || (f.type === "array" && f.itemType === "object");
        return (
          <li key={i} role="group" aria-label={`Field ${label}`} className="payload-field">
            <div className="payload-row">
              <input aria-label="Name" value={f.name} readOnly={readOnly} onChange={(e) => set(i, { name: e.target.value })} aria-invalid={errs.length ? true : undefined} />
              <select aria-label="Type" value={f.type} disabled={readOnly} onChange={(e) => set(i, { type: e.target.value as FieldType, fields: f.fields ?? [] })}>
                {fieldTypes.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
              {f.type === "array" && (
                <select aria-label="Item type" value={f.itemType ?? "string"} disabled={readOnly} onChange={(e) => set(i, { itemType: e.target.value as FieldType, fields: f.fields ?? [] })}>
                  {fieldTypes
                    .filter((t) => t !== "array")
                    .map((t) => (
                      <option key={t}>{t}</option>
                    ))}
                </select>
              )}
              <label className="inline">
                <input type="checkbox" checked={f.required} disabled={readOnly} onChange={(e) => set(i, { required: e.target.checked })} /> Required
              </label>
              {!readOnly && (
                <Button variant="ghost" type="button" aria-label={`Remove field ${label}`} onClick={() => onChange(fields.filter((_, j) => j !== i))}>
                  Remove
                </Button>
              )}
            </div>
            {errs.length > 0 && (
              <p className="field-error" role="alert">
                {errs.join(". ")}
              </p>
            )}
            {nests && !path && (
              <div className="payload-nested">
                <FieldRows fields={f.fields ?? []} onChange={(sub) => set(i, { fields: sub })} readOnly={readOnly} problems={problems} path={f.name || `field ${i + 1}`} />
                {!readOnly && (
                  <Button variant="secondary" type="button" onClick={() => set(i, { fields: [...(f.fields ?? []), { name: `field${(f.fields?.length ?? 0) + 1}`, type: "string", required: false }] })}>
                    Add field to {f.name || `field ${i + 1}`}
                  </Button>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
