// The side panel's form of the selected step, built from the workflow JSON Schema
// (schemaForm.ts): one input per field of the step type's variant, chosen by the field's
// kind. Ways out (next, else, …) are edited as edges, on the canvas or in "Goes to" below.
import { useId, useState, type ReactNode } from "react";
import { ConditionsInput } from "./Conditions";
import { DurationInput } from "./DurationInput";
import type { Step } from "./graph";
import { checkStep, fields, waitKinds, type Components, type FieldSpec } from "./schemaForm";

type Props = {
  components: Components;
  step: Step;
  /** steps: the other steps (step pickers offer them). */
  steps: Step[];
  templates: string[];
  /** server: the server's messages about this step. */
  server: string[];
  /** omit: fields another editor shows (a channel step's content). */
  omit?: string[];
  onChange: (step: Step) => void;
};

/** StepForm edits one step's fields. */
export function StepForm({ components, step, steps, templates, server, omit = [], onChange }: Props) {
  const kinds = waitKinds(components, step.type);
  const [kind, setKind] = useState(() => kinds.find((k) => step[k.field] !== undefined && step[k.field] !== "")?.field ?? kinds[0]?.field);
  // With a "Wait" picker, only the chosen way's fields show (without the one-of hint).
  const hidden = new Set([...omit, ...kinds.filter((k) => k.field !== kind).flatMap((k) => [k.field, ...k.with])]);
  const specs = fields(components, step.type)
    .filter((f) => !hidden.has(f.name))
    .map((f) => (kinds.length ? { ...f, group: undefined } : f));
  const local = checkStep(components, step);
  const set = (name: string, value: unknown) => {
    const next: Step = { ...step };
    if (value === undefined || value === "") delete next[name];
    else next[name] = value;
    onChange(next);
  };
  const serverFor = (name: string) => server.filter((m) => m === name || m.startsWith(name + " ") || m.startsWith(name + ":") || m.startsWith(name + "["));
  const general = server.filter((m) => !specs.some((f) => serverFor(f.name).includes(m)));
  return (
    <div className="step-form">
      {[...(local[""] ?? []), ...general].length > 0 && (
        <div className="form-error" role="alert">
          {[...(local[""] ?? []), ...general].join(". ")}
        </div>
      )}
      {kinds.length > 0 && (
        <WaitPicker
          kinds={kinds}
          kind={kind}
          onPick={(k) => {
            // The other ways' fields go: a delay waits one way only.
            const next: Step = { ...step };
            for (const o of kinds) if (o.field !== k) for (const n of [o.field, ...o.with]) delete next[n];
            setKind(k);
            onChange(next);
          }}
        />
      )}
      {specs.map((f) => (
        <FieldInput
          key={`${step.id}:${f.name}`}
          spec={f}
          value={step[f.name]}
          errors={[...(local[f.name] ?? []), ...serverFor(f.name)]}
          steps={steps}
          templates={templates}
          components={components}
          onChange={(v) => set(f.name, v)}
        />
      ))}
    </div>
  );
}

