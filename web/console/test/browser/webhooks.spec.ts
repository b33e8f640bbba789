// Journeys of the webhooks screens: a developer (the owner) adds an endpoint, copies its
// secret, which is shown once; an event of the app reaches it and its delivery log shows
// the attempt; the viewer reads the endpoints but cannot add one.
import { expect, shoot, signIn, side, test, type Page } from "./fixtures";

const shop = () => process.env.VIEWER_APP_ID!;

/** appKeys reads the shop app's key and secret through the management API, as the owner. */
async function appKeys(page: Page) {
  const res = await page.request.post("/v1/auth?redirect=/apps", { data: { email: process.env.OWNER_EMAIL!, password: process.env.CONSOLE_PASSWORD! } });
  expect(res.status(), await res.text()).toBe(200);
  const auth = { Authorization: `Bearer ${(await res.json()).accessToken}` };
  const app = await (await page.request.get(`/v1/apps/${shop()}`, { headers: auth })).json();
  const sec = await page.request.get(`/v1/apps/${shop()}/secret`, { headers: auth });
  expect(sec.status()).toBe(200);
  return { "X-SERVICE-API-KEY": app.apiKey as string, "X-SERVICE-API-SECRET": (await sec.json()).apiSecret as string };
}

test("webhooks: add an endpoint, its secret shown once, an event delivered and logged; the viewer only reads", async ({ page }) => {
  const url = `${side}/hooks/${Date.now()}`;
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${shop()}/get-started`);
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  const form = page.getByRole("region", { name: "New endpoint" });
  await form.getByLabel("Endpoint URL").fill(url);
  await form.getByLabel("Description").fill("Journey receiver");
  await form.getByRole("group", { name: "Messages" }).getByRole("checkbox", { name: "message.delivered" }).check();
  await form.getByRole("group", { name: "In-app notifications" }).getByRole("checkbox", { name: "notification.read" }).check();
  await form.getByRole("group", { name: "Channels" }).getByRole("checkbox", { name: "In-app" }).check();
  await form.getByRole("button", { name: "Add endpoint" }).click();

  // The secret, once: shown with a copy button, gone after Done and nowhere on the list.
  const once = page.getByRole("region", { name: "Signing secret" });
  await expect(once.getByLabel("Secret", { exact: true })).toHaveText(/^whsec_[A-Za-z0-9+/=]{40,}$/);
  const secret = (await once.getByLabel("Secret", { exact: true }).textContent())!;
  await expect(once.getByRole("button", { name: /Copy/ })).toBeVisible();
  await shoot(page, "webhooks-secret");
  await once.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("region", { name: "Signing secret" })).toHaveCount(0);
  const row = page.getByRole("table").getByRole("row", { name: new RegExp(url) });
  await expect(row).toContainText("Enabled");
  await page.reload();
  await expect(page.getByText(secret)).toHaveCount(0);

  // An in-app send of the app is an event the endpoint subscribed to (message.delivered: in-app rows are written delivered).
  const headers = await appKeys(page);
  const sent = await page.request.post("/v3/notifications", {
    headers,
    data: { notification: { title: "Webhook journey", message: "hello" }, sendTo: { recipients: [`hook-${Date.now()}`] }, override: { channels: ["inApp"] } },
  });
  expect(sent.status()).toBe(202);

  await page.getByRole("table").getByRole("link", { name: url }).click();
  await expect(page.getByRole("heading", { name: url, level: 1 })).toBeVisible();
  const log = page.getByRole("region", { name: "Delivery log" });
  const delivery = log.getByRole("row", { name: /message\.delivered/ });
  await expect(delivery).toContainText("succeeded", { timeout: 60_000 });
  await expect(delivery).toContainText("HTTP 200");
  await delivery.getByText("HTTP 200", { exact: true }).click();
  await expect(delivery.getByText('{"received":true}')).toBeVisible();
  await shoot(page, "webhook-log");

  // Resend it: queued again, and delivered again with the same id.
  await delivery.getByRole("button", { name: /^Resend message\.delivered/ }).click();
  await expect(page.getByText("message.delivered queued again", { exact: true })).toBeVisible();
  await expect(delivery.getByRole("listitem")).toHaveCount(2, { timeout: 60_000 }); // two attempts logged
  await expect(delivery).toContainText("succeeded");

  // Disable it, then enable it again.
  await page.getByRole("button", { name: "Disable endpoint" }).click();
  await expect(page.getByText("Disabled: events are neither recorded nor sent.")).toBeVisible();
  await page.getByRole("button", { name: "Enable endpoint" }).click();
  await expect(page.getByText("Enabled: events are recorded and sent.")).toBeVisible();

  // The viewer sees the endpoint, without the form.
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByLabel("Email")).toBeVisible();
  await signIn(page, process.env.VIEWER_EMAIL!);
  await page.goto(`/apps/${shop()}/webhooks`);
  await expect(page.getByRole("table").getByRole("row", { name: new RegExp(url) })).toBeVisible();
  await expect(page.getByRole("region", { name: "New endpoint" })).toHaveCount(0);
});
