// Journeys of the ops screens: schedules (scheduled sends and recurring workflow
// schedules), environments (commit, publish to another app, roll back) and analytics
// (the counts equal the sends the test made and the message logs).
import { expect, expectFailedRequests, shoot, signIn, test, type Page } from "./fixtures";

const owner = () => process.env.OWNER_EMAIL!;
const shop = () => process.env.VIEWER_APP_ID!;

/** v1 signs the owner in through the API (as the CLI would) for setting up data. */
async function v1(page: Page) {
  const res = await page.request.post("/v1/auth?redirect=/apps", { data: { email: owner(), password: process.env.CONSOLE_PASSWORD! } });
  expect(res.status(), await res.text()).toBe(200);
  const { accessToken } = await res.json();
  return { Authorization: `Bearer ${accessToken}` };
}

/** appKeys reads an app's key and secret through the management API. */
async function appKeys(page: Page, auth: Record<string, string>, appId: number | string) {
  const app = await (await page.request.get(`/v1/apps/${appId}`, { headers: auth })).json();
  const sec = await page.request.get(`/v1/apps/${appId}/secret`, { headers: auth });
  expect(sec.status()).toBe(200);
  const s = await sec.json();
  return { "X-SERVICE-API-KEY": app.apiKey as string, "X-SERVICE-API-SECRET": s.apiSecret as string };
}

test("ops schedules: a send scheduled through the v3 API is inspected and cancelled; a recurring schedule is created, paused and deleted", async ({ page }) => {
  const auth = await v1(page);
  const keys = await appKeys(page, auth, shop());
  const title = `Flash sale ${Date.now()}`;
  const sendAt = new Date(Date.now() + 3 * 3600_000).toISOString();
  const sent = await page.request.post("/v3/notifications", {
    headers: keys,
    data: { notification: { title, message: "Starts in three hours" }, sendTo: { recipients: ["sam", "sue"] }, sendAt },
  });
  expect(sent.status()).toBe(202);
  // A published workflow for the recurring schedule.
  const wf = `digest-${Date.now()}`;
  const made = await page.request.post(`/v1/apps/${shop()}/workflows`, {
    headers: auth,
    data: { identifier: wf, name: "Daily digest", definition: { steps: [{ id: "hi", type: "inApp", content: { title: "Your digest" } }] } },
  });
  expect(made.status()).toBe(201);
  expect((await page.request.post(`/v1/apps/${shop()}/workflows/${wf}/publish`, { headers: auth })).status()).toBe(200);

  await signIn(page, owner());
  await page.goto(`/apps/${shop()}/get-started`);
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Schedules" }).click();
  await expect(page.getByRole("heading", { name: "Schedules", level: 1 })).toBeVisible();
  const sends = page.getByRole("table", { name: "Scheduled sends" });
  const row = sends.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("scheduled");
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  // Inspect: the notification as it will go out.
  await row.getByRole("button", { name: title, exact: true }).click();
  await expect(page.getByLabel(`Details of ${title}`)).toBeVisible();
  await expect(page.getByLabel("Notification as it goes out")).toContainText("Starts in three hours");
  await shoot(page, "schedules");

  // Cancel it: gone from the waiting list, shown as cancelled with the others.
  await row.getByRole("button", { name: `Cancel the send ${title}` }).click();
  const dialog = page.getByRole("dialog", { name: `Cancel “${title}”?` });
  await expect(dialog).toContainText("2 recipient(s)");
  await dialog.getByRole("button", { name: "Cancel the send" }).click();
  await expect(dialog).toBeHidden();
  await expect(sends.getByRole("row").filter({ hasText: title })).toHaveCount(0);
  await page.getByLabel("Show sent and cancelled").check();
  await expect(page.getByRole("table", { name: "Scheduled sends" }).getByRole("row").filter({ hasText: title }).first()).toContainText("cancelled");

  // Recurring: a bad expression is refused next to its field, before and by the API.
  const form = page.getByRole("form", { name: "New recurring schedule" });
  await form.getByLabel("Workflow").selectOption(wf);
  await form.getByLabel("Cron expression").fill("0 9 * *");
  await expect(form.getByText("cron must have 5 fields")).toBeVisible();
  await form.getByLabel("Time zone").fill("Mars/Base");
  await form.getByLabel("Recipients").fill("sam, sue");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Create schedule" }).click();
  await expect(form.getByLabel("Time zone")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText('timezone: unknown time zone "Mars/Base"')).toBeVisible();

  // Weekday mornings in Berlin: in words, with the next five runs, then created.
  await form.getByLabel("Cron expression").fill("0 9 * * MON-FRI");
  await form.getByLabel("Time zone").fill("Europe/Berlin");
  const preview = form.getByRole("group", { name: "Schedule preview" });
  await expect(preview).toContainText("At 09:00, Monday through Friday");
  await expect(preview.getByRole("list", { name: "Next five runs" }).getByRole("listitem")).toHaveCount(5);
  await shoot(page, "schedules-recurring");
  await form.getByRole("button", { name: "Create schedule" }).click();
  const rec = page.getByRole("table", { name: "Recurring schedules" }).getByRole("row").filter({ hasText: wf });
  await expect(rec).toContainText("active");
  await expect(rec).toContainText("users: sam, sue");

  // Pause, resume, pause again; the state survives a reload (it is the API's).
  await rec.getByRole("button", { name: `Pause the schedule of ${wf} (0 9 * * MON-FRI)` }).click();
  await expect(rec).toContainText("paused");
  await page.reload();
  const again = page.getByRole("table", { name: "Recurring schedules" }).getByRole("row").filter({ hasText: wf });
  await expect(again).toContainText("paused");
  await again.getByRole("button", { name: `Resume the schedule of ${wf} (0 9 * * MON-FRI)` }).click();
  await expect(again).toContainText("active");

  // Delete it.
  await again.getByRole("button", { name: `Delete the schedule of ${wf} (0 9 * * MON-FRI)` }).click();
  const del = page.getByRole("dialog", { name: `Delete the schedule of ${wf}?` });
  await del.getByRole("button", { name: "Delete the schedule" }).click();
  await expect(del).toBeHidden();
  await expect(page.getByText("No recurring schedules")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: wf })).toHaveCount(0);
  const left = await (await page.request.get(`/v1/apps/${shop()}/workflow-schedules`, { headers: auth })).json();
  expect(left.filter((s: { workflow: string }) => s.workflow === wf)).toEqual([]);
});

