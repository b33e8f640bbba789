// The React package in Chromium: the example app (React 19 and React 18, StrictMode,
// development builds) on another origin than a real Herald. Elements are found by role and
// accessible name; any console error (React's warnings included) fails the test.
import { test as base, expect, type Page, type APIRequestContext } from "@playwright/test";

const herald = process.env.HERALD_URL!;
const pageURL = process.env.PAGE_URL!;
const app = { key: process.env.HERALD_API_KEY!, secret: process.env.HERALD_API_SECRET! };
const shots = process.env.HERALD_REACT_SCREENSHOTS;

const test = base.extend<{ consoleErrors: void }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      await use();
      expect(errors, "browser console errors").toEqual([]);
    },
    { auto: true },
  ],
});

let seq = 0;
const newUser = (name: string) => `${name}-${Date.now().toString(36)}-${seq++}`;

async function send(request: APIRequestContext, user: string, notification: Record<string, unknown>) {
  const res = await request.post(`${herald}/v3/notifications`, {
    headers: { "X-SERVICE-API-KEY": app.key, "X-SERVICE-API-SECRET": app.secret },
    data: { notification, category: notification.category, sendTo: { recipients: [user] } },
  });
  expect(res.status(), await res.text()).toBe(202);
}

async function serverInbox(request: APIRequestContext, user: string) {
  const res = await request.get(`${herald}/v3/notifications?userIdentifier=${encodeURIComponent(user)}&limit=20`, {
    headers: { "X-SERVICE-API-KEY": app.key, "X-SERVICE-API-SECRET": app.secret },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { unreadCount: number; data: { id: number; title: string; readAt?: string | null }[] };
}

/** Socket.IO connections open on Herald right now (its realtime hub's count). */
async function serverConnections(request: APIRequestContext): Promise<number> {
  return Number(await (await request.get(`${pageURL}/realtime-connections`)).text());
}

/** Opens the example app (React 19 or 18) and waits for its realtime connection. */
async function openApp(page: Page, user: string, react: 18 | 19 = 19, extra = "") {
  await page.goto(`${pageURL}/r${react}/?apiKey=${app.key}&user=${encodeURIComponent(user)}&herald=${encodeURIComponent(herald)}${extra}`);
  await expect(page.getByText(`React ${react}.`)).toBeVisible();
  await expect(page.getByLabel("Realtime connection")).toHaveText("online");
  return page.getByRole("button", { name: /^Notifications/ });
}

for (const react of [19, 18] as const) {
  test(`React ${react} StrictMode: one provider opens exactly one Socket.IO connection, closed on unmount`, async ({ page, request }) => {
    // No connection left from another test: the count below is this page's alone.
    await expect.poll(() => serverConnections(request)).toBe(0);
    const sockets: string[] = [];
    const calls: string[] = [];
    page.on("websocket", (ws) => sockets.push(ws.url()));
    page.on("request", (r) => {
      const p = new URL(r.url()).pathname;
      if (p.startsWith("/v3/sdk/") || p.startsWith("/socket.io/")) calls.push(`${r.method()} ${p}`);
    });
    await openApp(page, newUser("strict"), react);
    // Every connection StrictMode's double mount could have opened has started by now.
    await page.waitForLoadState("networkidle");
    expect(sockets.filter((u) => u.includes("/socket.io/"))).toHaveLength(1);
    expect(calls.filter((c) => c === "POST /v3/sdk/connect")).toHaveLength(1);
    await expect.poll(() => serverConnections(request)).toBe(1);
    // Leaving the page closes it.
    await page.goto("about:blank");
    await expect.poll(() => serverConnections(request)).toBe(0);
  });
}

test("the unread count updates in realtime after a send; marking read in the popover updates the bell, the hooks and the server", async ({ page, request }) => {
  const user = newUser("rita");
  const bell = await openApp(page, user);
  await expect(bell).toHaveAccessibleName("Notifications");
  await expect(page.getByRole("status", { name: "Unread notifications" })).toHaveText("No unread notifications");

  await send(request, user, { title: "Deploy finished", message: "api v42 is live", url: `${pageURL}/landing/deploys/42` });
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Unread notifications" })).toHaveText("1 unread");
  await expect(page.getByText("Latest: Deploy finished")).toBeVisible(); // useHeraldEvent("notification")
  await expect(page.getByRole("list", { name: "Recent activity" }).getByRole("listitem")).toHaveCount(1);

  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("tab", { name: "All" })).toBeFocused();
  await expect(dialog.getByRole("button", { name: /^Deploy finished\. api v42 is live\. .*\. Unread$/ })).toBeVisible();
  await dialog.getByRole("button", { name: "Mark as read: Deploy finished" }).click();
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await expect(page.getByRole("status", { name: "Unread notifications" })).toHaveText("No unread notifications");
  await expect.poll(async () => !!(await serverInbox(request, user)).data.find((n) => n.title === "Deploy finished")?.readAt).toBe(true);

  // The Unread tab is empty; Escape closes the popover and gives the focus back to the bell.
  await dialog.getByRole("tab", { name: "Unread" }).click();
  await expect(dialog.getByText("You're all caught up")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeFocused();

  // The hooks' feed marks read too, and opening an item follows its URL.
  await send(request, user, { title: "Backup done", message: "nightly" });
  await expect(page.getByRole("status", { name: "Unread notifications" })).toHaveText("1 unread");
  await page.getByRole("button", { name: "Mark “Backup done” read" }).click();
  await expect(page.getByRole("status", { name: "Unread notifications" })).toHaveText("No unread notifications");
  await page.getByRole("button", { name: "Notifications", exact: true }).click();
  await page.getByRole("tab", { name: "All" }).click();
  await dialog.getByRole("button", { name: /^Deploy finished\./ }).click();
  await expect(page.getByRole("heading", { name: "Landed on /landing/deploys/42" })).toBeVisible();
});

test("React 18: a custom item renderer, with the bell at the left edge", async ({ page, request }) => {
  const user = newUser("carl");
  await send(request, user, { title: "Invoice paid", message: "$49.00 received" });
  await send(request, user, { title: "New comment", message: "Sam: ship it" });
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(2);
  const bell = await openApp(page, user, 18, "&custom=1&pos=left");
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("article")).toHaveCount(2);
  const card = dialog.getByRole("article", { name: "Invoice paid" });
  await expect(card).toContainText("$49.00 received");
  await expect(card).toContainText(/New · /);
  // On screen, though the bell is at the left edge.
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(page.viewportSize()!.width);

  await card.getByRole("button", { name: "Mark Invoice paid as done" }).click();
  await expect(card.getByRole("button", { name: "Mark Invoice paid as done" })).toHaveCount(0);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect.poll(async () => !!(await serverInbox(request, user)).data.find((n) => n.title === "Invoice paid")?.readAt).toBe(true);
  // A send while open appears as a custom card too.
  await send(request, user, { title: "Build green", message: "main passed" });
  await expect(dialog.getByRole("article", { name: "Build green" })).toBeVisible();
});

test("React 19: the server's markup (react-dom/server) hydrates without a mismatch, then connects", async ({ page, request }) => {
  const user = newUser("sam");
  const url = `${pageURL}/r19/ssr.html?apiKey=${app.key}&user=${encodeURIComponent(user)}&herald=${encodeURIComponent(herald)}`;
  // The page as served holds the bell and the feed rendered on the server.
  const served = await (await request.get(url)).text();
  expect(served).toMatch(/<button[^>]*aria-label="Notifications"/);
  expect(served).toContain("Loading preferences…");
  await page.goto(url);
  await expect(page.getByLabel("Realtime connection")).toHaveText("online");
  await send(request, user, { title: "Hydrated", message: "and live" });
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();
  await page.getByRole("button", { name: "Notifications, 1 unread" }).click();
  await expect(page.getByRole("dialog", { name: "Notifications" }).getByRole("button", { name: /^Hydrated\./ })).toBeVisible();
  // (A hydration mismatch is a console error: the fixture fails the test.)
});

test("keyboard only: open, move between tabs, mark read, close", async ({ page, request }) => {
  const user = newUser("kim");
  const bell = await openApp(page, user);
  await send(request, user, { title: "Keyboard only", message: "no mouse" });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await page.keyboard.press("Tab");
  await expect(bell).toBeFocused();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("tab", { name: "All" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("tab", { name: "Unread" })).toBeFocused();
  await expect(dialog.getByRole("tab", { name: "Unread" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowLeft");
  await expect(dialog.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "true");
  await expect(dialog.getByRole("button", { name: /^Keyboard only\./ })).toBeVisible(); // the view reloaded
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: /^Keyboard only\./ })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Mark as read: Keyboard only" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Notifications", exact: true })).toBeVisible();
  await expect(dialog.getByRole("button", { name: /^Keyboard only\./ })).toBeFocused(); // not lost with the button
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Archive: Keyboard only" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Delete: Keyboard only" })).toBeFocused();
  // Past the last control (the popover is at the end of <body>): back to the bell, closed.
  await page.keyboard.press("Tab");
  await expect(dialog).toBeHidden();
  const quiet = page.getByRole("button", { name: "Notifications", exact: true });
  await expect(quiet).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("tab", { name: "All" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(quiet).toBeFocused();
});

