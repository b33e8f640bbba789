// The template assistant's draft mapped onto the editor's form of the open channel.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyDraft, draftFields, draftedFields } from "../../src/api/assistantDraft.ts";
import { channelSpecs, contentFields } from "../../src/api/templateForm.ts";

test("applyDraft: email fills subject, html and text and keeps the layout", () => {
  const form = contentFields([{ channel: "email", content: { subject: "Old", html: "<p>old</p>", text: "old" }, layoutIdentifier: "brand" }]).email;
  const got = applyDraft("email", form, { channel: "email", content: { subject: "Hi {{firstName}}", html: "<p>Hi</p>" }, model: "m" });
  assert.deepEqual(got, { fields: { subject: "Hi {{firstName}}", html: "<p>Hi</p>", text: "" }, layoutIdentifier: "brand" });
  assert.equal(form.fields.subject, "Old", "the form passed in is not changed");
});

test("applyDraft: the assistant's text is the body of SMS, WhatsApp and chat; chat titles and icons are kept", () => {
  const forms = contentFields([
    { channel: "slack", content: { title: "Keep", body: "old" } },
    { channel: "inApp", content: { title: "T", message: "M", icon: "https://x/i.png", url: "https://x" } },
  ]);
  assert.deepEqual(applyDraft("sms", forms.sms, { channel: "sms", content: { text: "Your code is {{code}}" } }).fields, { body: "Your code is {{code}}" });
  assert.deepEqual(applyDraft("whatsapp", forms.whatsapp, { channel: "whatsapp", content: { text: "Hi" } }).fields, { body: "Hi" });
  assert.deepEqual(applyDraft("slack", forms.slack, { channel: "slack", content: { text: "*New* order" } }).fields, { title: "Keep", body: "*New* order" });
  assert.deepEqual(applyDraft("inApp", forms.inApp, { channel: "inApp", content: { title: "New", message: "Body", extra: "dropped" } }).fields, {
    title: "New",
    message: "Body",
    icon: "https://x/i.png",
    url: "",
  });
  assert.deepEqual(applyDraft("webhook", forms.webhook, { channel: "webhook", content: { body: '{"a":1}' } }).fields, { title: "", body: '{"a":1}', icon: "", url: "" });
});

test("applyDraft: a draft for another channel changes nothing", () => {
  const form = contentFields([{ channel: "sms", content: { body: "mine" } }]).sms;
  assert.equal(applyDraft("sms", form, { channel: "whatsapp", content: { text: "other" } }), form);
  assert.equal(applyDraft("sms", form, {}), form);
});

test("draftFields: the editor's names and labels in the channel's order", () => {
  assert.deepEqual(draftFields({ channel: "email", content: { text: "t", subject: "s", html: "h" } }), [
    { name: "subject", label: "Email subject", value: "s" },
    { name: "html", label: "Email HTML body", value: "h" },
    { name: "text", label: "Email plain-text body", value: "t" },
  ]);
  assert.deepEqual(draftFields({ channel: "msTeams", content: { text: "x" } }), [{ name: "body", label: "Teams text", value: "x" }]);
  assert.deepEqual(draftFields({ channel: "fax", content: { text: "x" } }), []);
});

test("draftedFields: every channel's drafted fields are fields of its editor", () => {
  for (const s of channelSpecs) {
    const names = s.fields.map((f) => f.name);
    assert.ok(draftedFields[s.channel]?.length, s.channel);
    for (const n of draftedFields[s.channel]!) assert.ok(names.includes(n), `${s.channel}.${n}`);
  }
});
