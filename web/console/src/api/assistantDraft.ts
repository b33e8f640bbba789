// The template assistant's draft (POST /v1/ai answers {channel, content, model}) mapped onto
// the template editor's form of that channel. The assistant names some fields differently
// from the stored template content: its "text" of SMS, WhatsApp and chat channels is the
// editor's "body".
import { specOf, type ChannelForm } from "./templateForm";

/** Draft is the assistant's answer: the channel's fields as the assistant names them. */
export type Draft = { channel?: string; content?: Record<string, string>; model?: string };

/** draftField maps an assistant field of a channel to the editor's field name. */
const renamed: Record<string, Record<string, string>> = {
  sms: { text: "body" },
  whatsapp: { text: "body" },
  slack: { text: "body" },
  discord: { text: "body" },
  msTeams: { text: "body" },
};

/** draftedFields are the editor fields the assistant writes for a channel: a draft replaces
 * them all (an optional one it left out becomes empty) and keeps the others (an icon, a chat
 * title, the email layout), which the assistant never writes. */
export const draftedFields: Record<string, string[]> = {
  email: ["subject", "html", "text"],
  inApp: ["title", "message", "url"],
  sms: ["body"],
  whatsapp: ["body"],
  webPush: ["title", "body", "url"],
  mobilePush: ["title", "body"],
  slack: ["body"],
  discord: ["body"],
  msTeams: ["body"],
  webhook: ["body"],
};

/** draftFields lists a draft's fields as the editor names them, in the channel's field
 * order, with their labels (for showing the draft); fields the editor has not are dropped. */
export function draftFields(draft: Draft): { name: string; label: string; value: string }[] {
  const spec = draft.channel ? specOf(draft.channel) : undefined;
  if (!spec) return [];
  const map = renamed[spec.channel] ?? {};
  const byName: Record<string, string> = {};
  for (const [k, v] of Object.entries(draft.content ?? {})) {
    if (typeof v === "string") byName[map[k] ?? k] = v;
  }
  return spec.fields.filter((f) => f.name in byName).map((f) => ({ name: f.name, label: f.label, value: byName[f.name] ?? "" }));
}

/** applyDraft is the channel's form with the draft filled in: every field the assistant
 * writes takes the draft's text ("" when it left an optional one out), the rest is kept.
 * A draft for another channel changes nothing. */
export function applyDraft(channel: string, form: ChannelForm, draft: Draft): ChannelForm {
  if (draft.channel !== channel) return form;
  const fields = { ...form.fields };
  for (const name of draftedFields[channel] ?? []) if (name in fields) fields[name] = "";
  for (const f of draftFields(draft)) fields[f.name] = f.value;
  return { ...form, fields };
}
