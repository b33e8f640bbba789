// A workflow channel step's content as the designer edits it (pure: unit-tested in
// test/unit/stepContent.test.ts): a template of the app, or content written in the step
// (the template editor's form for the step's channel, its email layout in step.layout).
import { specOf, type ChannelForm } from "./templateForm";

/** ContentStep is the part of a channel step this file reads and writes. */
export type ContentStep = { id: string; type: string; template?: unknown; content?: unknown; layout?: unknown; [field: string]: unknown };

/** Mode is how a step gets its content: a template, or written here. */
export type Mode = "template" | "inline";

/** contentStepFields are the step fields the content editor owns (the step form shows the rest). */
export const contentStepFields = ["template", "content", "layout"];

/** modeOf: a step naming a template uses it; any other writes its content. */
export const modeOf = (step: ContentStep): Mode => (typeof step.template === "string" && step.template !== "" ? "template" : "inline");

const contentOf = (step: ContentStep): Record<string, unknown> =>
  step.content && typeof step.content === "object" && !Array.isArray(step.content) ? (step.content as Record<string, unknown>) : {};

/** stepForm reads the step's content into the template editor's form for its channel:
 * every field of the channel (missing ones empty) and the layout ("" is the default). */
export function stepForm(step: ContentStep): ChannelForm {
  const content = contentOf(step);
  const fields: Record<string, string> = {};
  for (const f of specOf(step.type)?.fields ?? []) fields[f.name] = typeof content[f.name] === "string" ? (content[f.name] as string) : "";
  return { fields, layoutIdentifier: typeof step.layout === "string" ? step.layout : "" };
}

/** extraFields are the content's keys that are no field of the channel (the server refuses them). */
export const extraFields = (step: ContentStep): string[] => {
  const known = new Set((specOf(step.type)?.fields ?? []).map((f) => f.name));
  return Object.keys(contentOf(step)).filter((k) => !known.has(k));
};

/** withForm writes the form into the step as its own content: the fields with text (other
 * keys already there are kept, for the server to name), the layout on email only, no
 * template. An empty form is content {} (the step still writes its content). */
export function withForm(step: ContentStep, form: ChannelForm): ContentStep {
  const { template: _t, layout: _l, ...rest } = step;
  const content: Record<string, unknown> = Object.fromEntries(Object.entries(contentOf(step)).filter(([k]) => !(k in form.fields)));
  for (const [k, v] of Object.entries(form.fields)) if (v !== "") content[k] = v;
  const out: ContentStep = { ...rest, content };
  if (step.type === "email" && form.layoutIdentifier) out.layout = form.layoutIdentifier;
  return out;
}

/** withTemplate points the step at a template ("" for none chosen yet): no content, no layout. */
export function withTemplate(step: ContentStep, identifier: string): ContentStep {
  const { template: _t, content: _c, layout: _l, ...rest } = step;
  return identifier ? { ...rest, template: identifier } : rest;
}

/** isContentProblem tells the server's messages about a step's content (its fields, its
 * template, its layout, the content as a whole) from those about the step's other fields. */
export function isContentProblem(message: string, channel: string): boolean {
  return (
    /^(content|template|layout)([.:\s[]|$)/.test(message) ||
    message.startsWith(`${channel} content needs`) ||
    message.includes("needs a template or content")
  );
}

/** templateBody is the body that creates a template from written content: its identifier
 * and name (the identifier when no name is given). */
export const templateBody = (identifier: string, name: string) => ({ identifier: identifier.trim(), name: name.trim() || identifier.trim() });

/** suggestedIdentifier proposes a template identifier for a step's content: workflow and
 * step, in the identifier's alphabet. */
export const suggestedIdentifier = (workflow: string, step: string): string =>
  `${workflow}-${step}`.replace(/[^A-Za-z0-9_.-]+/g, "-").replace(/^[^A-Za-z0-9]+/, "").slice(0, 100);
