// How the activity feed names a send request in its rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { audience, shortId, what } from "../../src/screens/activity/requests.ts";
import type { components } from "../../src/api/client.ts";

type Request = components["schemas"]["NotificationRequest"];

const base: Request = {
  id: "01a21904-efb7-7dca-9d40-257b31dc2993",
  status: "completed",
  workflow: null,
  templateIdentifier: null,
  category: null,
  title: null,
  recipients: [],
  topics: [],
  recipientCount: 0,
  deliveredCount: 0,
  critical: false,
  error: null,
  workflowId: null,
  sendAt: null,
  createdAt: "2026-11-26T18:00:00Z",
  updatedAt: "2026-11-26T18:00:00Z",
  completedAt: null,
};

test("shortId: the last digits, which differ between requests of the same moment (UUIDv7)", () => {
  assert.equal(shortId(base.id), "31dc2993");
  assert.notEqual(shortId("01a21904-efb7-7dca-9d40-257b31dc2993"), shortId("01a21904-efb7-7dca-9d40-257b298ddbe5"));
});

test("what: the workflow, else the template, else the title, else a plain word", () => {
  assert.equal(what({ ...base, workflow: "welcome", templateIdentifier: "t", title: "Hi" }), "workflow welcome");
  assert.equal(what({ ...base, templateIdentifier: "receipt", title: "Hi" }), "template receipt");
  assert.equal(what({ ...base, title: "Hi" }), "“Hi”");
  assert.equal(what(base), "notification");
});

test("audience: named users and topics; the users not listed are counted", () => {
  assert.equal(audience({ ...base, recipients: ["ann", "bob"], recipientCount: 2 }), "ann, bob");
  assert.equal(audience({ ...base, recipients: ["ann"], recipientCount: 12 }), "ann and 11 more");
  assert.equal(audience({ ...base, topics: ["news"], recipientCount: 40 }), "topic news");
});
