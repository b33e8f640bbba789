// <herald-inbox> on a customer page (another origin than Herald's), in Chromium, against a
// real Herald. Elements are found by role and accessible name. Any console error fails the
// test.
import { test as base, expect, type Page, type APIRequestContext } from "@playwright/test";

const herald = process.env.HERALD_URL!;
const pageURL = process.env.PAGE_URL!;
const app = { key: process.env.HERALD_API_KEY!, secret: process.env.HERALD_API_SECRET! };
const secureApp = { key: process.env.HERALD_SECURE_API_KEY!, secret: process.env.HERALD_SECURE_API_SECRET! };

// Console errors fail every test; a test may allow network errors of a window it cuts
// the network itself (allowNetworkErrors).
// A test may also allow the browser's log line of a refused call it makes on purpose
// (allowStatus: 400 for a form Herald refuses).
const test = base.extend<{ consoleErrors: { allowNetworkErrors: boolean; allowStatus?: number } }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const state: { allowNetworkErrors: boolean; allowStatus?: number } = { allowNetworkErrors: false };
      page.on("console", (m) => {
        if (m.type() !== "error") return;
        if (state.allowNetworkErrors && /ERR_INTERNET_DISCONNECTED|ERR_BLOCKED_BY_CLIENT|ERR_FAILED|WebSocket connection|ERR_NETWORK|Failed to fetch/.test(m.text())) return;
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

async function send(request: APIRequestContext, user: string, notification: Record<string, unknown>, a = app) {
  const res = await request.post(`${herald}/v3/notifications`, {
    headers: { "X-SERVICE-API-KEY": a.key, "X-SERVICE-API-SECRET": a.secret },
    data: { notification, category: notification.category, sendTo: { recipients: [user] } },
  });
  expect(res.status(), await res.text()).toBe(202);
}

/** The user's inbox as the server sees it (app credentials). */
async function serverInbox(request: APIRequestContext, user: string, filter = "") {
  const res = await request.get(`${herald}/v3/notifications?userIdentifier=${encodeURIComponent(user)}&limit=20${filter ? "&filter=" + filter : ""}`, {
    headers: { "X-SERVICE-API-KEY": app.key, "X-SERVICE-API-SECRET": app.secret },
  });
  expect(res.status()).toBe(200);
  return (await res.json()) as { unreadCount: number; data: { id: number; title: string; readAt?: string | null; clickedAt?: string | null }[] };
}

async function openInbox(page: Page, user: string, extra = "") {
  await page.goto(`${pageURL}/inbox.html?user=${encodeURIComponent(user)}${extra}`);
  const bell = page.getByRole("button", { name: /^Notifications/ });
  await expect(bell).toBeVisible();
  return bell;
}

async function waitOnline(page: Page) {
  await page.waitForFunction(() => (document.querySelector("herald-inbox") as any)?.client?.state.connection === "online");
}

test("the bell renders on another origin, and a send shows the badge and the list without reload", async ({ page, request }) => {
  const user = newUser("alice");
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications");
  await waitOnline(page);

  await send(request, user, { title: "Your order shipped", message: "Order #42 is on its way", url: `${pageURL}/landing/orders/42`, icon: `${pageURL}/avatar.svg` });
  await expect(page.getByRole("button", { name: "Notifications, 1 unread" })).toBeVisible();

  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog).toBeVisible();
  const item = dialog.getByRole("button", { name: /^Your order shipped\. Order #42 is on its way\./ });
  await expect(item).toBeVisible();
  await expect(item).toContainText(/now|second|minute/);
});

test("clicking a notification marks it read on the server and opens its URL", async ({ page, request }) => {
  const user = newUser("bob");
  await send(request, user, { title: "Invoice ready", message: "March invoice", url: `${pageURL}/landing/invoices/3` });
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await bell.click();
  await page.getByRole("button", { name: /^Invoice ready/ }).click();
  await expect(page).toHaveURL(`${pageURL}/landing/invoices/3`);
  await expect(page.getByRole("heading", { name: "Landed on /landing/invoices/3" })).toBeVisible();
  const inbox = await serverInbox(request, user);
  expect(inbox.data[0].readAt).toBeTruthy();
  expect(inbox.data[0].clickedAt).toBeTruthy();
  expect(inbox.unreadCount).toBe(0);
});

test("mark all read, archive and delete reach the server", async ({ page, request }) => {
  const user = newUser("carol");
  for (const title of ["First", "Second", "Third"]) await send(request, user, { title, message: "m" });
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 3 unread");
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });

  await dialog.getByRole("button", { name: "Delete: First" }).click();
  await expect(dialog.getByRole("button", { name: /^First/ })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Archive: Second" }).click();
  await expect(dialog.getByRole("button", { name: /^Second/ })).toHaveCount(0);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect.poll(async () => (await serverInbox(request, user)).data.map((n) => n.title).sort()).toEqual(["Second", "Third"]);

  await dialog.getByRole("button", { name: "Mark all as read" }).click();
  await expect(bell).toHaveAccessibleName("Notifications");
  await expect.poll(async () => (await serverInbox(request, user, "unread")).data.length).toBe(0);

  await dialog.getByRole("tab", { name: "Unread" }).click();
  await expect(dialog.getByRole("status")).toHaveText("You're all caught up");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(bell).toBeFocused();
});

test("a preferences switch changes the server's preferences", async ({ page, request }) => {
  const user = newUser("dave");
  await send(request, user, { title: "Payment received", message: "Thanks", category: "billing" });
  const bell = await openInbox(page, user);
  await bell.click();
  await page.getByRole("button", { name: "Preferences" }).click();
  const inApp = page.getByRole("switch", { name: "Billing: In-app" });
  await expect(inApp).toBeChecked();
  await inApp.click();
  await expect(inApp).not.toBeChecked();
  await expect
    .poll(async () => {
      const res = await request.get(`${herald}/v3/preferences`, { headers: { "X-SERVICE-API-KEY": app.key, "X-SERVICE-USER-ID": user } });
      const prefs = (await res.json()) as { category: { name: string }; channelPreferences: { channel: string; enabled: boolean }[] }[];
      return prefs.find((p) => p.category.name.toLowerCase() === "billing")?.channelPreferences.find((c) => c.channel === "inApp")?.enabled;
    })
    .toBe(false);
  await page.getByRole("button", { name: "Back to notifications" }).click();
  await expect(page.getByRole("button", { name: /^Payment received/ })).toBeVisible();
});

test("secure mode: the element authenticates with the user's JWT", async ({ page, request }) => {
  const user = newUser("erin");
  const bell = await openInbox(page, user, "&secure=1");
  await waitOnline(page);
  await send(request, user, { title: "Secure hello", message: "signed" }, secureApp);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await bell.click();
  await expect(page.getByRole("button", { name: /^Secure hello/ })).toBeVisible();
});

test("the socket drops and reconnects, and notifications missed meanwhile appear", async ({ page, request, consoleErrors, context }) => {
  const user = newUser("frank");
  const bell = await openInbox(page, user);
  await waitOnline(page);
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("status")).toHaveText("No notifications yet");

  consoleErrors.allowNetworkErrors = true;
  await context.setOffline(true);
  await page.evaluate(() => (document.querySelector("herald-inbox") as any).client.dropRealtime());
  await expect(dialog.getByText("You're offline. Reconnecting…")).toBeVisible();
  await send(request, user, { title: "Sent while offline", message: "missed" });
  await expect.poll(async () => (await serverInbox(request, user)).data.length).toBe(1);
  await context.setOffline(false);

  await expect(dialog.getByRole("button", { name: /^Sent while offline/ })).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(dialog.getByText("You're offline. Reconnecting…")).toBeHidden();
  consoleErrors.allowNetworkErrors = false;

  await send(request, user, { title: "Live again", message: "realtime" });
  await expect(dialog.getByRole("button", { name: /^Live again/ })).toBeVisible();
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
});

test("keyboard only: open, move between tabs, activate; herald-click can keep the page", async ({ page, request }) => {
  const user = newUser("hugo");
  await send(request, user, { title: "Keyboard hello", message: "press enter", url: `${pageURL}/landing/kb` });
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await page.evaluate(() => {
    const el = document.querySelector("herald-inbox")!;
    el.addEventListener("herald-click", (e) => {
      e.preventDefault();
      (window as any).clicked = (e as CustomEvent).detail.title;
    });
  });
  await bell.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  await expect(dialog.getByRole("tab", { name: "All" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("tab", { name: "Unread" })).toBeFocused();
  await expect(dialog.getByRole("tab", { name: "Unread" })).toHaveAttribute("aria-selected", "true");
  const item = dialog.getByRole("button", { name: /^Keyboard hello/ });
  await expect(item).toBeVisible();
  await item.focus();
  await page.keyboard.press("Enter");
  await expect.poll(() => page.evaluate(() => (window as any).clicked)).toBe("Keyboard hello");
  await expect.poll(async () => (await serverInbox(request, user)).data[0].clickedAt).toBeTruthy();
  expect(page.url()).toContain("/inbox.html");
  await expect(bell).toHaveAccessibleName("Notifications");
});

test("with WebSocket and polling blocked, realtime falls back to Server-Sent Events", async ({ page, request, consoleErrors }) => {
  consoleErrors.allowNetworkErrors = true; // the blocked attempts log their failures
  await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
  await page.route(/\/socket\.io\//, (route) => route.abort("blockedbyclient"));
  const user = newUser("iris");
  const bell = await openInbox(page, user);
  await waitOnline(page);
  // The client is on its EventSource, not on a socket.
  expect(await page.evaluate(() => { const c = (document.querySelector("herald-inbox") as any).client; return [!!c.sse, !!c.socket]; })).toEqual([true, false]);
  await send(request, user, { title: "Over SSE", message: "fallback" });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await bell.click();
  await expect(page.getByRole("button", { name: /^Over SSE/ })).toBeVisible();
});

/** Fails unless the element's bounding box lies inside the viewport. */
async function expectInViewport(page: Page, el: ReturnType<Page["locator"]>) {
  const box = await el.boundingBox();
  const vp = page.viewportSize()!;
  expect(box, "the element is rendered").not.toBeNull();
  expect(box!.x, "left edge").toBeGreaterThanOrEqual(0);
  expect(box!.y, "top edge").toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, "right edge").toBeLessThanOrEqual(vp.width);
  expect(box!.y + box!.height, "bottom edge").toBeLessThanOrEqual(vp.height);
  return box!;
}

// The popover stays on screen wherever the bell is: at the left edge (it used to open
// right-aligned to the bell, cut off at x = 0), at the right edge, in a bar at the bottom
// (it flips above the bell), and as a full-width sheet on a 375 px phone.
const placements = [
  { name: "the left edge", pos: "left", viewport: { width: 900, height: 700 } },
  { name: "the right edge", pos: "", viewport: { width: 900, height: 700 } },
  { name: "the bottom left corner", pos: "bottom-left", viewport: { width: 900, height: 700 } },
  { name: "a 375 px viewport (sheet)", pos: "left", viewport: { width: 375, height: 667 } },
];
for (const p of placements) {
  test(`position: with the bell at ${p.name}, the popover is inside the viewport and its items can be clicked`, async ({ page, request }) => {
    await page.setViewportSize(p.viewport);
    const user = newUser("pos");
    await send(request, user, { title: "Placed right", message: "on screen", url: `${pageURL}/landing/placed` });
    // Delivered before the page loads (the first send of a cold stack can take a while).
    await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(1);
    const bell = await openInbox(page, user, p.pos ? `&pos=${p.pos}` : "");
    await expect(bell).toHaveAccessibleName("Notifications, 1 unread");

    // Keyboard: Enter opens it, focus lands on the selected tab, Escape closes it and
    // returns focus to the bell.
    await bell.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Notifications" });
    await expect(dialog.getByRole("tab", { name: "All" })).toBeFocused();
    const item = dialog.getByRole("button", { name: /^Placed right/ });
    await expect(item).toBeVisible();
    const box = await expectInViewport(page, dialog);
    await expectInViewport(page, item);
    const bellBox = (await bell.boundingBox())!;
    if (p.viewport.width <= 480) {
      expect(box.x).toBe(0);
      expect(box.width).toBe(p.viewport.width);
    } else if (p.pos === "bottom-left") {
      expect(box.y + box.height, "flipped above the bell").toBeLessThanOrEqual(bellBox.y);
    } else {
      expect(box.y, "below the bell").toBeGreaterThanOrEqual(bellBox.y + bellBox.height);
    }
    const dir = process.env.HERALD_WIDGET_SCREENSHOTS;
    if (dir && p.pos !== "bottom-left") {
      const file = p.viewport.width <= 480 ? "inbox-sheet-375" : `inbox-${p.pos || "right"}-edge`;
      await page.screenshot({ path: `${dir}/${file}.png` });
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(bell).toBeFocused();

    await bell.click();
    await item.click();
    await expect(page).toHaveURL(`${pageURL}/landing/placed`);
  });
}

test("toasts: a notification sent while the page is open is announced, dismissed with its button, and hides by itself", async ({ page, request }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  const user = newUser("tess");
  const bell = await openInbox(page, user, "&toasts=1");
  await waitOnline(page);

  await send(request, user, { title: "Build finished", message: "main is green" });
  const status = page.getByRole("status");
  await expect(status).toContainText("Build finished");
  await expect(status).toContainText("main is green");
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  // prefers-reduced-motion: the toast appears without its slide-in.
  expect(await status.locator(".toast").first().evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
  // Nobody touches it: it goes away after a few seconds.
  await expect(status.getByText("Build finished")).toHaveCount(0);

  await send(request, user, { title: "Deploy approved", message: "by Sam" });
  await expect(status).toContainText("Deploy approved");
  const dir = process.env.HERALD_WIDGET_SCREENSHOTS;
  if (dir) await page.screenshot({ path: `${dir}/inbox-toast.png`, clip: { x: 420, y: 480, width: 480, height: 220 } });
  await status.getByRole("button", { name: "Close: Deploy approved" }).click();
  await expect(status.getByText("Deploy approved")).toHaveCount(0);
  await expect(bell).toHaveAccessibleName("Notifications, 2 unread");
});

test("toasts: without the attribute, no toast is shown", async ({ page, request }) => {
  const user = newUser("quiet");
  const bell = await openInbox(page, user);
  await waitOnline(page);
  await send(request, user, { title: "No toast for me", message: "m" });
  await expect(bell).toHaveAccessibleName("Notifications, 1 unread");
  await expect(page.getByRole("status")).toHaveCount(0);
});

// Screenshots for docs/inbox-widget.md: light and dark. Written only when
// HERALD_WIDGET_SCREENSHOTS names a directory.
for (const theme of ["light", "dark"]) {
  test(`screenshot: ${theme}`, async ({ page, request }) => {
    const user = newUser("gina");
    await send(request, user, { title: "Welcome to Acme", message: "Your workspace is ready.", category: "news" });
    await send(request, user, { title: "Invoice #1043 paid", message: "We received your payment of $49.00.", category: "billing" });
    await send(request, user, { title: "New comment", message: "Sam replied: “Looks great, ship it!”", category: "comments", icon: `${pageURL}/avatar.svg` });
    // Delivered (and the categories created) before the page loads: its tabs come from the
    // app's categories as the page connects.
    await expect.poll(async () => (await serverInbox(request, user)).data.length, { timeout: 45_000 }).toBe(3);
    const bell = await openInbox(page, user, `&theme=${theme}`);
    await expect(bell).toHaveAccessibleName("Notifications, 3 unread");
    await bell.click();
    const dialog = page.getByRole("dialog", { name: "Notifications" });
    await expect(dialog.getByRole("listitem")).toHaveCount(3);
    await dialog.getByRole("button", { name: /^Welcome to Acme/ }).hover();
    const dir = process.env.HERALD_WIDGET_SCREENSHOTS;
    if (dir) await page.screenshot({ path: `${dir}/inbox-${theme}.png`, clip: { x: 420, y: 0, width: 480, height: 520 } });

    // Category tabs filter the list.
    await dialog.getByRole("tab", { name: "Billing" }).click();
    await expect(dialog.getByRole("listitem")).toHaveCount(1);
    await expect(dialog.getByRole("button", { name: /^Invoice #1043 paid/ })).toBeVisible();

    await dialog.getByRole("button", { name: "Preferences" }).click();
    await expect(dialog.getByRole("group", { name: "Topics" }).getByRole("switch", { name: "Billing: In-app" })).toBeVisible();
    if (dir) await page.screenshot({ path: `${dir}/inbox-preferences-${theme}.png`, clip: { x: 420, y: 0, width: 480, height: 520 } });
  });
}

test("a row whose url could run script is never followed; an https url still is", async ({ page, request }) => {
  const user = newUser("mallory");
  // Rows from before Herald checked links (the API refuses these urls now): written to the
  // database directly by the test's host server.
  const bad: Record<string, string> = {
    "Old javascript row": "javascript:window.pwned=1;alert('pwned')",
    "Old mixed-case row": " jaVa\tscript:window.pwned=2;alert('pwned')",
    "Old data row": "data:text/html,<script>alert('pwned')</script>",
  };
  const ids: Record<string, number> = {};
  for (const [title, url] of Object.entries({ "Safe row": `${pageURL}/landing/safe`, ...bad })) {
    const res = await request.post(`${pageURL}/old-inbox-row?user=${encodeURIComponent(user)}&title=${encodeURIComponent(title)}&url=${encodeURIComponent(url)}`);
    expect(res.status(), await res.text()).toBe(200);
    ids[title] = Number(await res.text());
  }
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const bell = await openInbox(page, user);
  await expect(bell).toHaveAccessibleName("Notifications, 4 unread");
  await bell.click();
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  for (const title of Object.keys(bad)) {
    // The widget follows a link once the click is recorded; wait for that answer.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(`/notifications/${ids[title]}/click`));
    await dialog.getByRole("button", { name: new RegExp(`^${title}`) }).click();
    const res = await answered;
    expect(res.status()).toBe(200);
    await res.finished();
    expect(await page.evaluate(() => (window as any).pwned)).toBeUndefined();
    expect(page.url()).toContain("/inbox.html");
  }
  // The https row: followed, after the script rows' clicks were all answered.
  await dialog.getByRole("button", { name: /^Safe row/ }).click();
  await expect(page).toHaveURL(`${pageURL}/landing/safe`);
  await expect(page.getByRole("heading", { name: "Landed on /landing/safe" })).toBeVisible();
  expect(dialogs, "script ran in the page").toEqual([]);
  const inbox = await serverInbox(request, user);
  expect(inbox.data.filter((n) => n.clickedAt).length).toBe(4);
});

/** tabTo presses Tab until target (in the element's shadow root) has the focus. */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, limit = 80) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test("the preference panel, with the keyboard: a workflow, a channel, quiet hours and the time zone; critical items locked with the reason", async ({ page, request, consoleErrors }) => {
  consoleErrors.allowStatus = 400; // the window without its end, refused on purpose
  const user = newUser("quinn");
  const headers = { "X-SERVICE-API-KEY": app.key, "X-SERVICE-USER-ID": user };
  const server = async <T>(path: string) => (await (await request.get(`${herald}/v3${path}`, { headers })).json()) as T;
  await send(request, user, { title: "Receipt", message: "Thanks", category: "billing" });
  const bell = await openInbox(page, user);
  await bell.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Notifications" });
  const prefs = dialog.getByRole("button", { name: "Preferences" });
  await tabTo(page, prefs);
  await page.keyboard.press("Enter");

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

  // A workflow switch.
  const digest = dialog.getByRole("switch", { name: "Weekly digest", exact: true });
  await expect(digest).toBeChecked();
  await tabTo(page, digest);
  await page.keyboard.press("Space");
  await expect(digest).not.toBeChecked();
  await expect
    .poll(async () => (await server<{ workflow: { identifier: string }; enabled: boolean }[]>("/preferences/workflows")).find((f) => f.workflow.identifier === "weekly-digest")?.enabled)
    .toBe(false);

  // A channel as a whole.
  const sms = dialog.getByRole("switch", { name: "All notifications: SMS" });
  await tabTo(page, sms);
  await page.keyboard.press("Space");
  await expect(sms).not.toBeChecked();
  await expect.poll(async () => (await server<Record<string, boolean>>("/preferences/channels")).sms).toBe(false);

  // Quiet hours: a window without its end is refused, said next to the fields, and the
  // summary goes back to what Herald holds; with both ends and Saturday it is saved.
  const summary = dialog.getByRole("group", { name: "Quiet hours" }).getByRole("status");
  await expect(summary).toHaveText("No quiet hours.");
  const use = dialog.getByRole("switch", { name: "Use quiet hours" });
  await tabTo(page, use);
  await page.keyboard.press("Space");
  const from = dialog.getByLabel("From");
  await tabTo(page, from);
  await from.fill("22:00");
  const save = dialog.getByRole("button", { name: "Save quiet hours" });
  await tabTo(page, save);
  await page.keyboard.press("Enter");
  await expect(from).toHaveAccessibleDescription(/start and end go together/);
  await expect(from).toHaveAttribute("aria-invalid", "true");
  await expect(summary).toHaveText("No quiet hours.");
  const until = dialog.getByLabel("Until");
  await tabTo(page, until);
  await until.fill("07:00");
  const saturday = dialog.getByRole("checkbox", { name: "Saturday" });
  await tabTo(page, saturday);
  await page.keyboard.press("Space");
  await tabTo(page, save);
  await page.keyboard.press("Enter");
  await expect(summary).toHaveText("Quiet 22:00–07:00 and all day Saturday (UTC).");
  await expect(from).toHaveAttribute("aria-invalid", "false");
  await expect
    .poll(async () => server<{ enabled: boolean; start?: string; end?: string; days: string[] }>("/preferences/quiet-hours"))
    .toMatchObject({ enabled: true, start: "22:00", end: "07:00", days: ["saturday"] });

  // The time zone: an IANA select, saved on change.
  const zone = dialog.getByLabel("Your time zone");
  await tabTo(page, zone);
  await zone.selectOption("Asia/Tokyo");
  await expect(summary).toHaveText("Quiet 22:00–07:00 and all day Saturday (Asia/Tokyo).");
  await expect.poll(async () => (await server<{ timezone: string }>("/preferences/quiet-hours")).timezone).toBe("Asia/Tokyo");

  const dir = process.env.HERALD_WIDGET_SCREENSHOTS;
  if (dir) {
    for (const theme of ["light", "dark"]) {
      await openInbox(page, user, `&theme=${theme}`);
      await page.getByRole("button", { name: /^Notifications/ }).click();
      await page.getByRole("dialog", { name: "Notifications" }).getByRole("button", { name: "Preferences" }).click();
      await expect(page.getByRole("switch", { name: "Weekly digest", exact: true })).not.toBeChecked();
      const list = page.locator("herald-inbox").locator(".prefs");
      for (const [part, name] of [["workflows", "flows"], ["quiet-hours", "quiet"]] as const) {
        await list.locator(`[part="${part}"]`).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${dir}/inbox-preferences-${name}-${theme}.png`, clip: { x: 420, y: 0, width: 480, height: 620 } });
      }
    }
  }
});
