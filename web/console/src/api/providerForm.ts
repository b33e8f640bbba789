// The instance form of a provider, derived from its configuration's JSON Schema (no DOM,
// no network: unit-tested).

/** FormField is one configuration key of a provider as the form shows it. */
export type FormField = {
  key: string;
  title: string;
  description?: string;
  kind: "text" | "number" | "enum" | "boolean";
  options: string[];
  required: boolean;
  /** secret keys ("x-secret": true) are write-only: a password input, never prefilled. */
  secret: boolean;
  /**
   * destination keys ("x-destination": a URL, host, port, region or TLS mode) decide where the
   * instance connects: once saved, changing one needs an owner or admin and its secrets again.
   */
  destination: boolean;
  default?: string;
};

type Prop = {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  "x-secret"?: boolean;
  "x-destination"?: string;
};

/** formFields lists the schema's top-level properties in their order, required first. */
export function formFields(schema: unknown): FormField[] {
  const s = (schema ?? {}) as { properties?: Record<string, Prop>; required?: string[] };
  const required = new Set(s.required ?? []);
  const out = Object.entries(s.properties ?? {}).map(([key, p]): FormField => {
    const type = Array.isArray(p.type) ? p.type.find((t) => t !== "null") : p.type;
    const kind = p.enum ? "enum" : type === "integer" || type === "number" ? "number" : type === "boolean" ? "boolean" : "text";
    return {
      key,
      title: p.title ?? key,
      description: p.description,
      kind,
      options: (p.enum ?? []).map(String),
      required: required.has(key),
      secret: p["x-secret"] === true,
      destination: typeof p["x-destination"] === "string" && p["x-destination"] !== "",
      default: p.default === undefined || p["x-secret"] ? undefined : String(p.default),
    };
  });
  return [...out.filter((f) => f.required), ...out.filter((f) => !f.required)];
}

/**
 * configBody turns the form's strings into the config object: empty optional fields are
 * left out (the provider's default applies; a required one is named by the API), numbers
 * and booleans are converted when they parse (else sent as typed, so the API names the field).
 */
export function configBody(fields: FormField[], values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = (values[f.key] ?? "").trim();
    if (v === "") continue; // a required one left out: the API answers "config.<key> is required"
    if (f.kind === "number") out[f.key] = Number.isFinite(Number(v)) ? Number(v) : v;
    else if (f.kind === "boolean") out[f.key] = v === "true" ? true : v === "false" ? false : v;
    else out[f.key] = f.secret ? values[f.key] : v;
  }
  return out;
}

/** destinationNote is added to the hint of destination keys. */
export const destinationNote = "Where Herald connects: changing it later needs an owner or admin and the secrets entered again.";

/** fieldHint is the text under a field: secrets say they are write-only; destinations say who may change them. */
export function fieldHint(f: FormField): string | undefined {
  if (f.secret && !f.destination) return "Secret: write-only";
  const parts = [f.secret ? "Secret: write-only." : f.description, f.destination ? destinationNote : undefined].filter(Boolean);
  return parts.length ? parts.join(" ") : undefined;
}