/** WaitPicker chooses how a step waits (for a duration, until a time, until a time of day). */
function WaitPicker({ kinds, kind, onPick }: { kinds: { field: string; label: string }[]; kind?: string; onPick: (field: string) => void }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>Wait</label>
      <select id={id} value={kind} onChange={(e) => onPick(e.target.value)}>
        {kinds.map((k) => (
          <option key={k.field} value={k.field}>
            {k.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Labelled({ id, spec, errors, children }: { id: string; spec: FieldSpec; errors: string[]; children: ReactNode }) {
  const hint = [spec.description, spec.group ? `one of ${spec.group.join(", ")}` : ""].filter(Boolean).join(" · ");
  return (
    <div className="field">
      <label htmlFor={id}>
        {spec.label}
        {spec.required ? " (required)" : ""}
      </label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors.length > 0 && (
        <p className="field-error" id={`${id}-err`} role="alert">
          {errors.join(". ")}
        </p>
      )}
    </div>
  );
}

function FieldInput({
  spec,
  value,
  errors,
  steps,
  templates,
  components,
  onChange,
}: {
  spec: FieldSpec;
  value: unknown;
  errors: string[];
  steps: Step[];
  templates: string[];
  components: Components;
  onChange: (v: unknown) => void;
}) {
  const id = useId();
  const aria = {
    id,
    "aria-invalid": errors.length ? true : undefined,
    "aria-describedby": [spec.description || spec.group ? `${id}-hint` : "", errors.length ? `${id}-err` : ""].filter(Boolean).join(" ") || undefined,
  };
  const str = typeof value === "string" ? value : value === undefined ? "" : String(value);
  switch (spec.kind) {
    case "enum":
      return (
        <Labelled id={id} spec={spec} errors={errors}>
          <select {...aria} value={str} onChange={(e) => onChange(e.target.value)}>
            <option value="">{spec.required ? "Choose…" : "(default)"}</option>
            {spec.enum!.map((o) => (
              <option key={o}>{o}</option>
            ))}
          </select>
        </Labelled>
      );
    case "integer":
      return (
        <Labelled id={id} spec={spec} errors={errors}>
          <input
            {...aria}
            type="number"
            min={spec.minimum}
            max={spec.maximum}
            step={1}
            value={typeof value === "number" ? value : ""}
            onChange={(e) => onChange(e.target.value === "" ? undefined : Number(e.target.value))}
          />
        </Labelled>
      );
    case "duration":
      return (
        <Labelled id={id} spec={spec} errors={errors}>
          <DurationInput aria={aria} value={value} onChange={onChange} />
        </Labelled>
      );
    case "template":
      return (
        <Labelled id={id} spec={spec} errors={errors}>
          <select {...aria} value={str} onChange={(e) => onChange(e.target.value)}>
            <option value="">(none: inline content)</option>
            {str && !templates.includes(str) && <option value={str}>{str} (not in this app)</option>}
            {templates.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Labelled>
      );
    case "stepRef":
      return (
        <Labelled id={id} spec={spec} errors={errors}>
          <select {...aria} value={str} onChange={(e) => onChange(e.target.value)}>
            <option value="">Choose a step…</option>
            {steps.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id} ({s.type})
              </option>
            ))}
          </select>
        </Labelled>
      );
    case "map":
      return <MapInput spec={spec} value={value} errors={errors} onChange={onChange} />;
    case "conditions":
      return <ConditionsInput spec={spec} value={value} errors={errors} steps={steps} components={components} onChange={onChange} />;
    case "json":
      return <JsonInput spec={spec} value={value} errors={errors} onChange={onChange} />;
    default:
      return (
        <Labelled id={id} spec={spec} errors={errors}>
          <input {...aria} value={str} onChange={(e) => onChange(e.target.value)} />
        </Labelled>
      );
  }
}

/** MapInput edits an object of strings (content, headers) as key/value rows. */
function MapInput({ spec, value, errors, onChange }: { spec: FieldSpec; value: unknown; errors: string[]; onChange: (v: unknown) => void }) {
  const entries = Object.entries((value && typeof value === "object" ? value : {}) as Record<string, string>);
  const [key, setKey] = useState("");
  const write = (e: [string, string][]) => onChange(e.length ? Object.fromEntries(e) : undefined);
  return (
    <fieldset className="subform">
      <legend>
        {spec.label}
        {spec.required ? " (required)" : ""}
      </legend>
      {spec.description && <p className="hint">{spec.description}</p>}
      {entries.map(([k, v], i) => (
        <div className="map-row" key={k}>
          <label>
            <span>{k}</span>
            <textarea
              rows={k === "html" ? 4 : 1}
              aria-label={`${spec.label}: ${k}`}
              value={v}
              onChange={(e) => write(entries.map((x, j) => (j === i ? [k, e.target.value] : x)))}
            />
          </label>
          <button type="button" className="btn btn-ghost" aria-label={`Remove ${spec.label.toLowerCase()} ${k}`} onClick={() => write(entries.filter((_, j) => j !== i))}>
            ✕
          </button>
        </div>
      ))}
      <div className="inline-form">
        <input aria-label={`New ${spec.label.toLowerCase()} key`} placeholder="key (e.g. title, subject, text)" value={key} onChange={(e) => setKey(e.target.value)} />
        <button
          type="button"
          className="btn btn-secondary"
          disabled={!key.trim() || entries.some(([k]) => k === key.trim())}
          onClick={() => {
            write([...entries, [key.trim(), ""]]);
            setKey("");
          }}
        >
          Add {spec.label.toLowerCase()} field
        </button>
      </div>
      {errors.length > 0 && (
        <p className="field-error" role="alert">
          {errors.join(". ")}
        </p>
      )}
    </fieldset>
  );
}

/** JsonInput edits a field of no simpler kind as JSON. */
function JsonInput({ spec, value, errors, onChange }: { spec: FieldSpec; value: unknown; errors: string[]; onChange: (v: unknown) => void }) {
  const id = useId();
  const [text, setText] = useState(value === undefined ? "" : JSON.stringify(value));
  const [bad, setBad] = useState(false);
  return (
    <Labelled id={id} spec={spec} errors={bad ? [...errors, `${spec.name} must be JSON`] : errors}>
      <textarea
        id={id}
        className="mono"
        rows={2}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value.trim() === "") return (setBad(false), onChange(undefined));
          try {
            onChange(JSON.parse(e.target.value));
            setBad(false);
          } catch {
            setBad(true);
          }
        }}
      />
    </Labelled>
  );
}
