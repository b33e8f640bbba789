// The step form, read from the workflow JSON Schema (components.schemas.WorkflowStep of
// /v1/openapi.json): which step types exist (the discriminator), which fields each has, of
// what kind, with which rules. A new step type or field in the schema gets its form here
// without new form code. Pure (unit-tested in test/unit/workflowSchemaForm.test.ts).
import { edgeFields, type Condition, type Step } from "./graph";

/** Schema is the part of JSON Schema (OpenAPI 3.1) the form reads. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  enum?: string[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  minItems?: number;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  not?: Schema;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
};
/** Components are the named schemas of the document (components.schemas). */
export type Components = Record<string, Schema>;

/** resolve follows $ref and merges allOf (the document's own refs only). */
export function resolve(components: Components, s: Schema | undefined): Schema {
  if (!s) return {};
  if (s.$ref) {
    const name = s.$ref.replace("#/components/schemas/", "");
    return resolve(components, components[name]);
  }
  if (s.allOf?.length) {
    const { allOf, ...rest } = s;
    return allOf.reduce<Schema>((acc, part) => ({ ...resolve(components, part), ...acc }), rest);
  }
  return s;
}

/** refName is the component a schema names ("WorkflowDuration"), through allOf too. */
export function refName(s: Schema | undefined): string | undefined {
  if (!s) return undefined;
  if (s.$ref) return s.$ref.replace("#/components/schemas/", "");
  for (const part of s.allOf ?? []) {
    const n = refName(part);
    if (n) return n;
  }
  return undefined;
}

/** stepTypes lists the step types of the schema in its discriminator's order. */
export function stepTypes(components: Components): string[] {
  return Object.keys(components.WorkflowStep?.discriminator?.mapping ?? {});
}

/** variant is the schema of one step type (WorkflowChannelStep for email, …). */
export function variant(components: Components, type: string): Schema | undefined {
  const ref = components.WorkflowStep?.discriminator?.mapping?.[type];
  return ref ? resolve(components, { $ref: ref }) : undefined;
}

/** isChannel: a step type whose variant's type enum lists several types (the channels). */
export function isChannel(components: Components, type: string): boolean {
  return (variant(components, type)?.properties?.type?.enum?.length ?? 0) > 1;
}

export type FieldKind =
  | "text"
  | "integer"
  | "enum"
  | "duration"
  | "template"
  | "stepRef"
  | "conditions"
  | "map"
  | "json";

