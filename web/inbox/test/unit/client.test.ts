// The client against a scripted fetch: optimistic changes, their rollback when Herald
// answers an error, the token refresh of secure mode, and the realtime back-off.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HeraldClient, backoff, realtimeBackoff, type Notification } from "../../src/client.ts";

type Call = { method: string; url: URL; headers: Record<string, string>; body?: string };

function scripted(answers: (c: Call) => { status: number; body?: unknown }) {
  const calls: Call[] = [];
  globalThis.fetch = (async (input: URL, init: RequestInit) => {
    const c: Call = { method: init.method ?? "GET", url: new URL(input), headers: init.headers as Record<string, string>, body: init.body as string };
    calls.push(c);
    const a = answers(c);
    return new Response(a.body === undefined ? "" : JSON.stringify(a.body), { status: a.status });
  }) as typeof fetch;
  return calls;
}

const note = (id: number): Notification => ({ id, title: "n" + id, message: "", icon: "", url: "", blocks: [], data: {}, createdAt: "2025-01-01T00:00:00Z" });
const page = (items: Notification[], unread: number) => ({ status: 200, body: { unreadCount: unread, pagination: { totalCount: items.length }, data: items } });

async function started(answers: (c: Call) => { status: number; body?: unknown } | undefined) {
  const calls = scripted((c) => {
    const a = answers(c);
    if (a) return a;
    if (c.url.pathname === "/v3/sdk/connect") return { status: 200, body: { unreadCount: 2, app: { categories: [], channels: [] } } };
    if (c.url.pathname === "/v3/notifications" && c.method === "GET") return page([note(2), note(1)], 2);
    return { status: 200, body: {} };
  });
  const client = new HeraldClient({ apiKey: "k", userId: "alice", baseUrl: "https://herald.test/", realtime: false });
  await client.start();
  return { client, calls };
}

test("every call names the app in the apiKey query parameter and sends user headers", async () => {
  const { calls } = await started(() => undefined);
  for (const c of calls) {
    assert.equal(c.url.searchParams.get("apiKey"), "k");
    assert.equal(c.headers["X-SERVICE-API-KEY"], "k");
    assert.equal(c.headers["X-SERVICE-USER-ID"], "alice");
    assert.equal(c.headers["X-SERVICE-API-SECRET"], undefined);
  }
  assert.ok(calls.some((c) => c.url.pathname === "/v3/sdk/connect" && c.headers["X-SERVICE-DEVICE-ID"]));
});

test("mark read is optimistic and rolls back when Herald refuses", async () => {
  let fail = true;
  const { client } = await started((c) => (c.url.pathname.endsWith("/reads") ? (fail ? { status: 500, body: { message: "internal error" } } : { status: 200, body: {} }) : undefined));
  const counts: number[] = [];
  const errors: string[] = [];
  client.on("unreadCount", (n) => counts.push(n));
  client.on("error", (e) => errors.push(e.message));
  const p = client.markRead(2);
  assert.equal(client.state.unreadCount, 1, "the badge drops before the answer");
  assert.ok(client.state.notifications.find((n) => n.id === 2)?.readAt);
  await assert.rejects(p);
  assert.equal(client.state.unreadCount, 2, "rolled back");
  assert.equal(client.state.notifications.find((n) => n.id === 2)?.readAt, undefined);
  assert.deepEqual(counts, [1, 2]);
  assert.deepEqual(errors, ["internal error"]);
  fail = false;
  await client.markRead(2);
  assert.equal(client.state.unreadCount, 1);
});

test("delete and mark all read roll back on error", async () => {
  const { client } = await started((c) => (c.method === "DELETE" || c.url.pathname.endsWith("markAllNotificationsAsRead") ? { status: 404, body: { message: "notification not found" } } : undefined));
  await assert.rejects(client.delete(1), /not found/);
  assert.deepEqual(client.state.notifications.map((n) => n.id), [2, 1]);
  await assert.rejects(client.markAllRead());
  assert.equal(client.state.unreadCount, 2);
  assert.ok(client.state.notifications.every((n) => !n.readAt));
});

