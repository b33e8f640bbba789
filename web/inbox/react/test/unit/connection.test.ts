// The connection's reference count: StrictMode's unmount and re-mount in one commit keep
// the one connection; the last release stops it a macrotask later; a failed start is
// reported and can be retried.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { HeraldClient } from "@heraldhq/inbox/client";
import { restart, retain } from "../../src/connection.js";

function fakeClient(fail = false) {
  const calls: string[] = [];
  const client = {
    start: () => (calls.push("start"), fail ? Promise.reject(new Error("refused")) : Promise.resolve()),
    stop: () => void calls.push("stop"),
  };
  return { client: client as unknown as HeraldClient, calls };
}
const macrotask = () => new Promise((r) => setTimeout(r, 5));

test("StrictMode: hold, release and hold again in one commit starts once and never stops", async () => {
  const { client, calls } = fakeClient();
  const release1 = retain(client, assert.fail);
  release1();
  const release2 = retain(client, assert.fail);
  await macrotask();
  assert.deepEqual(calls, ["start"]);
  release2();
  await macrotask();
  assert.deepEqual(calls, ["start", "stop"]);
});

test("two holders share the connection; it stops when the last lets go, once", async () => {
  const { client, calls } = fakeClient();
  const a = retain(client, assert.fail);
  const b = retain(client, assert.fail);
  a();
  a();
  await macrotask();
  assert.deepEqual(calls, ["start"]);
  b();
  await macrotask();
  assert.deepEqual(calls, ["start", "stop"]);
  // Held again later: started again.
  const c = retain(client, assert.fail);
  assert.deepEqual(calls, ["start", "stop", "start"]);
  c();
});

test("a failed start is reported, and restart starts again while held", async () => {
  const { client, calls } = fakeClient(true);
  const errors: string[] = [];
  const release = retain(client, (e) => errors.push(e.message));
  await macrotask();
  assert.deepEqual(errors, ["refused"]);
  restart(client, (e) => errors.push(e.message));
  await macrotask();
  assert.deepEqual(calls, ["start", "start"]);
  assert.deepEqual(errors, ["refused", "refused"]);
  release();
});