/** FieldSpec is one input of a step's form. */
export type FieldSpec = {
  name: string;
  kind: FieldKind;
  label: string;
  description?: string;
  /** required: always; oneOf: one of a group of fields (the group lists them). */
  required: boolean;
  group?: string[];
  enum?: string[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  schema: Schema;
};

/** WaitKind is one way a step can wait: the field that says how, and the fields that go with it. */
export type WaitKind = { field: string; label: string; with: string[] };

// The words for the ways to wait (WorkflowDelayStep's oneOf, WorkflowDigestStep's `not`);
// a step type whose exclusive fields are not all here (template or content) has no picker.
const waitLabels: Record<string, string> = {
  duration: "For a duration",
  until: "Until a time",
  window: "For a window after the first trigger",
  timeOfDay: "Until a time of day in the recipient's time zone",
};

/** exclusive are the fields of which a step takes at most one: a digest's `not: {required: [window, timeOfDay]}`. */
function exclusive(v: Schema | undefined): string[] {
  const r = v?.not?.required ?? [];
  return r.length > 1 ? r : [];
}

/**
 * waitKinds are the exclusive ways a step of a type waits (its variant's oneOf of single
 * fields, or the fields its `not` forbids together, as a digest's window and timeOfDay),
 * each with the other fields whose description says they are "for" it, such as timezone
 * for timeOfDay; [] when the type has none.
 */
export function waitKinds(components: Components, type: string): WaitKind[] {
  const v = variant(components, type);
  const alts = v?.oneOf?.length ? v.oneOf.map((a) => a.required ?? []) : exclusive(v).map((f) => [f]);
  if (!alts.length || alts.some((r) => r.length !== 1 || !waitLabels[r[0]!])) return [];
  const all = fields(components, type);
  return alts.map(([field]) => ({
    field: field!,
    label: waitLabels[field!]!,
    with: all.filter((f) => new RegExp(`\\bfor ${field}$`).test(f.description ?? "")).map((f) => f.name),
  }));
}

/** label turns a field name into words: timeOfDay → "Time of day". */
export const label = (name: string) => {
  const w = name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return w.charAt(0).toUpperCase() + w.slice(1);
};

/**
 * fields lists the inputs of a step type's form: every property of its variant except id,
 * type and the fields the canvas edits as edges (next, else, timeoutNext, onError).
 */
export function fields(components: Components, type: string): FieldSpec[] {
  const v = variant(components, type);
  if (!v?.properties) return [];
  const required = new Set(v.required ?? []);
  const groups = (v.oneOf ?? v.anyOf ?? []).map((alt) => alt.required ?? []).filter((r) => r.length === 1).map((r) => r[0]!);
  const out: FieldSpec[] = [];
  for (const [name, raw] of Object.entries(v.properties)) {
    if (name === "id" || name === "type" || (edgeFields as readonly string[]).includes(name)) continue;
    const s = resolve(components, raw);
    const ref = refName(raw);
    let kind: FieldKind = "json";
    if (ref === "WorkflowDuration") kind = "duration";
    else if (s.type === "array" && refName(s.items) === "WorkflowCase") kind = "conditions";
    else if (s.enum) kind = "enum";
    else if (s.type === "integer" || s.type === "number") kind = "integer";
    else if (s.type === "object" && typeof s.additionalProperties === "object" && s.additionalProperties.type === "string") kind = "map";
    else if (s.type === "string" && name === "template") kind = "template";
    else if (s.type === "string" && /\bstep\b/.test(s.description ?? "")) kind = "stepRef";
    else if (s.type === "string") kind = "text";
    out.push({
      name,
      kind,
      label: label(name),
      description: s.description ?? raw.description,
      required: required.has(name),
      group: groups.includes(name) && groups.length > 1 ? groups : undefined,
      enum: s.enum,
      pattern: s.pattern,
      minimum: s.minimum,
      maximum: s.maximum,
      schema: s,
    });
  }
  return out;
}

/** check returns what is wrong with one field's value by its schema ("" and undefined are unset). */
export function check(f: FieldSpec, value: unknown): string[] {
  const unset = value === undefined || value === "" || value === null;
  if (unset) return f.required ? [`${f.name} is required`] : [];
  const out: string[] = [];
  if (f.kind === "integer") {
    if (typeof value !== "number" || !Number.isInteger(value)) return [`${f.name} must be a whole number`];
    if (f.minimum !== undefined && value < f.minimum) out.push(`${f.name} must be at least ${f.minimum}`);
    if (f.maximum !== undefined && value > f.maximum) out.push(`${f.name} must be at most ${f.maximum}`);
  }
  if (typeof value === "string") {
    if (f.enum && !f.enum.includes(value)) out.push(`${f.name} must be one of ${f.enum.join(", ")}`);
    if (f.pattern && !new RegExp(f.pattern, "u").test(value)) {
      out.push(f.kind === "duration" ? `${f.name} must be a duration like 30s, 15m, 2h or 1d` : `${f.name} has the wrong form`);
    }
  }
  return out;
}

/** checkStep checks every field of a step and the schema's one-of groups. */
export function checkStep(components: Components, step: Step): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const specs = fields(components, step.type);
  for (const f of specs) {
    const errs = check(f, step[f.name]);
    if (errs.length) out[f.name] = errs;
  }
  const v = variant(components, step.type);
  const alts = v?.oneOf ?? v?.anyOf;
  if (alts?.length) {
    const set = (n: string) => step[n] !== undefined && step[n] !== "";
    const held = alts.filter((a) => (a.required ?? []).every(set)).length;
    const names = alts.map((a) => (a.required ?? []).join(" and ")).join(", ");
    if (held === 0) (out[""] ??= []).push(`needs ${v?.oneOf ? "one" : "at least one"} of ${names}`);
    else if (v?.oneOf && held > 1) (out[""] ??= []).push(`needs exactly one of ${names}`);
  }
  const ex = exclusive(v);
  if (ex.length && ex.every((n) => step[n] !== undefined && step[n] !== "")) (out[""] ??= []).push(`takes ${ex.join(" or ")}, not both`);
  return out;
}

/**
 * newStep is a fresh step of a type with the required fields of its variant set to empty
 * values of their kind (the form then asks for them), and a branch with one condition.
 */
export function newStep(components: Components, type: string, id: string): Step {
  const s: Step = { id, type };
  for (const f of fields(components, type)) {
    if (!f.required) continue;
    if (f.kind === "conditions") s[f.name] = [{ if: { field: "data.", op: "eq", value: "" }, next: "" }];
    else if (f.kind === "integer") s[f.name] = f.minimum ?? 0;
    else if (f.kind === "map") s[f.name] = {};
    else s[f.name] = "";
  }
  return s;
}

/** conditionModes are the forms a condition may take (WorkflowCondition's oneOf): field+op, step+is, and, or, not. */
export function conditionModes(components: Components): string[][] {
  return (components.WorkflowCondition?.oneOf ?? []).map((a) => a.required ?? []);
}

/** conditionMode is the mode (index in conditionModes) a condition is in, or -1. */
export function conditionMode(components: Components, c: Condition | undefined): number {
  if (!c) return -1;
  return conditionModes(components).findIndex((req) => req.every((k) => (c as Record<string, unknown>)[k] !== undefined));
}

/** conditionProps are the properties of a condition (WorkflowCondition.properties), resolved. */
export function conditionProp(components: Components, name: string): Schema {
  return resolve(components, components.WorkflowCondition?.properties?.[name]);
}

/** parseValue reads a condition's value typed in a box: JSON when it parses, else the text. */
export function parseValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
