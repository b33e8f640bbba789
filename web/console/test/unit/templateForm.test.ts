// The template editor's per-channel forms, the sample data of its preview, the variable
// completion's paths and context, and the translation rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  builtinPaths,
  changedChannels,
  channelSpecs,
  completionPaths,
  contentBody,
  contentFields,
  isEmpty,
  parseSample,
  previewContents,
  samplePaths,
  translationEntries,
  variableAt,
} from "../../src/api/templateForm.ts";

test("contentFields: every channel's fields, missing ones empty, the email layout kept", () => {
  const f = contentFields([
    { channel: "email", content: { subject: "Hi {{user.firstName}}", text: "plain", bogus: "dropped" }, layoutIdentifier: "brand" },
    { channel: "sms", content: { body: "x" } },
    { channel: "inApp", content: { title: "T", message: "M" } },
  ]);
  assert.deepEqual(f.email, { fields: { subject: "Hi {{user.firstName}}", html: "", text: "plain" }, layoutIdentifier: "brand" });
  assert.deepEqual(f.sms, { fields: { body: "x" }, layoutIdentifier: "" });
  assert.deepEqual(f.inApp.fields, { title: "T", message: "M", icon: "", url: "" });
  assert.deepEqual(f.webPush.fields, { title: "", body: "", icon: "", url: "" });
  assert.deepEqual(f.slack.fields, { title: "", body: "" });
  assert.deepEqual(f.webhook.fields, { title: "", body: "", icon: "", url: "" });
  assert.equal(Object.keys(contentFields([])).length, 10);
  assert.ok(channelSpecs.every((s) => s.fields.some((x) => x.required)), "every channel has a required field");
});

test("contentBody: empty fields are not sent; only email sends its layout", () => {
  const f = contentFields([{ channel: "email", content: { subject: "S", html: "<p>x</p>" } }]);
  assert.deepEqual(contentBody("email", f.email), { content: { subject: "S", html: "<p>x</p>" }, layoutIdentifier: "" });
  const sms = { fields: { body: "Hi" }, layoutIdentifier: "ignored" };
  assert.deepEqual(contentBody("sms", sms), { content: { body: "Hi" } });
  assert.equal(isEmpty(f.sms), true);
  assert.equal(isEmpty(f.email), false);
});

test("changedChannels and previewContents: what differs from the saved content, and the unsaved text previewed", () => {
  const saved = contentFields([{ channel: "sms", content: { body: "a" } }]);
  const edited = { ...saved, sms: { fields: { body: "b" }, layoutIdentifier: "" }, email: { ...saved.email, layoutIdentifier: "brand" } };
  assert.deepEqual(changedChannels(saved, saved), []);
  assert.deepEqual(changedChannels(saved, edited), ["email", "sms"]);
  assert.deepEqual(previewContents(edited, ["sms"]), { sms: { content: { body: "b" } } });
});

test("samplePaths: nested keys parents first, array elements' keys under [*], odd keys left out", () => {
  const paths = samplePaths({ user: { profile: { firstName: "Ada", "first name": 1 } }, data: { items: [{ name: "Pen" }, { price: 2 }], n: 1 } });
  assert.deepEqual(paths, ["user", "user.profile", "user.profile.firstName", "data", "data.items", "data.items[*].name", "data.items[*].price", "data.n"]);
  assert.deepEqual(samplePaths(null), []);
  assert.deepEqual(samplePaths("x"), []);
});

test("completionPaths: the built-ins and the sample's paths, once each, without element paths", () => {
  const p = completionPaths({ data: { orderId: 1, items: [{ name: "x" }] }, user: { profile: { firstName: "Ada" } } });
  assert.ok(p.includes("app.name") && p.includes("user.identifier"));
  assert.ok(p.includes("data.orderId") && p.includes("user.profile.firstName") && p.includes("data.items"));
  assert.equal(p.filter((x) => x === "user.profile").length, 1);
  assert.ok(!p.some((x) => x.includes("[*]")));
  assert.deepEqual(completionPaths(undefined), builtinPaths);
});

test("variableAt: inside an open {{ tag, the typed path and where it starts", () => {
  assert.deepEqual(variableAt("Hello {{"), { from: 8, prefix: "" });
  assert.deepEqual(variableAt("Hello {{user.pro"), { from: 8, prefix: "user.pro" });
  assert.deepEqual(variableAt("{{{data.ht"), { from: 3, prefix: "data.ht" });
  assert.deepEqual(variableAt("{{#each data.it"), { from: 8, prefix: "data.it" });
  assert.deepEqual(variableAt("{{#if  user"), { from: 7, prefix: "user" });
  assert.equal(variableAt("Hello user.pro"), null);
  assert.equal(variableAt("{{a}} then b"), null);
  assert.equal(variableAt("{{/each"), null);
  assert.deepEqual(variableAt("{{a b}} {{x"), { from: 10, prefix: "x" });
});

test("translationEntries: rows to entries; keyless text and repeated keys are problems; empty rows dropped", () => {
  assert.deepEqual(translationEntries([{ key: " hello ", text: "Hi {{name}}" }, { key: "", text: "" }]), { entries: { hello: "Hi {{name}}" }, problems: [] });
  assert.deepEqual(translationEntries([{ key: "", text: "orphan" }, { key: "a", text: "1" }, { key: "a", text: "2" }]).problems, ["row 1 has text but no key", "key a is written twice"]);
});

test("parseSample: a JSON object of data and user", () => {
  assert.deepEqual(parseSample('{"data": {"a": 1}, "user": {"profile": {}}}').body, { data: { a: 1 }, user: { profile: {} } });
  assert.deepEqual(parseSample("{}").body, {});
  assert.match(parseSample("{").error!, /^Sample data is not JSON/);
  assert.equal(parseSample("[1]").error, "Sample data must be a JSON object");
  assert.equal(parseSample('{"data": 1}').error, "data must be a JSON object");
  assert.equal(parseSample('{"date": {}, "x": 1}').error, "Sample data holds only data and user (not date, x)");
  assert.equal(parseSample('{"data": {}}').body?.data && "ok", "ok");
});
