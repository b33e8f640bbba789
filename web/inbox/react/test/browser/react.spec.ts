// The React package in Chromium: the example app (React 19 and React 18, StrictMode,
// development builds) on another origin than a real Herald. Elements are found by role and
// accessible name; any console error (React's warnings included) fails the test.
import { test as base, expect, type Page, type APIRequestContext } from "@playwright/test";

const herald = process.env.HERALD_URL!;
const pageURL = process.env.PAGE_URL!;
const app = { key: process.env.HERALD_API_KEY!, secret: process.env.HERALD_API_SECRET! };
const shots = process.env.HERALD_REACT_SCREENSHOTS;

// A test may allow the browser's log line of a refused call it makes on purpose
// (allowStatus: 400 for a form Herald refuses).
const test = base.extend<{ consoleErrors: { allowStatus?: number } }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const state: { allowStatus?: number } = {};
      page.on("console", (m) => {
        if (m.type() !== "error") return;
        if (state.allowStatus && m.text().includes(`status of ${state.allowStatus} `)) return;
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
  await expect(dialog.getByRole("button", { name: "Snooze: Keyboard only" })).toBeFocused();
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
      await dialog.getByRole("button", { name: "Snooze: New comment" }).click();
      await expect(dialog.getByRole("menu", { name: "Snooze: New comment" }).getByRole("menuitem").first()).toBeFocused();
      if (shots) await page.screenshot({ path: `${shots}/inbox-react-snooze-${theme}.png` });
      await page.keyboard.press("Escape");
      await expect(dialog.getByRole("menu")).toHaveCount(0);
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
  await expect(page.getByRole("status", { name: "Inbox event" })).toHaveText("“Expense report” is approved"); // onStateChange
  await expect(dialog.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect.poll(async () => ((await serverInbox(request, user)).data[0] as { state?: string }).state).toBe("approved");
});

test("snooze from <Inbox/> with the keyboard: the lazily loaded menu, Escape back to its button, the item leaves the list and the count, and comes back unread", async ({ page, request }) => {
  const user = newUser("cy");
  await send(request, user, { title: "Call the bank", message: "before noon" });
  await send(request, user, { title: "Stays here", message: "not snoozed" });
  await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(2);
  const id = (await serverInbox(request, user)).data.find((n) => n.title === "Call the bank")!.id;
  const chunks: string[] = [];
  page.on("request", (r) => chunks.push(new URL(r.url()).pathname));
  const bell = await openApp(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  await bell.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  const toggle = dialog.getByRole("button", { name: "Snooze: Call the bank" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.focus();
  expect(chunks.some((p) => /SnoozeMenu/.test(p)), "the snooze menu loads when first opened").toBe(false);
  // Escape closes the menu (not the popover) and gives the focus back to its button.
  await page.keyboard.press("Enter");
  const menu = dialog.getByRole("menu", { name: "Snooze: Call the bank" });
  await expect(menu.getByRole("menuitem", { name: /^In 1 hour/ })).toBeFocused();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(menu).toHaveCount(0);
  await expect(toggle).toBeFocused();
  await expect(dialog).toBeVisible();
  // Custom time: ArrowUp wraps to the last item; a past time is refused next to the field.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowUp");
  await expect(menu.getByRole("menuitem", { name: "Custom time…" })).toBeFocused();
  await page.keyboard.press("Enter");
  const until = dialog.getByLabel("Until");
  await expect(until).toBeFocused();
  await until.fill("2020-01-01T08:00");
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("alert")).toHaveText("Choose a time in the future.");
  await expect(until).toHaveAccessibleDescription("Choose a time in the future.");
  await page.keyboard.press("Escape");
  await expect(toggle).toBeFocused();
  // Tomorrow morning, by the arrow keys.
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowDown");
  await expect(menu.getByRole("menuitem", { name: /^Tomorrow morning/ })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByRole("button", { name: /^Call the bank/ })).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: /^Stays here/ })).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(page.getByRole("status", { name: "Inbox event" })).toHaveText(/^Snoozed “Call the bank” until \d{4}-/); // onSnooze
  await expect.poll(async () => (await serverInbox(request, user)).data.map((n) => n.title)).toEqual(["Stays here"]);
  // The menu came in its own chunk, fetched when first opened.
  expect(chunks.some((p) => /SnoozeMenu/.test(p))).toBe(true);
  // Its time comes (moved to now on the server): the relay's waker brings it back, unread,
  // pushed over realtime.
  const res = await request.get(`${pageURL}/snooze-due?id=${id}`);
  expect(res.status(), await res.text()).toBe(200);
  await expect(dialog.getByRole("button", { name: /^Call the bank/ })).toBeVisible({ timeout: 20_000 });
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
  const back = (await serverInbox(request, user)).data.find((n) => n.title === "Call the bank");
  expect(back?.readAt).toBeNull();
});

