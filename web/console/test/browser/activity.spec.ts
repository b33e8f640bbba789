// The activity feed: two sends of a new app (a plain in-app notification and one through a
// published workflow) appear newest first; one expands to its recipients, channels, steps and
// outcomes; the user and status filters go to the URL and to the API; each request links to
// its run in the Temporal Web UI. Found by role and label only.
import { expect, password, shoot, signIn, test, type Page } from "./fixtures";

/** setup makes an app with a published workflow "welcome" (one in-app step) through the API
 * as the owner, so the journey changes no other journey's app. */
async function setup(page: Page) {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const headers = { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Activity ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number; apiKey: string; apiSecret: string };
  const definition = { steps: [{ id: "hello", type: "inApp", content: { title: "Welcome aboard" } }] };
  const wf = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "welcome", name: "Welcome", definition } });
  expect(wf.status(), await wf.text()).toBe(201);
  expect((await page.request.post(`/v1/apps/${app.id}/workflows/welcome/publish`, { headers })).status()).toBe(200);
  return app;
}

test("activity: two sends newest first, one expanded to its recipients, channels, steps and outcomes; user and status filters; the Temporal run", async ({ page }) => {
  const app = await setup(page);
  const keys = { "X-SERVICE-API-KEY": app.apiKey, "X-SERVICE-API-SECRET": app.apiSecret };
  const ann = `ann-${Date.now()}`;
  const ben = `ben-${Date.now()}`;
  const plain = await page.request.post("/v3/notifications", {
    headers: keys,
    data: { notification: { title: "Plain hello", message: "Hi" }, sendTo: { recipients: [ann] } },
  });
  expect(plain.status(), await plain.text()).toBe(202);
  const flow = await page.request.post("/v3/notifications", {
    headers: keys,
    data: { notification: { workflow: { identifier: "welcome" } }, sendTo: { recipients: [ben] } },
  });
  expect(flow.status(), await flow.text()).toBe(202);
  const flowId = ((await flow.json()) as { requestId: string }).requestId;

  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/get-started`);
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
  const requests = page.getByRole("region", { name: "Requests" });
  const toggles = requests.getByRole("button", { expanded: false });
  // Both appear at once (accepted); they complete once the worker has delivered them (the
  // same filters do not refetch: reload).
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(requests.or(page.getByText("No requests match"))).toBeVisible();
        return requests.getByRole("row").filter({ hasText: "completed" }).count();
      },
      { message: "both sends completed", timeout: 60_000 },
    )
    .toBe(2);
  // Newest first: the workflow send, then the plain one.
  await expect(toggles).toHaveCount(2);
  await expect(toggles.nth(0)).toHaveAccessibleName(new RegExp(`^${flowId.slice(-8)} workflow welcome$`));
  await expect(toggles.nth(1)).toHaveAccessibleName(/ “Plain hello”$/);

  // Expand the workflow send: its recipient, channel, step and outcome, and the run's steps.
  const toggle = requests.getByRole("button", { name: /workflow welcome$/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const detail = page.getByRole("region", { name: `Request ${flowId.slice(-8)}` });
  const message = detail.getByRole("table", { name: /^Messages of request/ }).getByRole("row", { name: new RegExp(ben) });
  await expect(message).toContainText("inApp");
  await expect(message).toContainText("hello");
  await expect(message).toContainText("delivered");
  await expect(detail.getByRole("heading", { name: new RegExp(`${ben}’s run of welcome`) })).toBeVisible();
  const steps = detail.getByRole("list", { name: `Steps of ${ben}’s run` });
  await expect(steps.getByRole("listitem").filter({ hasText: "hello" })).toContainText("sent");
  const run = detail.getByRole("link", { name: `${ben}’s run in Temporal (new tab)` });
  expect(await run.getAttribute("href")).toMatch(/^https:\/\/temporal-ui\.example\.com\/namespaces\/[^/]+\/workflows\/flow%2Fwelcome%2F/);
  await shoot(page, "activity");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(detail).toHaveCount(0);

  // The request's own link opens the workflow that carried it, in a new tab.
  const carried = requests.getByRole("link", { name: `Run of request ${flowId.slice(-8)} in Temporal (new tab)` });
  expect(await carried.getAttribute("href")).toMatch(/^https:\/\/temporal-ui\.example\.com\/namespaces\/[^/]+\/workflows\/sends?%2F/);
  await expect(carried).toHaveAttribute("target", "_blank");

  // Filter by user: the URL keeps it, only that user's send is listed.
  const filters = page.getByRole("form", { name: "Filters" });
  await filters.getByLabel("User").fill(ann);
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(new RegExp(`user=${ann}`));
  await expect(toggles).toHaveCount(1);
  await expect(toggles.first()).toHaveAccessibleName(/ “Plain hello”$/);

  // By status: none failed; both completed. A reload keeps the filters.
  await filters.getByLabel("User").fill("");
  await filters.getByLabel("Status").selectOption("failed");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByText("No requests match")).toBeVisible();
  await shoot(page, "activity-empty");
  await filters.getByLabel("Status").selectOption("completed");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await page.reload();
  await expect(filters.getByLabel("Status")).toHaveValue("completed");
  await expect(toggles).toHaveCount(2);

  // By workflow: only the send that named it.
  await filters.getByLabel("Workflow").selectOption("welcome");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/workflow=welcome/);
  await expect(toggles).toHaveCount(1);
  await expect(toggles.first()).toHaveAccessibleName(/workflow welcome$/);
});
