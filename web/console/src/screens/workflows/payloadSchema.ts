// A workflow's payload schema (the JSON Schema of its sends' data) in the designer: the
// {{data.…}} paths editors complete from it, sample data generated from it, a schema
// inferred from a sample, and the form builder's fields (one level of nesting) both ways.

/** JsonSchema is the part of a JSON Schema the designer reads and writes. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  examples?: unknown[];
  default?: unknown;
  enum?: unknown[];
  format?: string;
  [k: string]: unknown;
};

/** FieldType is a type the form builder offers. */
export type FieldType = "string" | "number" | "integer" | "boolean" | "object" | "array";
export const fieldTypes: FieldType[] = ["string", "number", "integer", "boolean", "object", "array"];

/** Field is one row of the form builder; an object's (or array of objects') fields nest one level. */
export type Field = { name: string; type: FieldType; required: boolean; fields?: Field[]; itemType?: FieldType };

const typeOf = (s: JsonSchema | undefined): string | undefined => (Array.isArray(s?.type) ? s?.type.find((t) => t !== "null") : s?.type);

/** schemaPaths lists the template paths of a schema's data: data.order, data.order.id, data.items, … */
export function schemaPaths(schema: JsonSchema | null | undefined): string[] {
  const out: string[] = [];
  const walk = (s: JsonSchema | undefined, prefix: string, depth: number) => {
    if (!s || depth > 6) return;
    for (const [k, v] of Object.entries(s.properties ?? {})) {
      const p = `${prefix}.${k}`;
      out.push(p);
      walk(v, p, depth + 1);
      if (typeOf(v) === "array" && v.items) walk(v.items, `${p}.[0]`, depth + 1);
    }
  };
  walk(schema ?? undefined, "data", 0);
  return out;
}

/** sampleFromSchema makes data that matches a schema: examples and defaults first, then a value per type. */
export function sampleFromSchema(schema: JsonSchema | null | undefined, name = "", depth = 0): unknown {
  if (!schema || depth > 6) return {};
  if (schema.examples?.length) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  switch (typeOf(schema) ?? (schema.properties ? "object" : undefined)) {
    case "object": {
      const o: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(schema.properties ?? {})) o[k] = sampleFromSchema(v, k, depth + 1);
      return o;
    }
    case "array":
      return schema.items ? [sampleFromSchema(schema.items, name, depth + 1)] : [];
    case "integer":
      return 1;
    case "number":
      return 9.99;
    case "boolean":
      return true;
    case "null":
      return null;
    case "string":
      if (schema.format === "email") return "ada@example.com";
      if (schema.format === "date-time") return "2026-01-01T09:00:00Z";
      if (schema.format === "uri") return "https://example.com";
      return name ? `sample ${name}` : "sample";
    default:
      return name ? `sample ${name}` : "sample";
  }
}

/** inferSchema builds a schema from a sample value: every member of an object is required. */
export function inferSchema(v: unknown): JsonSchema {
  if (v === null) return { type: "null" };
  if (Array.isArray(v)) return v.length ? { type: "array", items: inferSchema(v[0]) } : { type: "array" };
  switch (typeof v) {
    case "object": {
      const o = v as Record<string, unknown>;
      const properties: Record<string, JsonSchema> = {};
      for (const [k, x] of Object.entries(o)) properties[k] = inferSchema(x);
      return { type: "object", properties, required: Object.keys(o) };
    }
    case "number":
      return { type: Number.isInteger(v) ? "integer" : "number" };
    case "boolean":
      return { type: "boolean" };
    default:
      return { type: "string" };
  }
}

const asFieldType = (t: string | undefined): FieldType => (fieldTypes.includes(t as FieldType) ? (t as FieldType) : "string");

/** fieldsFromSchema reads the builder's rows from a schema (two levels: deeper parts stay only in the raw JSON). */
export function fieldsFromSchema(schema: JsonSchema | null | undefined, depth = 0): Field[] {
  const req = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, s]) => {
    const type = asFieldType(typeOf(s));
    const f: Field = { name, type, required: req.has(name) };
    if (depth === 0 && type === "object") f.fields = fieldsFromSchema(s, 1);
    if (type === "array") {
      f.itemType = asFieldType(typeOf(s.items));
      if (depth === 0 && f.itemType === "object") f.fields = fieldsFromSchema(s.items, 1);
    }
    return f;
  });
}

/**
 * schemaFromFields writes the builder's rows into a schema, keeping what the builder does
 * not show (descriptions, formats, deeper levels) from base.
 */
export function schemaFromFields(fields: Field[], base: JsonSchema | null | undefined = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of fields) {
    if (!f.name) continue;
    const old = base?.properties?.[f.name] ?? {};
    const s: JsonSchema = { ...old, type: f.type };
    if (f.type === "object") {
      Object.assign(s, schemaFromFields(f.fields ?? [], old));
      s.type = "object";
    } else delete s.properties, delete s.required;
    if (f.type === "array") {
      const it = f.itemType ?? "string";
      const oldItems = old.items ?? {};
      s.items = it === "object" ? { ...schemaFromFields(f.fields ?? [], oldItems), type: "object" } : { ...oldItems, type: it };
      if (it !== "object") delete s.items.properties, delete s.items.required;
    } else delete s.items;
    properties[f.name] = s;
  }
  const out: JsonSchema = { ...(base ?? {}), type: "object", properties };
  const required = fields.filter((f) => f.name && f.required).map((f) => f.name);
  if (required.length) out.required = required;
  else delete out.required;
  return out;
}

/** schemaProblems keeps the server's problems about the payload schema (the rest concern the definition). */
export const isSchemaProblem = (m: string) => m.startsWith("payloadSchema");