test("the preferences view of <Inbox/>, loaded lazily: a workflow switch, quiet hours refused then saved, the time zone; critical items locked with the reason", async ({ page, request, consoleErrors }) => {
  consoleErrors.allowStatus = 400; // the window without its end, refused on purpose
  const user = newUser("quinn");
  const headers = { "X-SERVICE-API-KEY": app.key, "X-SERVICE-USER-ID": user };
  const server = async <T>(path: string) => (await (await request.get(`${herald}/v3${path}`, { headers })).json()) as T;
  const chunks: string[] = [];
  page.on("request", (r) => chunks.push(new URL(r.url()).pathname));
  const bell = await openApp(page, user);
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("tab", { name: "All" })).toBeFocused();
  expect(chunks.some((p) => /PreferencesPanel/.test(p)), "the preferences view loads when first opened").toBe(false);
  await dialog.getByRole("button", { name: "Preferences" }).click();
  await expect(dialog.getByRole("heading", { name: "Preferences" })).toBeVisible();
  await expect(dialog.getByRole("group", { name: "Topics" })).toBeVisible();
  expect(chunks.some((p) => /PreferencesPanel/.test(p))).toBe(true);

  // Critical: locked, and the reason is read with the switch.
  const security = dialog.getByRole("group", { name: "Security" });
  await expect(security).toHaveAccessibleDescription(/always delivered/);
  await expect(security.getByRole("switch").first()).toBeDisabled();
  await expect(security.getByRole("switch").first()).toBeChecked();
  const otp = dialog.getByRole("switch", { name: "Sign-in code", exact: true });
  await expect(otp).toBeDisabled();
  await expect(otp).toBeChecked();
  await expect(otp).toHaveAccessibleDescription(/always delivered/);
  await expect(dialog.getByRole("switch", { name: "Sign-in code: In-app" })).toBeDisabled();

  // A workflow switch, then one channel of it.
  const digest = dialog.getByRole("switch", { name: "Weekly digest", exact: true });
  await expect(digest).toBeChecked();
  await digest.focus();
  await page.keyboard.press("Space");
  await expect(digest).not.toBeChecked();
  await expect
    .poll(async () => (await server<{ workflow: { identifier: string }; enabled: boolean }[]>("/preferences/workflows")).find((f) => f.workflow.identifier === "weekly-digest")?.enabled)
    .toBe(false);
  const digestInApp = dialog.getByRole("switch", { name: "Weekly digest: In-app" });
  await expect(digestInApp).not.toBeChecked(); // it follows the workflow's switch until set
  await digestInApp.check();
  await expect
    .poll(async () => (await server<{ workflow: { identifier: string }; channels?: Record<string, boolean> }[]>("/preferences/workflows")).find((f) => f.workflow.identifier === "weekly-digest")?.channels?.inApp)
    .toBe(true);

  // A channel as a whole.
  const sms = dialog.getByRole("switch", { name: "All notifications: SMS" });
  await sms.uncheck();
  await expect.poll(async () => (await server<Record<string, boolean>>("/preferences/channels")).sms).toBe(false);

  // Quiet hours: a window without its end is refused, said next to the fields, and the
  // summary goes back to what Herald holds; with both ends and Saturday it is saved.
  const summary = dialog.getByRole("group", { name: "Quiet hours" }).getByRole("status");
  await expect(summary).toHaveText("No quiet hours.");
  await dialog.getByRole("switch", { name: "Use quiet hours" }).check();
  const from = dialog.getByLabel("From");
  await from.fill("22:00");
  const save = dialog.getByRole("button", { name: "Save quiet hours" });
  await save.click();
  await expect(from).toHaveAccessibleDescription(/start and end go together/);
  await expect(from).toHaveAttribute("aria-invalid", "true");
  await expect(summary).toHaveText("No quiet hours.");
  await dialog.getByLabel("Until").fill("07:00");
  await dialog.getByRole("checkbox", { name: "Saturday" }).check();
  await save.click();
  await expect(summary).toHaveText("Quiet 22:00–07:00 and all day Saturday (UTC).");
  await expect(from).toHaveAttribute("aria-invalid", "false");
  await expect
    .poll(async () => server<{ enabled: boolean; start?: string; end?: string; days: string[] }>("/preferences/quiet-hours"))
    .toMatchObject({ enabled: true, start: "22:00", end: "07:00", days: ["saturday"] });

  // The time zone: an IANA select, saved on change.
  await dialog.getByLabel("Your time zone").selectOption("Asia/Tokyo");
  await expect(summary).toHaveText("Quiet 22:00–07:00 and all day Saturday (Asia/Tokyo).");
  await expect(dialog.getByText("Time zone saved.")).toBeVisible();
  await expect.poll(async () => (await server<{ timezone: string }>("/preferences/quiet-hours")).timezone).toBe("Asia/Tokyo");

  if (shots) {
    for (const theme of ["light", "dark"]) {
      await openApp(page, user, 19, `&theme=${theme}`);
      await page.getByRole("button", { name: /^Notifications/ }).click();
      await page.getByRole("dialog", { name: "Notifications" }).getByRole("button", { name: "Preferences" }).click();
      await expect(page.getByRole("switch", { name: "Weekly digest", exact: true })).not.toBeChecked();
      await page.getByRole("group", { name: "Notifications", exact: true }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/inbox-react-preferences-flows-${theme}.png` });
      await page.getByRole("group", { name: "Quiet hours" }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/inbox-react-preferences-quiet-${theme}.png` });
    }
  }
});
