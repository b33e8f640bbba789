// The recurring schedule form's preview: words and the next runs in the schedule's zone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeCron } from "../../src/screens/ops/cron.ts";

test("weekday mornings in Berlin: words and five next runs at 09:00 Berlin time", async () => {
  const p = await describeCron("0 9 * * MON-FRI", "Europe/Berlin", 5, new Date("2026-11-20T12:00:00Z"));
  assert.ok("next" in p, JSON.stringify(p));
  assert.match(p.words, /09:00/);
  assert.match(p.words, /Monday through Friday/);
  assert.deepEqual(
    p.next.map((d) => d.toISOString()),
    ["2026-11-23T08:00:00.000Z", "2026-11-24T08:00:00.000Z", "2026-11-25T08:00:00.000Z", "2026-11-26T08:00:00.000Z", "2026-11-27T08:00:00.000Z"],
  );
});

test("a bad expression is an error, not a preview", async () => {
  assert.ok("error" in (await describeCron("0 9 * *", "UTC")));
  assert.ok("error" in (await describeCron("61 9 * * *", "UTC")));
});

test("an unknown time zone is named as the zone's problem", async () => {
  const p = await describeCron("0 9 * * *", "Mars/Base");
  assert.ok("error" in p && p.field === "timezone", JSON.stringify(p));
  const q = await describeCron("0 9 * *", "UTC");
  assert.ok("error" in q && q.field === "cron", JSON.stringify(q));
});
