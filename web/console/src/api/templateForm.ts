// The template editor's pure helpers (no DOM, no network: unit-tested): the fields of each
// channel's content, the form's state read from and written to the API, the sample data's
// variable paths, and where a Handlebars variable is being typed.
import { channelNames as n, type Channel } from "./channels";

/** Channel is a delivery channel a template has content for (the console's one vocabulary, channels.ts). */
export type { Channel };

/** FieldSpec is one content field of a channel: a code editor for a Handlebars text. */
export type FieldSpec = { name: string; label: string; lang: "html" | "text"; lines: number; required?: boolean };

/** ChannelSpec is a channel's editor: its label, group and fields, in the API's names. */
export type ChannelSpec = { channel: Channel; label: string; group: "Email" | "In-app" | "SMS" | "Push" | "Chat" | "Webhook"; fields: FieldSpec[] };

const f = (name: string, label: string, lines = 1, lang: FieldSpec["lang"] = "text", required = false): FieldSpec => ({ name, label, lang, lines, required });
const push = (label: string) => [f("title", `${label} title`, 1, "text", true), f("body", `${label} body`, 3, "text", true), f("icon", `${label} icon URL`), f("url", `${label} link URL`)];
const chat = (label: string) => [f("title", `${label} title`), f("body", `${label} text`, 4, "text", true)];

/** channelSpecs lists every channel the API takes content for, in its delivery order, with
 * the fields of TemplateContent.content (email: subject, html, text; inApp: title, message,
 * icon, url; sms/whatsapp: body; push/webhook: title, body, icon, url; chat: title, body). */
export const channelSpecs: ChannelSpec[] = [
  { channel: "email", label: n.email, group: "Email", fields: [f("subject", "Email subject", 1, "text", true), f("html", "Email HTML body", 12, "html", true), f("text", "Email plain-text body", 4)] },
  { channel: "inApp", label: n.inApp, group: "In-app", fields: [f("title", `${n.inApp} title`, 1, "text", true), f("message", `${n.inApp} message`, 3), f("icon", `${n.inApp} icon URL`), f("url", `${n.inApp} link URL`)] },
  { channel: "sms", label: n.sms, group: "SMS", fields: [f("body", `${n.sms} text`, 4, "text", true)] },
  { channel: "whatsapp", label: n.whatsapp, group: "SMS", fields: [f("body", `${n.whatsapp} text`, 4, "text", true)] },
  { channel: "webPush", label: n.webPush, group: "Push", fields: push(n.webPush) },
  { channel: "mobilePush", label: n.mobilePush, group: "Push", fields: push(n.mobilePush) },
  { channel: "slack", label: n.slack, group: "Chat", fields: chat(n.slack) },
  { channel: "discord", label: n.discord, group: "Chat", fields: chat(n.discord) },
  { channel: "msTeams", label: n.msTeams, group: "Chat", fields: chat("Teams") },
  { channel: "webhook", label: n.webhook, group: "Webhook", fields: push(n.webhook) },
];

export const specOf = (channel: string): ChannelSpec | undefined => channelSpecs.find((s) => s.channel === channel);

/** ContentRow is a stored channel content as GET /v1/templates/{id} lists it. */
export type ContentRow = { channel?: string; content?: Record<string, string>; layoutIdentifier?: string };

/** ChannelForm is what the editor edits for one channel: every field of its spec (missing
 * ones empty) and, for email, the layout ("" is the app's default). */
export type ChannelForm = { fields: Record<string, string>; layoutIdentifier: string };

/** Edited is the editor's state: one form per channel. */
export type Edited = Record<Channel, ChannelForm>;

/** contentFields reads the editor's forms from a template's contents (missing ones empty). */
export function contentFields(contents: ContentRow[]): Edited {
  const out = {} as Edited;
  for (const spec of channelSpecs) {
    const row = contents.find((c) => c.channel === spec.channel);
    const fields: Record<string, string> = {};
    for (const fs of spec.fields) fields[fs.name] = row?.content?.[fs.name] ?? "";
    out[spec.channel] = { fields, layoutIdentifier: row?.layoutIdentifier ?? "" };
  }
  return out;
}

/** isEmpty reports whether a channel's form has no text in any field. */
export const isEmpty = (form: ChannelForm) => Object.values(form.fields).every((v) => v === "");

/** contentBody is the body of PUT /v1/templates/{id}/contents/{channel}: the fields with
 * text (an empty field is not sent) and, for email, the layout. */