test("scrolling to the end of the list loads the next page", async ({ page, request }) => {
  const user = newUser("paul");
  for (let i = 1; i <= 17; i++) await send(request, user, { title: `Update ${i}`, message: "m" });
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(17);
  const bell = await openApp(page, user);
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("listitem")).toHaveCount(15); // the page size
  await dialog.getByRole("tabpanel").evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(dialog.getByRole("listitem")).toHaveCount(17);
  await expect(dialog.getByRole("button", { name: /^Update 1\./ })).toBeVisible();
});

test("on a 375 px screen the popover is a full-width sheet", async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 700 });
  const user = newUser("nina");
  await send(request, user, { title: "Small screen", message: "still readable" });
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(1);
  const bell = await openApp(page, user);
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("button", { name: /^Small screen\./ })).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.x).toBe(0);
  expect(box.width).toBe(375);
});

// Screenshots for docs/inbox-react.md, light and dark, written when
// HERALD_REACT_SCREENSHOTS names a directory.
for (const theme of ["light", "dark"]) {
  test(`screenshot: ${theme}`, async ({ page, request }) => {
    const user = newUser("gina");
    await send(request, user, { title: "Welcome to Acme", message: "Your workspace is ready.", category: "news" });
    await send(request, user, { title: "Invoice #1043 paid", message: "We received your payment of $49.00.", category: "billing" });
    await send(request, user, { title: "New comment", message: "Sam replied: “Looks great, ship it!”", category: "comments", icon: `${pageURL}/avatar.svg` });
    await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(3);
    for (const custom of [false, true]) {
      const bell = await openApp(page, user, 19, `&theme=${theme}${custom ? "&custom=1" : ""}`);
      await expect(bell).toHaveAccessibleName("Notifications, 3 unread");
      await bell.click();
      const dialog = page.getByRole("dialog", { name: "Notifications" });
      await expect(dialog.getByRole("listitem")).toHaveCount(3);
      await expect(dialog.getByRole("tab", { name: "Billing" })).toBeVisible();
      if (shots) await page.screenshot({ path: `${shots}/inbox-react-${custom ? "custom-" : ""}${theme}.png` });
      if (custom) continue;
      await dialog.getByRole("tab", { name: "Billing" }).click();
      await expect(dialog.getByRole("listitem")).toHaveCount(1);
      await dialog.getByRole("button", { name: "Preferences" }).click();
      await expect(dialog.getByRole("switch").first()).toBeVisible();
      if (shots && theme === "light") await page.screenshot({ path: `${shots}/inbox-react-preferences.png` });
    }
  });
}

test("blocks: an approval answered with its state button in <Inbox/>, its link button kept", async ({ page, request }) => {
  const user = newUser("abe");
  const bell = await openApp(page, user);
  await send(request, user, {
    title: "Expense report",
    message: "Team lunch",
    blocks: [
      { type: "avatar", name: "Sam Rivera", text: "asks for your approval" },
      { type: "text", text: "**$84.20** for *lunch*" },
      { type: "buttons", exceptStates: ["approved"], buttons: [{ label: "Approve", state: "approved" }, { label: "Open", style: "secondary", url: `${pageURL}/landing/r` }] },
      { type: "text", states: ["approved"], text: "Approved by you" },
    ],
  });
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByText("asks for your approval")).toBeVisible();
  await expect(dialog.getByRole("link", { name: "Open" })).toHaveAttribute("href", `${pageURL}/landing/r`);
  await dialog.getByRole("button", { name: "Approve" }).click();
  await expect(dialog.getByText("Approved by you")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect.poll(async () => ((await serverInbox(request, user)).data[0] as { state?: string }).state).toBe("approved");
});
