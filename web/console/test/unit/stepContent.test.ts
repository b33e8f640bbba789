// A workflow channel step's content as the designer's step panel edits it: the form read
// from the step, written back, the switch to a template, and the server's problems that
// belong to the content editor.
import { test } from "node:test";
import assert from "node:assert/strict";
import { extraFields, isContentProblem, modeOf, stepForm, suggestedIdentifier, templateBody, withForm, withTemplate } from "../../src/api/stepContent.ts";

test("stepForm: every field of the step's channel, missing ones empty, the email layout", () => {
  assert.deepEqual(stepForm({ id: "m", type: "email", content: { subject: "Hi", html: "<p>x</p>" }, layout: "brand" }), {
    fields: { subject: "Hi", html: "<p>x</p>", text: "" },
    layoutIdentifier: "brand",
  });
  assert.deepEqual(stepForm({ id: "s", type: "sms" }), { fields: { body: "" }, layoutIdentifier: "" });
  assert.deepEqual(stepForm({ id: "s", type: "sms", content: [] }), { fields: { body: "" }, layoutIdentifier: "" });
});

test("withForm: the fields with text, other keys kept, the layout on email only, no template", () => {
  const step = { id: "m", type: "email", template: "old", next: "x", content: { subject: "a", extra: "keep" } };
  assert.deepEqual(withForm(step, { fields: { subject: "Hi", html: "", text: "t" }, layoutIdentifier: "brand" }), {
    id: "m",
    type: "email",
    next: "x",
    content: { extra: "keep", subject: "Hi", text: "t" },
    layout: "brand",
  });
  assert.deepEqual(withForm({ id: "s", type: "sms", layout: "x" }, { fields: { body: "" }, layoutIdentifier: "x" }), { id: "s", type: "sms", content: {} });
  assert.deepEqual(extraFields({ id: "m", type: "email", content: { subject: "a", extra: "keep" } }), ["extra"]);
});

test("withTemplate and modeOf: a template replaces the content and layout; none chosen leaves neither", () => {
  const step = { id: "m", type: "email", content: { subject: "a" }, layout: "brand", next: "x" };
  assert.deepEqual(withTemplate(step, "welcome"), { id: "m", type: "email", next: "x", template: "welcome" });
  assert.deepEqual(withTemplate(step, ""), { id: "m", type: "email", next: "x" });
  assert.equal(modeOf(withTemplate(step, "welcome")), "template");
  assert.equal(modeOf(step), "inline");
  assert.equal(modeOf({ id: "m", type: "email", template: "" }), "inline");
});

test("isContentProblem: the content's fields, template, layout and whole; not the other fields", () => {
  for (const m of [
    "content.subject should not be empty",
    "content: must be an object",
    "template: no template \"x\" in this app",
    "layout applies to email steps with inline content only",
    "email content needs html or text",
    "(email) needs a template or content",
  ])
    assert.ok(isContentProblem(m, "email"), m);
  for (const m of ["sendWindow.start must be HH:MM", "next: no step with id \"x\"", "contentious"]) assert.ok(!isContentProblem(m, "email"), m);
});

test("a template from a step: a suggested identifier in the identifier's alphabet, the name defaulting to it", () => {
  assert.equal(suggestedIdentifier("order receipt", "email-1"), "order-receipt-email-1");
  assert.equal(suggestedIdentifier("--x", "é"), "x--");
  assert.deepEqual(templateBody(" receipt ", ""), { identifier: "receipt", name: "receipt" });
  assert.deepEqual(templateBody("receipt", "Receipt"), { identifier: "receipt", name: "Receipt" });
});
