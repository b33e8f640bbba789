// Actionable notifications in <herald-inbox> (issue 32, items 2–4): blocks, state buttons
// seen in a second tab, snooze and its return, unsafe button links, keyboard-only use. On a
// customer page of another origin, in Chromium, against a real Herald (API, worker, relay).
// Any console error fails the test.
import { test as base, expect, type Page, type APIRequestContext } from "@playwright/test";

const herald = process.env.HERALD_URL!;
const pageURL = process.env.PAGE_URL!;
const app = { key: process.env.HERALD_API_KEY!, secret: process.env.HERALD_API_SECRET! };

const test = base.extend<{ consoleErrors: { allowNetworkErrors: boolean } }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const state = { allowNetworkErrors: false };
      page.on("console", (m) => {
        if (m.type() !== "error") return;
        if (state.allowNetworkErrors && /ERR_FAILED|Failed to fetch/.test(m.text())) return;
        errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      await use(state);
      expect(errors, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});

let seq = 0;
const newUser = (name: string) => `${name}-${Date.now().toString(36)}-${seq++}`;
const appHeaders = { "X-SERVICE-API-KEY": app.key, "X-SERVICE-API-SECRET": app.secret };

async function send(request: APIRequestContext, user: string, notification: Record<string, unknown>) {
  const res = await request.post(`${herald}/v3/notifications`, { headers: appHeaders, data: { notification, sendTo: { recipients: [user] } } });
  expect(res.status(), await res.text()).toBe(202);
}

async function serverInbox(request: APIRequestContext, user: string) {
  const res = await request.get(`${herald}/v3/notifications?userIdentifier=${encodeURIComponent(user)}&limit=20`, { headers: appHeaders });
  expect(res.status()).toBe(200);
  return (await res.json()) as { unreadCount: number; data: { id: number; title: string; state: string | null; readAt: string | null }[] };
}

async function openInbox(page: Page, user: string, extra = "") {
  await page.goto(`${pageURL}/inbox.html?user=${encodeURIComponent(user)}${extra}`);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toBeVisible();
  await page.waitForFunction(() => (document.querySelector("herald-inbox") as any)?.client?.state.connection === "online");
  return bell;
}

/** An approval request: who asks, what, Approve / Reject / a link, and what each answer shows. */
const approval = (title: string) => ({
  title,
  message: "Team lunch, $84.20",
  blocks: [
    { type: "avatar", name: "Sam Rivera", text: "asks for your approval" },
    { type: "text", text: "**$84.20** for *team lunch* on `ACME-42`. [Policy](https://example.com/policy)" },
    {
      type: "buttons",
      exceptStates: ["approved", "rejected"],
      buttons: [
        { label: "Approve", style: "primary", state: "approved" },
        { label: "Reject", style: "secondary", state: "rejected" },
        { label: "Open report", style: "secondary", url: `${pageURL}/landing/report` },
      ],
    },
    { type: "text", states: ["approved"], text: "✓ **Approved** by you" },
    { type: "text", states: ["rejected"], text: "Rejected by you" },
  ],
});

test("an approval answered with a button (keyboard only); its new state shows in a second tab", async ({ page, context, request }) => {
  const user = newUser("ada");
  await send(request, user, approval("Expense report"));
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(1);
  const other = await context.newPage();
  const otherErrors: string[] = [];
  other.on("console", (m) => m.type() === "error" && otherErrors.push(m.text()));
  for (const p of [page, other]) {
    const bell = await openInbox(p, user);
    await bell.click();
  }
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  const otherDialog = other.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByText("asks for your approval")).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Policy" })).toHaveAttribute("href", "https://example.com/policy");
  await page.evaluate(() => {
    document.querySelector("herald-inbox")!.addEventListener("herald-state", (e) => {
      const d = (e as CustomEvent).detail;
      (window as any).stateEvent = `${d.previous}->${d.state}:${d.notification.state}`;
    });
  });
  // Keyboard only: from the item, Tab reaches the text's link, then Approve; Enter answers.
  await dialog.getByRole("button", { name: /^Expense report/ }).focus();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("link", { name: "Policy" })).toBeFocused();
  await page.keyboard.press("Tab");
  const approve = dialog.getByRole("button", { name: "Approve" });
  await expect(approve).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByText("Approved by you")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => (window as any).stateEvent)).toBe("null->approved:approved");
  await expect.poll(async () => (await serverInbox(request, user)).data[0].state).toBe("approved");
  // The second tab follows over realtime.
  await expect(otherDialog.getByText("Approved by you")).toBeVisible();
  await expect(otherDialog.getByRole("button", { name: "Reject" })).toHaveCount(0);
  expect(otherErrors).toEqual([]);
});