test("secure mode: a refused token is refreshed once through the callback", async () => {
  let refreshed = 0;
  const calls = scripted((c) => {
    if (c.headers.Authorization !== "Bearer fresh") return { status: 401, body: { message: "Invalid bearer token" } };
    return page([note(1)], 1);
  });
  const client = new HeraldClient({ apiKey: "k", userToken: "stale", refreshUserToken: async () => (refreshed++, "fresh"), baseUrl: "https://herald.test", realtime: false });
  await client.setView({ filter: "unread", category: null });
  assert.equal(refreshed, 1);
  assert.equal(client.state.notifications.length, 1);
  assert.equal(calls[0].headers["X-SERVICE-USER-ID"], undefined);
  assert.equal(calls.at(-1)?.url.searchParams.get("filter"), "unread");
});

test("realtime back-off grows exponentially, with jitter, up to the cap", () => {
  const mid = () => 0.5; // no jitter
  assert.equal(backoff(0, mid), realtimeBackoff.delay);
  assert.equal(backoff(1, mid), 2 * realtimeBackoff.delay);
  assert.equal(backoff(3, mid), 8 * realtimeBackoff.delay);
  assert.equal(backoff(20, mid), realtimeBackoff.delayMax);
  const low = backoff(2, () => 0), high = backoff(2, () => 0.999);
  assert.ok(low < 4 * realtimeBackoff.delay && high > 4 * realtimeBackoff.delay, `${low} ${high}`);
  assert.ok(backoff(30, () => 0.999) <= realtimeBackoff.delayMax);
});

test("after a reconnection the first page is read again: missed notifications appear", async () => {
  let items = [note(2), note(1)];
  const { client } = await started((c) => (c.url.pathname === "/v3/notifications" && c.method === "GET" ? page(items, items.length) : undefined));
  const seen: number[] = [];
  client.on("notification", (n) => seen.push(n.id));
  items = [note(4), note(3), ...items];
  await client.refresh();
  assert.deepEqual(client.state.notifications.map((n) => n.id), [4, 3, 2, 1]);
  assert.deepEqual(seen, [4, 3]);
  assert.equal(client.state.unreadCount, 4);
});

test("after a reconnection the list is page 1 again, and scrolling reads page 2 (not the page after the last one loaded)", async () => {
  let items = [6, 5, 4, 3, 2, 1].map(note);
  const pages: number[] = [];
  scripted((c) => {
    if (c.url.pathname === "/v3/sdk/connect") return { status: 200, body: { unreadCount: 0, app: { categories: [], channels: [] } } };
    const p = Number(c.url.searchParams.get("pageNo")), limit = Number(c.url.searchParams.get("limit"));
    pages.push(p);
    return { status: 200, body: { unreadCount: items.length, pagination: { totalCount: items.length }, data: items.slice((p - 1) * limit, p * limit) } };
  });
  const client = new HeraldClient({ apiKey: "k", userId: "alice", baseUrl: "https://herald.test", pageSize: 2, realtime: false });
  await client.start();
  await client.loadMore();
  await client.loadMore();
  assert.deepEqual(client.state.notifications.map((n) => n.id), [6, 5, 4, 3, 2, 1]);
  items = [note(7), ...items];
  await client.refresh();
  assert.deepEqual(client.state.notifications.map((n) => n.id), [7, 6]);
  assert.equal(client.state.hasMore, true);
  await client.loadMore();
  assert.equal(pages.at(-1), 2);
  assert.deepEqual(client.state.notifications.map((n) => n.id), [7, 6, 5, 4]);
});

