import { test } from "node:test";
import assert from "node:assert/strict";
import { InboxStore, unwrapNotification, type Notification } from "../../src/state.ts";

const n = (id: number, extra: Partial<Notification> = {}): Notification => ({
  id,
  title: "t" + id,
  message: "",
  icon: "",
  url: "",
  blocks: [],
  data: {},
  createdAt: new Date(2025, 0, 1, 0, 0, id).toISOString(),
  ...extra,
});

test("NEW_NOTIFICATION payloads: wrapped and bare", () => {
  assert.equal(unwrapNotification({ notification: n(7) })?.id, 7);
  assert.equal(unwrapNotification(n(8))?.id, 8);
  assert.equal(unwrapNotification({ foo: 1 }), null);
  assert.equal(unwrapNotification(null), null);
});

test("a new notification goes on top and counts once", () => {
  const s = new InboxStore();
  s.page(1, [n(2), n(1)], false, 2);
  assert.ok(s.added(n(3)));
  assert.ok(!s.added(n(3)), "a repeated event is ignored");
  assert.deepEqual(s.state.notifications.map((x) => x.id), [3, 2, 1]);
  assert.equal(s.state.unreadCount, 3);
  s.added(n(4, { readAt: "2025-01-01T00:00:00Z" }));
  assert.equal(s.state.unreadCount, 3, "an already read notification does not count");
});

test("views filter what arrives", () => {
  const s = new InboxStore();
  s.setView({ filter: "all", category: "billing" });
  s.page(1, [], false, 0);
  s.added(n(1, { category: { id: 1, identifier: "news", name: "News" } }));
  s.added(n(2, { category: { id: 2, identifier: "billing", name: "Billing" } }));
  assert.deepEqual(s.state.notifications.map((x) => x.id), [2]);
  assert.equal(s.state.unreadCount, 2, "the badge counts every category");
});

test("update and its undo restore the item and the count", () => {
  const s = new InboxStore();
  s.page(1, [n(2), n(1)], false, 2);
  const undo = s.update(2, (x) => ({ ...x, readAt: "now" }))!;
  assert.equal(s.state.unreadCount, 1);
  assert.equal(s.find(2)?.readAt, "now");
  undo();
  assert.equal(s.state.unreadCount, 2);
  assert.equal(s.find(2)?.readAt, undefined);
  assert.equal(s.update(99, (x) => x), undefined, "unknown ids change nothing");
});

test("remove and its undo put the item back in order", () => {
  const s = new InboxStore();
  s.page(1, [n(3), n(2), n(1)], false, 3);
  const undo = s.remove(2)!;
  assert.deepEqual(s.state.notifications.map((x) => x.id), [3, 1]);
  assert.equal(s.state.unreadCount, 2);
  undo();
  assert.deepEqual(s.state.notifications.map((x) => x.id), [3, 2, 1]);
  assert.equal(s.state.unreadCount, 3);
});

test("page 1 keeps newer realtime arrivals, later pages append without duplicates", () => {
  const s = new InboxStore();
  s.page(1, [n(5), n(4)], true, 4);
  assert.ok(s.state.hasMore);
  s.added(n(6));
  s.page(2, [n(4), n(3)], false, 5);
  assert.deepEqual(s.state.notifications.map((x) => x.id), [6, 5, 4, 3]);
  s.page(1, [n(5), n(4)], false, 5);
  assert.deepEqual(s.state.notifications.map((x) => x.id), [6, 5, 4]);
});

test("archived notifications stay out of the list", () => {
  const s = new InboxStore();
  s.page(1, [n(2, { state: "archived" }), n(1)], false, 1);
  assert.deepEqual(s.state.notifications.map((x) => x.id), [1]);
  assert.ok(!s.added(n(3, { state: "archived" })));
});

test("all read and all deleted, with undo", () => {
  const s = new InboxStore();
  s.page(1, [n(2), n(1)], false, 2);
  const undo = s.allRead("now");
  assert.equal(s.state.unreadCount, 0);
  assert.ok(s.state.notifications.every((x) => x.readAt === "now"));
  undo();
  assert.equal(s.state.unreadCount, 2);
  s.allDeleted();
  assert.equal(s.state.notifications.length, 0);
  assert.equal(s.state.unreadCount, 0);
});