export function contentBody(channel: Channel, form: ChannelForm): { content: Record<string, string>; layoutIdentifier?: string } {
  const content = Object.fromEntries(Object.entries(form.fields).filter(([, v]) => v !== ""));
  return channel === "email" ? { content, layoutIdentifier: form.layoutIdentifier } : { content };
}

/** changedChannels lists the channels whose form differs from the saved one. */
export function changedChannels(saved: Edited, edited: Edited): Channel[] {
  return channelSpecs
    .map((s) => s.channel)
    .filter((ch) => JSON.stringify(contentBody(ch, saved[ch])) !== JSON.stringify(contentBody(ch, edited[ch])));
}

/** previewContents is the preview request's contents: the unsaved form of each channel
 * shown (an empty one previews as no content). */
export function previewContents(edited: Edited, channels: Channel[]): Record<string, { content: Record<string, string>; layoutIdentifier?: string }> {
  return Object.fromEntries(channels.map((ch) => [ch, contentBody(ch, edited[ch])]));
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

/** builtinPaths are the variables every template has beside the sample data's. */
export const builtinPaths = ["app.id", "app.name", "template.identifier", "user.identifier", "user.profile"];

/** samplePaths lists the variable paths of sample data, parents before children: objects
 * give their keys (user.profile.firstName), arrays their own path and, through the
 * elements' keys, the paths {{#each}} binds (data.items, and items' keys as name under
 * data.items[*].name). Keys that are not identifiers are left out (Handlebars would need
 * [brackets]). At most 500 paths, 8 levels deep. */
export function samplePaths(value: unknown, prefix = "", depth = 0, out: string[] = []): string[] {
  if (depth > 8 || out.length >= 500 || typeof value !== "object" || value === null) return out;
  if (Array.isArray(value)) {
    const keys = new Set<string>();
    for (const el of value.slice(0, 20)) if (el && typeof el === "object" && !Array.isArray(el)) Object.keys(el).forEach((k) => keys.add(k));
    for (const k of keys) if (/^[A-Za-z_$][\w$-]*$/.test(k) && out.length < 500) out.push(`${prefix}[*].${k}`);
    return out;
  }
  for (const [k, v] of Object.entries(value)) {
    if (!/^[A-Za-z_$][\w$-]*$/.test(k)) continue;
    const p = prefix ? `${prefix}.${k}` : k;
    if (out.length >= 500) break;
    out.push(p);
    samplePaths(v, p, depth + 1, out);
  }
  return out;
}

/** completionPaths are the paths offered while typing a variable: the built-ins and those
 * of the sample data, without duplicates, element paths ([*]) left out (they are written
 * inside {{#each}}, relative to the element). */
export function completionPaths(sample: Sample["body"] | undefined): string[] {
  const paths = new Set(builtinPaths);
  for (const p of samplePaths(sample ?? {})) if (!p.includes("[*]")) paths.add(p);
  return [...paths];
}

/** variableAt finds the variable being typed when the text before the cursor is inside an
 * unclosed {{ (or {{{, {{#if, {{#each …): from is the offset where the path starts, and
 * prefix is what is typed of it. null outside a tag. */
export function variableAt(before: string): { from: number; prefix: string } | null {
  const open = before.lastIndexOf("{{");
  if (open < 0 || before.indexOf("}}", open) >= 0) return null;
  const m = /[A-Za-z0-9_$.\-[\]@]*$/.exec(before);
  const prefix = m ? m[0] : "";
  const inside = before.slice(open + 2, before.length - prefix.length);
  // Inside the tag: nothing, {, # or / and a helper name, else, or earlier arguments.
  if (!/^\{?(?:[#^/~]?\s*[\w-]*\s+)*\s*$/.test(inside) && !/^\{?\s*$/.test(inside)) return null;
  if (inside.startsWith("/")) return null;
  return { from: before.length - prefix.length, prefix };
}

/** EntryRow is one string of a translation as the editor lists it. */
export type EntryRow = { key: string; text: string };

/** translationEntries turns the editor's rows into a translation's entries, or lists the
 * problems: a row with text and no key, and a key written twice. Empty rows are dropped. */
export function translationEntries(rows: EntryRow[]): { entries: Record<string, string>; problems: string[] } {
  const entries: Record<string, string> = {};
  const problems: string[] = [];
  rows.forEach((r, i) => {
    const key = r.key.trim();
    if (key === "" && r.text === "") return;
    if (key === "") problems.push(`row ${i + 1} has text but no key`);
    else if (key in entries) problems.push(`key ${key} is written twice`);
    else entries[key] = r.text;
  });
  return { entries, problems };
}