test("a start overtaken by stop opens no realtime connection", async () => {
  scripted((c) => {
    if (c.url.pathname === "/v3/sdk/connect") return { status: 200, body: { unreadCount: 0, app: { categories: [], channels: [] } } };
    return page([], 0);
  });
  const client = new HeraldClient({ apiKey: "k", userId: "alice", baseUrl: "https://herald.test" });
  const started = client.start();
  client.stop();
  await started;
  const socket = (client as unknown as { socket?: { close(): void } }).socket;
  socket?.close();
  assert.equal(socket, undefined);
});

test("setState is optimistic, takes Herald's answer, and rolls back when refused", async () => {
  let fail = false;
  const { client, calls } = await started((c) =>
    c.url.pathname.endsWith("/state") ? (fail ? { status: 403, body: { message: "no" } } : { status: 200, body: { ...note(2), state: "approved", readAt: "2025-01-02T00:00:00Z" } }) : undefined,
  );
  client.on("error", () => {});
  const p = client.setState(2, "approved");
  assert.equal(client.state.notifications.find((n) => n.id === 2)?.state, "approved", "changed before the answer");
  const n = await p;
  assert.equal(n.state, "approved");
  assert.ok(client.state.notifications.find((x) => x.id === 2)?.readAt, "Herald's answer replaces the item");
  const put = calls.find((c) => c.method === "PUT" && c.url.pathname === "/v3/notifications/2/state");
  assert.equal(put?.body, JSON.stringify({ state: "approved" }));
  fail = true;
  await assert.rejects(client.setState(1, "rejected"));
  assert.equal(client.state.notifications.find((x) => x.id === 1)?.state, undefined, "rolled back");
});

test("snooze takes the item out of the list and the count at once, back when refused", async () => {
  let fail = true;
  const { client, calls } = await started((c) => (c.url.pathname.endsWith("/snooze") ? (fail ? { status: 404, body: { message: "no" } } : { status: 200, body: { id: 2, snoozedUntil: "2030-01-01T00:00:00.000Z" } }) : undefined));
  client.on("error", () => {});
  const until = new Date("2030-01-01T00:00:00Z");
  const p = client.snooze(2, until);
  assert.equal(client.state.notifications.some((n) => n.id === 2), false);
  assert.equal(client.state.unreadCount, 1);
  await assert.rejects(p);
  assert.equal(client.state.notifications.some((n) => n.id === 2), true, "back after the refusal");
  assert.equal(client.state.unreadCount, 2);
  fail = false;
  await client.snooze(2, until);
  assert.equal(client.state.notifications.some((n) => n.id === 2), false);
  assert.equal(calls.filter((c) => c.method === "PUT" && c.url.pathname === "/v3/notifications/2/snooze").at(-1)?.body, JSON.stringify({ until: "2030-01-01T00:00:00.000Z" }));
});

test("a notification that arrives while the first page is being read again is not lost to that page", async () => {
  const { client } = await started(() => undefined);
  // The page on its way was read before notification 3 existed; the next one has it.
  let reads = 0;
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  globalThis.fetch = (async (input: URL) => {
    const url = new URL(input);
    if (url.pathname === "/v3/notifications") {
      reads++;
      if (reads === 1) {
        await held;
        const p = page([note(2), note(1)], 2);
        return new Response(JSON.stringify(p.body), { status: 200 });
      }
      const p = page([note(3), note(2), note(1)], 3);
      return new Response(JSON.stringify(p.body), { status: 200 });
    }
    return new Response("{}", { status: 200 });
  }) as typeof fetch;
  const refreshed = client.refresh();
  (client as unknown as { handleEvent(name: string, data: unknown): void }).handleEvent("NEW_NOTIFICATION", { notification: note(3) });
  assert.equal(client.state.unreadCount, 3, "the event counts at once");
  release();
  await refreshed;
  assert.equal(reads, 2, "the page is read again");
  assert.equal(client.state.unreadCount, 3, "the stale page did not take the count back");
  assert.deepEqual(client.state.notifications.map((n) => n.id), [3, 2, 1]);
});
