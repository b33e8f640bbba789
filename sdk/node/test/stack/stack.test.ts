// The SDK against a real Herald stack (issue 35). integration/sdk/node_test.go starts the
// stack (API, worker and relay on the Temporal dev server, real Postgres) with a contract
// check in front of it, prepares the apps and the data below, builds this package and runs
// this file with node --test. Run alone, it needs those environment variables.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { APIError, Herald, signUserToken, userSignature, type FetchLike, type HeraldOptions, type Notification, type UserClient } from "@heraldhq/node";
import { ResetProxy } from "./resetproxy.js";

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run this through integration/sdk (TestNodeSDKAgainstAStack)`);
  return v;
}

const url = need("HERALD_URL");

/** A client of the test app (HERALD_URL, HERALD_API_KEY and HERALD_API_SECRET from the environment). */
function app(o: HeraldOptions = {}): Herald {
  return new Herald(o);
}

/** A fetch that records the status of every attempt (0 for a transport error). */
function recording(): { fetch: FetchLike; statuses: number[] } {
  const statuses: number[] = [];
  return {
    statuses,
    fetch: async (input, init) => {
      try {
        const res = await fetch(input, init);
        statuses.push(res.status);
        return res;
      } catch (e) {
        statuses.push(0);
        throw e;
      }
    },
  };
}

/** Polls cond until it holds, failing after 30 s (delivery runs asynchronously). */
async function eventually(what: string, cond: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function inbox(u: UserClient): Promise<Notification[]> {
  const out: Notification[] = [];
  for await (const n of u.notifications()) out.push(n);
  return out;
}

describe("Node SDK against a real stack", () => {
  it("delivers a send to the inbox and changes its state for the user", async () => {
    const h = app();
    const cat = await h.createCategory({ identifier: "onboarding", name: "Onboarding" });
    assert.ok(cat.id > 0);
    const res = await h.send({
      notification: { title: "Welcome", message: "Hello", category: "onboarding" },
      sendTo: { recipients: ["alice", { identifier: "bob", email: "bob@example.com", name: "Bob" }] },
      data: { orderId: 42 },
    });
    assert.match(res.requestId, /^[0-9a-f-]{36}$/);
    const bob = h.asUser("bob");
    await eventually("the notification in bob's inbox", async () => (await bob.listNotifications()).data.length === 1);
    const page = await bob.listNotifications();
    const n = page.data[0]!;
    assert.equal(n.title, "Welcome");
    assert.equal(n.message, "Hello");
    assert.deepEqual(n.data, { orderId: 42 });
    assert.equal(n.category?.identifier, "onboarding");
    assert.equal(page.unreadCount, 1);
    await eventually("the notification in alice's inbox", async () => (await inbox(h.asUser("alice"))).length === 1);

    const read = await bob.markRead(n.id);
    assert.ok(read.readAt);
    const unread = await bob.listNotifications({ filter: "unread" });
    assert.equal(unread.data.length, 0);
    assert.equal(unread.unreadCount, 0);
    assert.equal((await bob.setState(n.id, "archived")).state, "archived");
    assert.ok((await bob.click(n.id)).clickedAt);

    const profile = await bob.updateProfile({ plan: "pro" });
    assert.equal(profile.plan, "pro");
    assert.equal(profile.name, "Bob");
    assert.equal((await bob.mergeProfile({ plan: null, team: { size: 3 } })).plan, undefined);
    const prefs = await bob.preferences();
    const onboarding = prefs.find((p) => p.category.identifier === "onboarding");
    assert.ok(onboarding, JSON.stringify(prefs));
    await bob.updatePreferences({ preference: [{ categoryId: onboarding.category.id, channels: [{ channel: "inApp", enabled: false }] }] });
    const after = (await bob.preferences()).find((p) => p.category.id === onboarding.category.id)!;
    assert.equal(after.channelPreferences.find((c) => c.channel === "inApp")?.enabled, false);
    assert.equal((await bob.updateChannelPreferences({ sms: false })).sms, false);
    assert.deepEqual(await bob.workflowPreferences(), []);
    assert.ok((await bob.categories()).some((c) => c.identifier === "onboarding"));

    assert.equal(typeof (await bob.translations("de")).translations?.title, "string");
    assert.equal((await h.openapi()).openapi, "3.0.3");

    const device = await h.asUser("bob", { deviceId: "laptop-1" }).connectDevice("browser");
    assert.equal(device.unreadCount, 0);
    assert.ok(device.app.categories.some((c) => c.identifier === "onboarding"));

    await bob.deleteNotification(n.id);
    assert.equal((await bob.listNotifications()).data.length, 0);
    await h.deleteUser("bob");
    await assert.rejects(h.deleteUser("bob"), (e: unknown) => e instanceof APIError && e.status === 404);
  });

  it("sends to a topic's subscribers, cancels by key and lists schedules", async () => {
    const h = app();
    const topic = await h.createTopic({ identifier: "team", name: "Team" });
    assert.equal(await h.subscribeUsers(topic.id, ["frank", { identifier: "gina", channels: ["inApp"] }]), 2);
    assert.equal((await h.renameTopic(topic.id, "The team")).name, "The team");
    assert.equal((await h.updateSubscription(topic.id, "frank", ["inApp", "email"])).channels.length, 2);
    const subs = await h.listSubscriptions("gina");
    assert.deepEqual(subs.map((s) => s.topic.identifier), ["team"]);
    assert.ok((await h.listTopics()).some((t) => t.id === topic.id));
    await h.send({ notification: { title: "Standup" }, sendTo: { topics: ["team"] } });
    await eventually("the topic send in gina's inbox", async () => (await inbox(h.asUser("gina"))).some((n) => n.title === "Standup"));
    assert.equal(await h.unsubscribeUsers(topic.id, ["gina"]), 1);
    assert.deepEqual(await h.listSubscriptions("gina"), []);

    const cancelled = await h.cancelWorkflowRuns({ cancellationKey: "nothing-under-this-key" });
    assert.deepEqual(cancelled, { cancelled: 0, failed: 0 });
    assert.deepEqual(await h.listSchedules(), []);
    // A send in an hour waits and its workflow can be cancelled; the inbox stays empty.
    const later = await h.send({ notification: { title: "Later" }, sendTo: { recipients: ["hugo"] }, sendAt: new Date(Date.now() + 3_600_000) });
    assert.ok(later.requestId);
    await h.deleteTopic(topic.id);
  });

  it("delivers once when the first attempt's answer is lost to a connection reset", async () => {
    const proxy = new ResetProxy(url);
    const through = await proxy.listen();
    try {
      const res = await app({ baseUrl: through }).send({ notification: { title: "Once" }, sendTo: { recipients: ["carol"] } });
      assert.equal(proxy.connections, 2, "the reset connection and the retry's");
      const lost = await proxy.lost;
      assert.match(lost, /^HTTP\/1\.1 202/);
      assert.ok(lost.includes(res.requestId), `the retry answered ${res.requestId}, the lost answer was ${lost}: a second send`);
    } finally {
      await proxy.close();
    }
    // A later send is a marker: once it is there, the first is delivered and a duplicate would be beside it.
    const h = app();
    await h.send({ notification: { title: "Marker" }, sendTo: { recipients: ["carol"] } });
    const carol = h.asUser("carol");
    const titles = async () => (await inbox(carol)).map((n) => n.title);
    await eventually("both notifications in carol's inbox", async () => {
      const t = await titles();
      return t.includes("Once") && t.includes("Marker");
    });
    assert.deepEqual((await titles()).filter((t) => t === "Once"), ["Once"]);
  });

  it("surfaces every problem of a 400 and does not retry it", async () => {
    const rec = recording();
    const err = await app({ fetch: rec.fetch })
      .send({
        notification: { title: "x", url: "javascript:alert(1)" },
        sendTo: { recipients: [{ email: "no-identifier@example.com" } as unknown as { identifier: string }] },
      })
      .then(
        () => assert.fail("the send was accepted"),
        (e: unknown) => e,
      );
    assert.ok(err instanceof APIError, String(err));
    assert.equal(err.status, 400);
    assert.ok(err.problems.length >= 2, JSON.stringify(err.problems));
    assert.ok(err.problems.some((p) => p.includes("url")), JSON.stringify(err.problems));
    assert.ok(err.requestId, "the request id of the X-Request-Id header");
    assert.deepEqual(rec.statuses, [400]);
  });

  it("retries a 429 after its Retry-After", async () => {
    const rec = recording();
    const limited = app({
      baseUrl: need("HERALD_TEST_LIMITED_URL"),
      apiKey: need("HERALD_TEST_LIMITED_API_KEY"),
      apiSecret: need("HERALD_TEST_LIMITED_API_SECRET"),
      fetch: rec.fetch,
    });
    // Send until the limit (0.5/s, burst 1) answers 429 once; every send must still succeed.
    for (let i = 0; i < 5 && !rec.statuses.includes(429); i++) {
      await limited.send({ notification: { title: "x" }, sendTo: { recipients: ["dave"] } });
    }
    assert.ok(rec.statuses.includes(429), `statuses ${rec.statuses}`);
    assert.equal(rec.statuses.at(-1), 202, `statuses ${rec.statuses}`);
  });

  it("reads a user's inbox in secure mode with a token the SDK signs", async () => {
    const apiKey = need("HERALD_TEST_SECURE_API_KEY");
    const privateKey = need("HERALD_TEST_SECURE_PRIVATE_KEY");
    const h = app({ apiKey, apiSecret: need("HERALD_TEST_SECURE_API_SECRET") });
    await h.send({ notification: { title: "Secret" }, sendTo: { recipients: ["erin"] } });
    const token = await signUserToken({ privateKey, apiKey, user: "erin", expiresIn: 300 });
    const erin = h.asUser("erin", { token });
    await eventually("the notification in erin's inbox", async () => (await erin.listNotifications()).data.length === 1);
    // The signingKey option signs a fresh token per call.
    const signing = new Herald({ apiKey, signingKey: privateKey, tokenExpiresIn: 60 });
    assert.equal((await signing.asUser("erin").listNotifications()).data[0]?.title, "Secret");
    // Without a token, or with one signed by another key, the API refuses.
    const unauthorized = (e: unknown) => e instanceof APIError && e.status === 401;
    await assert.rejects(h.asUser("erin").listNotifications(), unauthorized);
    const forged = await signUserToken({ privateKey: need("HERALD_TEST_OTHER_PRIVATE_KEY"), apiKey, user: "erin", expiresIn: 60 });
    await assert.rejects(h.asUser("erin", { token: forged }).listNotifications(), unauthorized);
  });

  it("runs the README's quick start as written", async () => {
    const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
    const block = /## Quick start\n\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(block, "README.md has a Quick start ts block");
    // Inside the package, so that "@heraldhq/node" resolves to this build.
    const file = fileURLToPath(new URL("../quickstart.mjs", import.meta.url));
    writeFileSync(file, block);
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", env: process.env });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^accepted [0-9a-f-]{36}$/m);
  });

  it("reads a user's inbox with the deprecated HMAC signature where the app requires it", async () => {
    const apiKey = need("HERALD_TEST_HMAC_API_KEY");
    const apiSecret = need("HERALD_TEST_HMAC_API_SECRET");
    const h = app({ apiKey, apiSecret });
    await h.send({ notification: { title: "Signed" }, sendTo: { recipients: ["ivan"] } });
    const ivan = h.asUser("ivan", { signature: await userSignature(apiSecret, "ivan") });
    await eventually("the notification in ivan's inbox", async () => (await ivan.listNotifications()).data.length === 1);
    const unauthorized = (e: unknown) => e instanceof APIError && e.status === 401;
    await assert.rejects(h.asUser("ivan").listNotifications(), unauthorized);
    await assert.rejects(h.asUser("ivan", { signature: await userSignature(apiSecret, "judy") }).listNotifications(), unauthorized);
  });

  it("walks 250 notifications page by page", async () => {
    const rec = recording();
    const seen = new Set<number>();
    for await (const n of app({ fetch: rec.fetch }).asUser(need("HERALD_TEST_PAGER")).notifications()) {
      assert.ok(!seen.has(n.id), `notification ${n.id} walked twice`);
      seen.add(n.id);
    }
    assert.equal(seen.size, 250);
    assert.equal(rec.statuses.length, 13, "250 by 20");
  });
});
