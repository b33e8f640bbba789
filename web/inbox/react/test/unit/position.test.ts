// The popover's placement: under the bell end-aligned, flipped above without room below,
// shifted into the window at either edge.
import { test } from "node:test";
import assert from "node:assert/strict";
import { place } from "../../src/position.js";

const bell = (left: number, top: number) => ({ left, top, right: left + 40, bottom: top + 40 });

test("under the bell, end-aligned", () => {
  assert.deepEqual(place(bell(800, 10), 380, 400, 1200, 800, "bottom-end"), { x: 460, y: 58, placement: "bottom-end" });
});

test("a bell at the left edge keeps the popover on screen", () => {
  const p = place(bell(4, 10), 380, 400, 1200, 800, "bottom-end");
  assert.equal(p.x, 8);
  assert.equal(p.y, 58);
});

test("a bell at the right edge with start alignment shifts left", () => {
  const p = place(bell(1150, 10), 380, 400, 1200, 800, "bottom-start");
  assert.equal(p.x, 1200 - 8 - 380);
});

test("no room below: flips above", () => {
  assert.deepEqual(place(bell(4, 740), 380, 400, 1200, 800, "bottom-end"), { x: 8, y: 740 - 8 - 400, placement: "top-end" });
});

test("room on neither side: stays in the window", () => {
  const p = place(bell(100, 300), 380, 700, 1200, 720, "bottom-end");
  assert.ok(p.y >= 8 && p.y + 700 <= 720 - 8 + 1, `y=${p.y}`);
});

test("above is asked and has room", () => {
  assert.equal(place(bell(500, 700), 380, 300, 1200, 800, "top-start").placement, "top-start");
});