test("ops environments and analytics: a change is committed, published to a second app, sent there and counted", async ({ page }) => {
  const auth = await v1(page);
  const shopApp = await (await page.request.get(`/v1/apps/${shop()}`, { headers: auth })).json();
  const prodName = `Shop production ${Date.now()}`;
  const prodRes = await page.request.post(`/v1/clients/${shopApp.clientId}/apps`, { headers: auth, data: { name: prodName } });
  expect(prodRes.status()).toBe(201);
  const prod = await prodRes.json();
  // The change: a new template in Shop.
  const tpl = `order-shipped-${Date.now()}`;
  expect((await page.request.post(`/v1/apps/${shop()}/templates`, { headers: auth, data: { identifier: tpl } })).status()).toBe(201);

  await signIn(page, owner());
  await page.goto(`/apps/${shop()}/environments`);
  await expect(page.getByRole("heading", { name: "Environments", level: 1 })).toBeVisible();
  const diff = page.getByRole("group", { name: "Uncommitted changes" });
  await expect(diff.getByRole("region", { name: "Templates" }).getByRole("listitem").filter({ hasText: tpl })).toContainText("created");
  await shoot(page, "environments");

  // An empty message is refused next to its field; then committed.
  const commitForm = page.getByRole("form", { name: "Commit the changes" });
  expectFailedRequests(1);
  await commitForm.getByRole("button", { name: "Commit" }).click();
  await expect(commitForm.getByLabel("Commit message")).toHaveAttribute("aria-invalid", "true");
  const message = `Add ${tpl}`;
  await commitForm.getByLabel("Commit message").fill(message);
  await commitForm.getByRole("button", { name: "Commit" }).click();
  await expect(page.getByText("Nothing to commit")).toBeVisible();
  const commit = page.getByRole("list", { name: "Commits" }).getByRole("listitem", { name: new RegExp(`: ${message}$`) });
  await expect(commit).toBeVisible();

  // Publish to the second app, after the preview of what it brings.
  await commit.getByRole("button", { name: /^Publish commit #\d+$/ }).click();
  const dialog = page.getByRole("dialog", { name: /Publish commit #\d+/ });
  await dialog.getByLabel("Publish to").selectOption({ label: prodName });
  await expect(dialog.getByRole("group", { name: "What publishing changes" })).toContainText(tpl);
  await shoot(page, "environments-publish");
  await dialog.getByRole("button", { name: `Publish to ${prodName}` }).click();
  await expect(dialog).toBeHidden();
  await expect(commit).toContainText(`published to ${prodName}`);
  const prodTemplates = await (await page.request.get(`/v1/apps/${prod.id}/templates`, { headers: auth })).json();
  expect(JSON.stringify(prodTemplates)).toContain(tpl);

  // Send in production through the v3 API: three in-app messages, one of them to two users.
  const keys = await appKeys(page, auth, prod.id);
  for (const to of [["pia"], ["pat", "pol"]]) {
    const r = await page.request.post("/v3/notifications", { headers: keys, data: { notification: { title: "Shipped", message: "On its way" }, sendTo: { recipients: to } } });
    expect(r.status()).toBe(202);
  }
  // Delivered: the message logs of production show three in-app rows.
  await page.goto(`/apps/${prod.id}/logs`);
  const messages = page.getByRole("region", { name: "Messages" });
  // (The screen keeps its first answer for the same filters, so each look reloads it.)
  await expect
    .poll(async () => {
      await page.reload();
      await expect(page.getByRole("heading", { name: "Message logs" })).toBeVisible();
      await expect(messages.or(page.getByText("No messages match"))).toBeVisible();
      return messages.getByRole("row").filter({ hasText: "delivered" }).count();
    }, { message: "three delivered in-app messages in production's logs", timeout: 60_000 })
    .toBe(3);
  const logged = await messages.getByRole("row").filter({ hasText: "delivered" }).count();

  // Analytics of production: the same numbers, per day, channel and template.
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Analytics" }).click();
  await expect(page.getByRole("heading", { name: "Analytics", level: 1 })).toBeVisible();
  const totals = page.getByLabel("Totals");
  const stat = (name: string) => totals.getByLabel(name, { exact: true });
  await expect(stat("Sent")).toHaveText(String(logged));
  await expect(stat("Delivered")).toHaveText(String(logged));
  await expect(stat("Failed")).toHaveText("0");
  const inApp = page.getByRole("table", { name: "Channels" }).getByRole("row", { name: /inApp/ });
  await expect(inApp.getByRole("cell").nth(0)).toHaveText(String(logged));
  await expect(page.getByRole("img", { name: /Messages per day/ })).toBeVisible();
  await shoot(page, "analytics");

  // A range the API refuses shows its error next to the dates.
  expectFailedRequests(3);
  const range = page.getByRole("form", { name: "Date range" });
  await range.getByLabel("From").fill("2026-01-10");
  await range.getByLabel("To").fill("2026-01-01");
  await range.getByRole("button", { name: "Show" }).click();
  await expect(range.getByLabel("To")).toHaveAttribute("aria-invalid", "true");
  await expect(range.getByText("toDate must not be before fromDate")).toBeVisible();

  // Roll back: a second commit goes to production, then the first is published again.
  expect((await page.request.post(`/v1/apps/${shop()}/templates`, { headers: auth, data: { identifier: `${tpl}-extra` } })).status()).toBe(201);
  await page.goto(`/apps/${shop()}/environments`);
  const second = page.getByRole("form", { name: "Commit the changes" });
  await second.getByLabel("Commit message").fill(`Add ${tpl}-extra`);
  await second.getByRole("button", { name: "Commit" }).click();
  const commits = page.getByRole("list", { name: "Commits" });
  const latest = commits.getByRole("listitem", { name: new RegExp(`: Add ${tpl}-extra$`) });
  await latest.getByRole("button", { name: /^Publish commit/ }).click();
  let d = page.getByRole("dialog");
  await d.getByLabel("Publish to").selectOption({ label: prodName });
  await d.getByRole("button", { name: `Publish to ${prodName}` }).click();
  await expect(d).toBeHidden();
  await expect(latest).toContainText(`Running in ${prodName}`);
  const first = commits.getByRole("listitem", { name: new RegExp(`: Add ${tpl}$`) });
  await first.getByRole("button", { name: /^Publish commit/ }).click();
  d = page.getByRole("dialog");
  await d.getByLabel("Publish to").selectOption({ label: prodName });
  await expect(d).toContainText("rolls it back");
  // The preview is production's diff: the later template goes.
  await expect(d.getByRole("group", { name: "What publishing changes" }).getByRole("listitem").filter({ hasText: `${tpl}-extra` })).toContainText("deleted");
  await shoot(page, "environments-rollback");
  await d.getByRole("button", { name: `Roll ${prodName} back` }).click();
  await expect(d).toBeHidden();
  await expect(first).toContainText(`Running in ${prodName}`);
  const after = JSON.stringify(await (await page.request.get(`/v1/apps/${prod.id}/templates`, { headers: auth })).json());
  expect(after).toContain(`"${tpl}"`);
  expect(after).not.toContain(`${tpl}-extra`);
});

test("ops usage: usage against the plan, billing off and no licence", async ({ page }) => {
  await signIn(page, owner());
  await page.goto(`/apps/${shop()}/usage`);
  await expect(page.getByRole("heading", { name: "Usage and billing", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "Usage per app" }).getByRole("row", { name: /Shop/ }).first()).toBeVisible();
  await expect(page.getByText("Billing is off")).toBeVisible();
  await expect(page.getByRole("region", { name: "Licence" })).toContainText("No licence");
  await shoot(page, "usage");
});
