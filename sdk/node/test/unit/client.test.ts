import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { APIError, ConnectionError, Herald, HeraldError, type HeraldOptions } from "@heraldhq/node";
import { hang, json, reset, serve, type Scripted } from "./server.js";

let srv: Scripted | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const fast = { baseDelayMs: 1, maxDelayMs: 5 };
function client(url: string, o: HeraldOptions = {}): Herald {
  return new Herald({ baseUrl: url, apiKey: "key", apiSecret: "secret", retry: fast, ...o });
}
const hello = { notification: { title: "Hi" }, sendTo: { recipients: ["alice"] } };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("configuration", () => {
  it("reads HERALD_URL, HERALD_API_KEY and HERALD_API_SECRET", async () => {
    srv = await serve(json(202, { requestId: "r1" }));
    const saved = { ...process.env };
    try {
      process.env.HERALD_URL = srv.url + "/v3/";
      process.env.HERALD_API_KEY = "env-key";
      process.env.HERALD_API_SECRET = "env-secret";
      const h = new Herald();
      assert.equal(h.baseUrl, srv.url);
      assert.deepEqual(await h.send(hello), { requestId: "r1" });
      assert.equal(srv.seen[0]!.url, "/v3/notifications");
      assert.equal(srv.seen[0]!.headers["x-service-api-key"], "env-key");
      assert.equal(srv.seen[0]!.headers["x-service-api-secret"], "env-secret");
    } finally {
      process.env = saved;
    }
  });

  it("prefers arguments, needs an API key and an absolute URL", () => {
    const saved = { ...process.env };
    try {
      delete process.env.HERALD_API_KEY;
      process.env.HERALD_URL = "http://env.example";
      assert.throws(() => new Herald(), HeraldError);
      assert.equal(new Herald({ apiKey: "k", baseUrl: "https://api.example/" }).baseUrl, "https://api.example");
      assert.throws(() => new Herald({ apiKey: "k", baseUrl: "api.example" }), /absolute/);
      assert.throws(() => new Herald({ apiKey: "k", baseUrl: "ftp://api.example" }), /http/);
    } finally {
      process.env = saved;
    }
  });

  it("uses the header prefix and a custom fetch", async () => {
    const calls: string[] = [];
    const h = new Herald({
      baseUrl: "http://nowhere.invalid",
      apiKey: "k",
      apiSecret: "s",
      headerPrefix: "X-ACME-",
      fetch: async (url, init) => {
        calls.push(`${init.method} ${url} ${JSON.stringify(init.headers)}`);
        return new Response(JSON.stringify({ requestId: "x" }), { status: 202 });
      },
    });
    await h.send(hello);
    assert.equal(calls.length, 1);
    assert.match(calls[0]!, /^POST http:\/\/nowhere\.invalid\/v3\/notifications /);
    assert.match(calls[0]!, /"X-ACME-API-KEY":"k"/);
    assert.match(calls[0]!, /"X-ACME-API-SECRET":"s"/);
  });

  it("sends user mode without the secret", async () => {
    srv = await serve(json(200, { unreadCount: 0, pagination: { totalCount: 0 }, data: [] }));
    await client(srv.url).asUser("a/b", { deviceId: "d1", signature: "sig" }).listNotifications({ filter: "unread", limit: 5 });
    const s = srv.seen[0]!;
    assert.equal(s.url, "/v3/notifications?limit=5&filter=unread");
    assert.equal(s.headers["x-service-user-id"], "a/b");
    assert.equal(s.headers["x-service-device-id"], "d1");
    assert.equal(s.headers["x-service-user-signature"], "sig");
    assert.equal(s.headers["x-service-api-secret"], undefined);
  });

  it("escapes path segments", async () => {
    srv = await serve(json(200, { identifier: "a/b?c", profile: {}, createdAt: "", updatedAt: "" }));
    await client(srv.url).putUser("a/b?c", { name: "A" });
    assert.equal(srv.seen[0]!.url, "/v3/users/a%2Fb%3Fc");
    assert.deepEqual(JSON.parse(srv.seen[0]!.body), { name: "A" });
  });
});

