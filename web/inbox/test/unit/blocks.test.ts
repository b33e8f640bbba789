import { test } from "node:test";
import assert from "node:assert/strict";
import { visible, httpsOnly, markdown } from "../../src/blocks.js";
import { presets, localValue } from "../../src/snooze-menu.js";

test("a block shows for the states it names, and hides for exceptStates", () => {
  const pending = { type: "buttons", exceptStates: ["approved", "rejected"] };
  const done = { type: "text", states: ["approved"] };
  assert.equal(visible(pending, null), true);
  assert.equal(visible(pending, "approved"), false);
  assert.equal(visible(done, null), false);
  assert.equal(visible(done, "approved"), true);
  assert.equal(visible({ type: "text" }, "anything"), true);
});

test("images load over https only", () => {
  assert.equal(httpsOnly("https://cdn.example/a.png"), true);
  for (const u of ["http://cdn.example/a.png", "javascript:alert(1)", "//cdn.example/a.png", "data:image/png;base64,AA", "", undefined]) {
    assert.equal(httpsOnly(u), false, String(u));
  }
});

test("the markdown subset keeps text as text and refuses unsafe links", () => {
  const parts = markdown("**Bold** and _it_ `c` [ok](https://x.example) [bad](javascript:alert(1)) <b>raw</b>");
  const strings = parts.filter((p) => typeof p === "string");
  assert.ok(strings.includes("bad"), "an unsafe link is shown as its label");
  assert.ok(strings.some((s) => (s as string).includes("<b>raw</b>")), "markup stays text");
  assert.equal(parts.filter((p) => typeof p !== "string").length, 4, "bold, italic, code, one link");
});

test("snooze presets: in an hour, tomorrow 9:00, next Monday 9:00", () => {
  const wed = new Date(2026, 10, 25, 15, 30); // a Wednesday
  const [hour, tomorrow, week] = presets(wed);
  assert.equal(hour!.at.getTime() - wed.getTime(), 3600_000);
  assert.equal(localValue(tomorrow!.at), "2026-11-26T09:00");
  assert.equal(localValue(week!.at), "2026-11-30T09:00");
  const mon = new Date(2026, 10, 30, 8, 0);
  assert.equal(localValue(presets(mon)[2]!.at), "2026-12-07T09:00");
});