test("a refused state change rolls back", async ({ page, request, consoleErrors }) => {
  const user = newUser("bo");
  await send(request, user, approval("Refused approval"));
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(1);
  const bell = await openInbox(page, user);
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  consoleErrors.allowNetworkErrors = true;
  await page.route(/\/v3\/notifications\/\d+\/state/, (route) => route.abort());
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog.getByRole("button", { name: "Approve" })).toBeVisible();
  await expect(dialog.getByText("Approved by you")).toHaveCount(0);
  expect((await serverInbox(request, user)).data[0].state).toBeNull();
});

test("a javascript: url in a button is refused at send, and not shown when it reaches the widget from the database", async ({ page, request }) => {
  const user = newUser("mal");
  const res = await request.post(`${herald}/v3/notifications`, {
    headers: appHeaders,
    data: { notification: { title: "t", blocks: [{ type: "buttons", buttons: [{ label: "Evil", url: "javascript:alert(1)" }] }, { type: "image", url: "http://x.example/a.png" }] }, sendTo: { recipients: [user] } },
  });
  expect(res.status()).toBe(400);
  const body = await res.json();
  expect(body.message).toEqual([
    "notification.blocks[0].buttons[0].url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
    "notification.blocks[1].url must be an https URL",
    "notification.blocks[1].alt is required",
  ]);
  // A row written straight into the database (an older Herald, or by hand).
  const blocks = JSON.stringify([
    { type: "buttons", buttons: [{ label: "Evil", url: "javascript:window.pwned=1" }, { label: "Fine", url: `${pageURL}/landing/fine` }] },
    { type: "text", text: "[evil link](javascript:window.pwned=2) stays text" },
    { type: "image", url: "http://insecure.example/a.png", alt: "insecure" },
  ]);
  const row = await request.post(`${pageURL}/old-inbox-row?user=${encodeURIComponent(user)}&title=Old+blocks&url=&blocks=${encodeURIComponent(blocks)}`);
  expect(row.status(), await row.text()).toBe(200);
  const bell = await openInbox(page, user);
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("link", { name: "Fine" })).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Evil" })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Evil" })).toHaveCount(0);
  await expect(dialog.getByText("evil link stays text")).toBeVisible();
  await expect(dialog.getByRole("link", { name: "evil link" })).toHaveCount(0);
  await expect(dialog.getByRole("img", { name: "insecure" })).toHaveCount(0);
  expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined();
});

