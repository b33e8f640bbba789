// Journeys of the topics screens: a topic made through the v3 API opens from the list and
// shows its subscribers (read by the app's viewer); an unknown topic shows a not-found state.
import { expect, shoot, signIn, test, type Page } from "./fixtures";

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

test("topic detail: a topic with two subscribers opens from the list and lists both; an unknown topic is not found", async ({ page }) => {
  const headers = await appKeys(page);
  const ident = `launches-${Date.now()}`;
  const made = await page.request.post("/v3/topics", { headers, data: { identifier: ident, name: "Product launches" } });
  expect(made.status()).toBe(201);
  const { id } = await made.json();
  const attached = await page.request.post(`/v3/topics/${id}/users`, {
    headers,
    data: { users: [{ identifier: `${ident}-ada` }, { identifier: `${ident}-bob`, channels: ["email", "inApp"] }] },
  });
  expect(attached.status()).toBe(200);

  // The app's viewer reads the topic's subscribers.
  await signIn(page, process.env.VIEWER_EMAIL!);
  await page.goto(`/apps/${shop()}/topics`);
  await expect(page.getByRole("heading", { name: "Topics" })).toBeVisible();
  await page.getByRole("row", { name: new RegExp(ident) }).getByRole("link", { name: "Product launches" }).click();
  await expect(page).toHaveURL(new RegExp(`/apps/${shop()}/topics/${ident}$`));
  await expect(page.getByRole("heading", { name: "Product launches", level: 1 })).toBeVisible();
  const subs = page.getByRole("table", { name: "Subscribers" });
  await expect(subs.getByRole("row")).toHaveCount(3); // the header and two subscribers
  await expect(subs.getByRole("row", { name: new RegExp(`${ident}-ada`) })).toContainText("All channels");
  await expect(subs.getByRole("row", { name: new RegExp(`${ident}-bob`) })).toContainText("Email, In-app");
  await expect(page.getByText("2 subscribers")).toBeVisible();
  await shoot(page, "topic-detail");

  // A subscriber links to the user's page; back, "← All topics" returns to the list.
  await subs.getByRole("link", { name: `${ident}-ada` }).click();
  await expect(page.getByRole("heading", { name: `${ident}-ada` })).toBeVisible();
  await page.goBack();
  await page.getByRole("link", { name: "← All topics" }).click();
  await expect(page.getByRole("heading", { name: "Topics" })).toBeVisible();

  await page.goto(`/apps/${shop()}/topics/no-such-topic-${Date.now()}`);
  await expect(page.getByRole("heading", { name: "Topic not found" })).toBeVisible();
  await expect(page.getByText("No such topic")).toBeVisible();
});

test("topic detail pages: 21 subscribers fill two pages; a topic nobody subscribed to shows the empty state", async ({ page }) => {
  const headers = await appKeys(page);
  const ident = `crowd-${Date.now()}`;
  const made = await page.request.post("/v3/topics", { headers, data: { identifier: ident, name: "Crowd" } });
  expect(made.status()).toBe(201);
  const { id } = await made.json();
  const users = Array.from({ length: 21 }, (_, i) => ({ identifier: `${ident}-${String(i).padStart(2, "0")}` }));
  expect((await page.request.post(`/v3/topics/${id}/users`, { headers, data: { users } })).status()).toBe(200);
  const quiet = `quiet-${Date.now()}`;
  expect((await page.request.post("/v3/topics", { headers, data: { identifier: quiet, name: "Quiet" } })).status()).toBe(201);

  await signIn(page, process.env.VIEWER_EMAIL!);
  await page.goto(`/apps/${shop()}/topics/${ident}`);
  const subs = page.getByRole("table", { name: "Subscribers" });
  await expect(page.getByText("21 subscribers")).toBeVisible();
  await expect(subs.getByRole("row")).toHaveCount(21); // the header and 20
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(subs.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();

  await page.getByRole("link", { name: "← All topics" }).click();
  await page.getByRole("row", { name: new RegExp(quiet) }).getByRole("link", { name: "Quiet" }).click();
  await expect(page.getByRole("heading", { name: "Quiet", level: 1 })).toBeVisible();
  await expect(page.getByText("No subscribers yet")).toBeVisible();
});
