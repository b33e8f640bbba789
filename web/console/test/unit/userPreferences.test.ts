// The user page's preferences: channel order, the optimistic edits, what a workflow's
// channel switches say.
import assert from "node:assert/strict";
import { test } from "node:test";
import { flowNote, matrixChannels, switchList, withCell, withChannel, withFlow } from "../../src/screens/preferences/logic.ts";

test("channel switches are listed in the console's order, unset ones on", () => {
  const got = switchList({ sms: false, inApp: true, email: undefined, zzz: true } as never);
  assert.deepEqual(got, [
    { channel: "inApp", on: true },
    { channel: "email", on: true },
    { channel: "sms", on: false },
    { channel: "zzz", on: true },
  ]);
  assert.deepEqual(switchList(undefined), []);
});

test("switching a channel changes that channel only, and leaves the old answer as it was", () => {
  const before = { email: true, sms: true };
  const after = withChannel(before, "sms", false);
  assert.deepEqual(after, { email: true, sms: false });
  assert.deepEqual(before, { email: true, sms: true });
});

test("a matrix cell changes in its category only", () => {
  const list = [
    { category: { id: 1 }, channelPreferences: [{ channel: "email", enabled: true }, { channel: "sms", enabled: true }] },
    { category: { id: 2 }, channelPreferences: [{ channel: "email", enabled: true }] },
    { category: null, channelPreferences: [{ channel: "email", enabled: true }] },
  ];
  const got = withCell(list, 1, "email", false)!;
  assert.equal(got[0]!.channelPreferences![0]!.enabled, false);
  assert.equal(got[0]!.channelPreferences![1]!.enabled, true);
  assert.equal(got[1]!.channelPreferences![0]!.enabled, true);
  assert.equal(got[2]!.channelPreferences![0]!.enabled, true);
  assert.equal(list[0]!.channelPreferences[0]!.enabled, true);
  assert.equal(withCell(undefined, 1, "email", false), undefined);
});

test("the matrix's columns follow the console's channel order", () => {
  assert.deepEqual(matrixChannels([{ channelPreferences: [{ channel: "sms" }, { channel: "inApp" }, { channel: "email" }] }]), ["inApp", "email", "sms"]);
  assert.deepEqual(matrixChannels(undefined), []);
});

test("a workflow switch changes that workflow only", () => {
  const list = [
    { workflow: { identifier: "a", name: "A" }, enabled: true, channels: {}, critical: false },
    { workflow: { identifier: "b", name: "B" }, enabled: true, channels: {}, critical: false },
  ];
  const got = withFlow(list, "b", false)!;
  assert.deepEqual(got.map((f) => f.enabled), [true, false]);
});

test("a workflow's own channel switches are said in words", () => {
  assert.equal(flowNote({}), "");
  assert.equal(flowNote({ sms: false, email: false, inApp: true }), "Set per channel: off on SMS, Email; on on In-app.");
});
