// The template editor's pure helpers (no DOM, no network: unit-tested).

/** ContentRow is a stored channel content as GET /v1/templates/{id} lists it. */
export type ContentRow = { channel?: string; content?: Record<string, string> };

/** EditedChannel is what the editor edits: the email and in-app fields. */
export type EditedChannel = {
  email: { subject: string; html: string };
  inApp: { title: string; message: string };
};

/** contentFields reads the editor's fields from a template's contents (missing ones empty). */
export function contentFields(contents: ContentRow[]): EditedChannel {
  const of = (ch: string) => contents.find((c) => c.channel === ch)?.content ?? {};
  const email = of("email");
  const inApp = of("inApp");
  return {
    email: { subject: email.subject ?? "", html: email.html ?? "" },
    inApp: { title: inApp.title ?? "", message: inApp.message ?? "" },
  };
}

/** Sample is the preview's request body, or why the text is not one. */
export type Sample = { body?: { data?: Record<string, unknown>; user?: { identifier?: string; profile?: Record<string, unknown> } }; error?: string };

/** parseSample reads the sample data the user typed: a JSON object of data and user. */
export function parseSample(text: string): Sample {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `Sample data is not JSON: ${(e as Error).message}` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { error: "Sample data must be a JSON object" };
  const o = v as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== "data" && k !== "user");
  if (extra.length) return { error: `Sample data holds only data and user (not ${extra.join(", ")})` };
  for (const k of ["data", "user"]) {
    if (k in o && (typeof o[k] !== "object" || o[k] === null || Array.isArray(o[k]))) return { error: `${k} must be a JSON object` };
  }
  return { body: o as Sample["body"] };
}