describe("sends and retries", () => {
  it("generates one Idempotency-Key per send, kept across its retries", async () => {
    srv = await serve(json(503, { status: "error", message: "down", requestId: "q" }), reset, json(202, { requestId: "r" }));
    const res = await client(srv.url).send(hello);
    assert.equal(res.requestId, "r");
    const keys = srv.seen.map((s) => s.headers["idempotency-key"]);
    assert.equal(keys.length, 3);
    assert.match(String(keys[0]), uuid);
    assert.ok(keys.every((k) => k === keys[0]), `keys ${keys.join(",")}`);
    await client(srv.url).send(hello);
    assert.notEqual(srv.seen[3]!.headers["idempotency-key"], keys[0], "a second send has its own key");
  });

  it("sends the given Idempotency-Key and a Date sendAt as ISO 8601", async () => {
    srv = await serve(json(202, { requestId: "r" }));
    const at = new Date("2030-01-02T03:04:05Z");
    await client(srv.url).send({ ...hello, sendAt: at }, { idempotencyKey: "order-1" });
    assert.equal(srv.seen[0]!.headers["idempotency-key"], "order-1");
    assert.equal(JSON.parse(srv.seen[0]!.body).sendAt, "2030-01-02T03:04:05.000Z");
  });

  it("does not retry a 400 and lists its problems", async () => {
    srv = await serve(json(400, { status: "error", message: ["title must be a string", "url is not allowed"] }));
    const err = await client(srv.url).send(hello).then(
      () => assert.fail("no error"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof APIError);
    assert.equal(err.status, 400);
    assert.deepEqual(err.problems, ["title must be a string", "url is not allowed"]);
    assert.equal(err.temporary, false);
    assert.match(err.message, /400 title must be a string; url is not allowed/);
    assert.equal(err.requestId, undefined);
    assert.equal(srv.seen.length, 1);
  });

  it("carries the request id of a 5xx after the retries", async () => {
    srv = await serve(json(500, { status: "error", message: "internal error", requestId: "req-9" }));
    const err = (await client(srv.url, { retry: { ...fast, maxRetries: 2 } }).send(hello).catch((e: unknown) => e)) as APIError;
    assert.ok(err instanceof APIError);
    assert.equal(err.requestId, "req-9");
    assert.match(err.message, /request id req-9/);
    assert.equal(srv.seen.length, 3);
  });

  it("takes the request id from X-Request-Id when the body has none", async () => {
    srv = await serve(json(404, { status: "error", message: "not found" }, { "X-Request-Id": "hdr-1" }));
    const err = (await client(srv.url).deleteUser("ghost").catch((e: unknown) => e)) as APIError;
    assert.equal(err.status, 404);
    assert.equal(err.requestId, "hdr-1");
    assert.equal(err.problems.length, 0);
    assert.equal(srv.seen.length, 1, "a 404 is not retried");
  });

  it("retries 429 after Retry-After, for any call", async () => {
    srv = await serve(json(429, { status: "error", message: "slow down" }, { "Retry-After": "1" }), json(200, { identifier: "u", profile: {}, createdAt: "", updatedAt: "" }));
    const t0 = Date.now();
    await client(srv.url).createUser({ identifier: "u" });
    assert.ok(Date.now() - t0 >= 950, "waited for Retry-After");
    assert.equal(srv.seen.length, 2);
  });

  it("throws a 429 whose Retry-After is beyond maxRetryAfterMs at once", async () => {
    srv = await serve(json(429, { status: "error", message: "slow down" }, { "Retry-After": "3600" }));
    const err = (await client(srv.url).send(hello).catch((e: unknown) => e)) as APIError;
    assert.equal(err.status, 429);
    assert.equal(err.retryAfterMs, 3_600_000);
    assert.equal(srv.seen.length, 1);
  });

  it("does not retry a 5xx or a reset of a call that is not idempotent", async () => {
    srv = await serve(json(502, { status: "error", message: "bad gateway" }));
    await assert.rejects(client(srv.url).createUser({ identifier: "u" }), APIError);
    assert.equal(srv.seen.length, 1);
    await srv.close();
    srv = await serve(reset);
    await assert.rejects(client(srv.url).createTopic({ identifier: "t", name: "T" }), ConnectionError);
    assert.equal(srv.seen.length, 1);
  });

  it("retries a GET that timed out", async () => {
    srv = await serve(hang, json(200, []));
    assert.deepEqual(await client(srv.url, { timeoutMs: 200 }).listTopics(), []);
    assert.equal(srv.seen.length, 2);
  });

  it("reports a timeout as a ConnectionError once the retries are spent", async () => {
    srv = await serve(hang);
    const err = (await client(srv.url, { timeoutMs: 100, retry: false }).listTopics().catch((e: unknown) => e)) as ConnectionError;
    assert.ok(err instanceof ConnectionError);
    assert.equal(err.timedOut, true);
  });

  it("stops at the caller's abort", async () => {
    srv = await serve(hang);
    const ctl = new AbortController();
    const p = client(srv.url).listTopics({ signal: ctl.signal });
    setTimeout(() => ctl.abort(new Error("caller gave up")), 50);
    await assert.rejects(p, /caller gave up/);
  });
});

describe("user mode", () => {
  it("walks every page of the inbox", async () => {
    const total = 45;
    srv = await serve((req, res) => {
      const u = new URL(req.url, "http://x");
      const page = Number(u.searchParams.get("pageNo"));
      const limit = Number(u.searchParams.get("limit"));
      const data = [];
      for (let i = (page - 1) * limit; i < Math.min(total, page * limit); i++) data.push({ id: i + 1, title: `n${i}` });
      json(200, { unreadCount: total, pagination: { totalCount: total, pageNo: page, limit }, data })(req, res);
    });
    const ids: number[] = [];
    for await (const n of client(srv.url).asUser("u").notifications()) ids.push(n.id);
    assert.equal(ids.length, total);
    assert.equal(new Set(ids).size, total);
    assert.deepEqual(
      srv.seen.map((s) => s.url),
      ["/v3/notifications?pageNo=1&limit=20", "/v3/notifications?pageNo=2&limit=20", "/v3/notifications?pageNo=3&limit=20"],
    );
  });

  it("maps every state change to its route", async () => {
    srv = await serve(json(200, { id: 7 }));
    const u = client(srv.url).asUser("u");
    await u.markSeen(7);
    await u.markUnseen(7);
    await u.markRead(7);
    await u.markUnread(7);
    await u.click(7);
    await u.setState(7, "archived");
    await u.markAllSeen({ page: 1, limit: 20 });
    await u.markAllRead();
    await u.deleteAll();
    await u.deleteNotification(7);
    assert.deepEqual(
      srv.seen.map((s) => `${s.method} ${s.url}`),
      [
        "POST /v3/notifications/7/views",
        "DELETE /v3/notifications/7/views",
        "POST /v3/notifications/7/reads",
        "DELETE /v3/notifications/7/reads",
        "POST /v3/notifications/7/click",
        "PUT /v3/notifications/7/state",
        "POST /v3/notifications/markAllNotificationsAsSeen?page=1&limit=20",
        "POST /v3/notifications/markAllNotificationsAsRead",
        "POST /v3/notifications/markAllNotificationsAsDeleted",
        "DELETE /v3/notifications/7",
      ],
    );
    assert.deepEqual(JSON.parse(srv.seen[5]!.body), { state: "archived" });
  });
});
