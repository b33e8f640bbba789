// The template editor's fields and the sample data of its preview.
import { test } from "node:test";
import assert from "node:assert/strict";
import { contentFields, parseSample } from "../../src/api/templateForm.ts";

test("contentFields: the email and in-app fields, missing ones empty", () => {
  const f = contentFields([
    { channel: "email", content: { subject: "Hi {{user.firstName}}", text: "ignored" } },
    { channel: "sms", content: { body: "x" } },
    { channel: "inApp", content: { title: "T", message: "M" } },
  ]);
  assert.deepEqual(f, { email: { subject: "Hi {{user.firstName}}", html: "" }, inApp: { title: "T", message: "M" } });
  assert.deepEqual(contentFields([]), { email: { subject: "", html: "" }, inApp: { title: "", message: "" } });
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
