// A branch's condition builder in the step form: one case per condition, in order, each a
// data field and operator, the state of an earlier step's notification, or all of / any of /
// not of nested conditions (WorkflowCondition of the workflow JSON Schema).
import type { Condition, Step } from "./graph";
import { conditionMode, conditionModes, conditionProp, parseValue, type Components, type FieldSpec } from "./schemaForm";

type Case = { if?: Condition; next?: string };

/** ConditionsInput is the condition builder of a branch: one case per condition, in order. */
export function ConditionsInput({
  spec,
  value,
  errors,
  steps,
  components,
  onChange,
}: {
  spec: FieldSpec;
  value: unknown;
  errors: string[];
  steps: Step[];
  components: Components;
  onChange: (v: unknown) => void;
}) {
  const cases = (Array.isArray(value) ? value : []) as Case[];
  const write = (c: Case[]) => onChange(c);
  return (
    <fieldset className="subform">
      <legend>{spec.label}</legend>
      <p className="hint">The first condition that holds chooses the way; else when none does. Each condition has its own edge on the canvas.</p>
      {cases.map((c, i) => (
        <fieldset key={i} className="subform case">
          <legend>Condition {i + 1}</legend>
          <ConditionInput
            components={components}
            steps={steps}
            value={c.if}
            name={`Condition ${i + 1}`}
            onChange={(cond) => write(cases.map((x, j) => (j === i ? { ...x, if: cond } : x)))}
          />
          <button type="button" className="btn btn-ghost" onClick={() => write(cases.filter((_, j) => j !== i))} disabled={cases.length <= (spec.schema.minItems ?? 0)}>
            Remove condition {i + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" className="btn btn-secondary" onClick={() => write([...cases, { if: { field: "data.", op: "eq", value: "" }, next: "" }])}>
        Add condition
      </button>
      {errors.length > 0 && (
        <p className="field-error" role="alert">
          {errors.join(". ")}
        </p>
      )}
    </fieldset>
  );
}

const modeNames: Record<string, string> = { field: "Data field", step: "State of a step's notification", and: "All of", or: "Any of", not: "Not" };

/** ConditionInput edits one predicate in the form its mode (the schema's oneOf) asks for. */
function ConditionInput({
  components,
  steps,
  value,
  name,
  onChange,
}: {
  components: Components;
  steps: Step[];
  value: Condition | undefined;
  name: string;
  onChange: (c: Condition) => void;
}) {
  const modes = conditionModes(components);
  const mode = conditionMode(components, value);
  const c = value ?? {};
  const ops = conditionProp(components, "op").enum ?? [];
  const states = conditionProp(components, "is").enum ?? [];
  const first = (m: number) => modes[m]?.[0] ?? "";
  const fresh = (m: number): Condition => {
    switch (first(m)) {
      case "field":
        return { field: "data.", op: "eq", value: "" };
      case "step":
        return { step: steps.find((s) => s.type === "inApp")?.id ?? "", is: "read" };
      case "and":
      case "or":
        return { [first(m)]: [{ field: "data.", op: "eq", value: "" }] } as Condition;
      default:
        return { not: { field: "data.", op: "exists" } };
    }
  };
  const list = (key: "and" | "or") => (c[key] ?? []) as Condition[];
  return (
    <div className="condition">
      <label>
        <span>{name}: kind</span>
        <select value={mode} onChange={(e) => onChange(fresh(Number(e.target.value)))}>
          {mode === -1 && <option value={-1}>Choose…</option>}
          {modes.map((m, i) => (
            <option key={i} value={i}>
              {modeNames[m[0] ?? ""] ?? m.join(" + ")}
            </option>
          ))}
        </select>
      </label>
      {first(mode) === "field" && (
        <div className="row">
          <label>
            <span>{name}: field</span>
            <input value={c.field ?? ""} placeholder="data.plan" onChange={(e) => onChange({ ...c, field: e.target.value })} />
          </label>
          <label>
            <span>{name}: operator</span>
            <select value={c.op ?? ""} onChange={(e) => onChange({ ...c, op: e.target.value })}>
              {ops.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </label>
          {c.op !== "exists" && c.op !== "notExists" && (
            <label>
              <span>{name}: value</span>
              <input
                value={typeof c.value === "string" ? c.value : JSON.stringify(c.value ?? "")}
                onChange={(e) => onChange({ ...c, value: parseValue(e.target.value) })}
              />
            </label>
          )}
        </div>
      )}
      {first(mode) === "step" && (
        <div className="row">
          <label>
            <span>{name}: step</span>
            <select value={c.step ?? ""} onChange={(e) => onChange({ ...c, step: e.target.value })}>
              <option value="">Choose a step…</option>
              {steps.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.id} ({s.type})
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{name}: state</span>
            <select value={c.is ?? ""} onChange={(e) => onChange({ ...c, is: e.target.value })}>
              {states.map((o) => (
                <option key={o}>{o}</option>
              ))}
            </select>
          </label>
        </div>
      )}
      {(first(mode) === "and" || first(mode) === "or") && (
        <div className="nested">
          {list(first(mode) as "and" | "or").map((sub, i) => (
            <ConditionInput
              key={i}
              components={components}
              steps={steps}
              value={sub}
              name={`${name}.${i + 1}`}
              onChange={(n) => onChange({ [first(mode)]: list(first(mode) as "and" | "or").map((x, j) => (j === i ? n : x)) } as Condition)}
            />
          ))}
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => onChange({ [first(mode)]: [...list(first(mode) as "and" | "or"), { field: "data.", op: "eq", value: "" }] } as Condition)}
          >
            Add to {name}
          </button>
        </div>
      )}
      {first(mode) === "not" && (
        <div className="nested">
          <ConditionInput components={components} steps={steps} value={c.not} name={`${name} (not)`} onChange={(n) => onChange({ not: n })} />
        </div>
      )}
    </div>
  );
}