test("snooze with the keyboard: the item leaves the list and the count in every tab, and comes back unread", async ({ page, context, request }) => {
  const user = newUser("cy");
  await send(request, user, { title: "Call the bank", message: "before noon" });
  await send(request, user, { title: "Stays here", message: "not snoozed" });
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(2);
  // A second tab of the same user follows over realtime.
  const other = await context.newPage();
  const otherBell = await openInbox(other, user);
  await otherBell.click();
  const otherDialog = other.getByRole("dialog", { name: "Notifications" });
  await expect(otherDialog.getByRole("button", { name: /^Call the bank/ })).toBeVisible();
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  await bell.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await page.evaluate(() => {
    document.querySelector("herald-inbox")!.addEventListener("herald-snooze", (e) => ((window as any).snoozedId = (e as CustomEvent).detail.notification.id));
  });
  const toggle = dialog.getByRole("button", { name: "Snooze: Call the bank" });
  await toggle.focus();
  // Escape closes the menu (not the popover) and gives the focus back.
  await page.keyboard.press("Enter");
  const menu = dialog.getByRole("menu", { name: "Snooze: Call the bank" });
  await expect(menu.getByRole("menuitem", { name: /^In 1 hour/ })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await expect(dialog).toBeVisible();
  // Custom time: ArrowUp wraps to the last item.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowUp");
  await expect(menu.getByRole("menuitem", { name: "Custom time…" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Until")).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(toggle).toBeFocused();
  // Tomorrow morning, by the arrow keys.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: /^Tomorrow morning/ })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: /^Call the bank/ })).toHaveCount(0);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(otherDialog.getByRole("button", { name: /^Call the bank/ })).toHaveCount(0);
  await expect(otherBell).toHaveAccessibleName("Notifications, 1 unread");
  await expect.poll(async () => (await serverInbox(request, user)).data.map((n) => n.title)).toEqual(["Stays here"]);
  // Its time comes (moved to now on the server): the relay's waker brings it back, unread,
  // pushed over realtime.
  // herald-snooze fires once the client has Herald's answer, which can come after the server
  // state the poll above saw.
  await expect.poll(() => page.evaluate(() => (window as any).snoozedId as number | undefined)).toBeGreaterThan(0);
  const snoozedId = await page.evaluate(() => (window as any).snoozedId as number);
  const res = await request.get(`${pageURL}/snooze-due?id=${snoozedId}`);
  expect(res.status(), await res.text()).toBe(200);
  await expect(dialog.getByRole("button", { name: /^Call the bank/ })).toBeVisible({ timeout: 20_000 });
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  await expect(otherDialog.getByRole("button", { name: /^Call the bank/ })).toBeVisible();
  await expect(otherBell).toHaveAccessibleName("Notifications, 2 unread");
  const back = (await serverInbox(request, user)).data.find((n) => n.title === "Call the bank");
  expect(back?.readAt).toBeNull();
});

// Screenshots for docs/inbox-widget.md (light and dark): blocks and the snooze menu.
for (const theme of ["light", "dark"]) {
  test(`screenshot: actions ${theme}`, async ({ page, request }) => {
    const user = newUser("dee");
    await send(request, user, { title: "Deploy finished", message: "api v2.3.1 is live", blocks: [{ type: "text", text: "All **42** checks passed." }] });
    await send(request, user, approval("Expense report"));
    await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(2);
    const bell = await openInbox(page, user, `&theme=${theme}`);
    await bell.click();
    const dialog = page.getByRole("dialog", { name: "Notifications" });
    await expect(dialog.getByRole("button", { name: "Approve" })).toBeVisible();
    const dir = process.env.HERALD_WIDGET_SCREENSHOTS;
    if (dir) await page.screenshot({ path: `${dir}/inbox-actions-${theme}.png`, clip: { x: 420, y: 0, width: 480, height: 600 } });
    await dialog.getByRole("button", { name: "Snooze: Deploy finished" }).click();
    await expect(dialog.getByRole("menuitem", { name: /^Next week/ })).toBeVisible();
    if (dir) await page.screenshot({ path: `${dir}/inbox-snooze-${theme}.png`, clip: { x: 420, y: 0, width: 480, height: 600 } });
  });
}

test("an inbox of 1,000 notifications opens on its first page; scrolling loads more, with a loading state", async ({ page, request }) => {
  const user = newUser("max");
  const row = await request.post(`${pageURL}/old-inbox-row?user=${encodeURIComponent(user)}&title=Bulk&url=&n=1000`);
  expect(row.status(), await row.text()).toBe(200);
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 1000 unread");
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  const items = dialog.getByRole("listitem");
  await expect(items).toHaveCount(15); // one page, not a thousand rows
  // Slow the next page down so its loading state can be seen.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/v3\/notifications\?pageNo=2/, async (route) => {
    await held;
    await route.continue();
  });
  await dialog.getByRole("tabpanel").evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(dialog.getByRole("status").filter({ hasText: "Loading…" })).toBeVisible();
  release();
  await expect(items).toHaveCount(30);
  // The keyboard way: the button after the list.
  await dialog.getByRole("button", { name: "Show more" }).focus();
  await page.keyboard.press("Enter");
  await expect(items).toHaveCount(45);
});
