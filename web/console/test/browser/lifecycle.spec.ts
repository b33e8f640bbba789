// The data lifecycle of issue 33 in the console: a user's data downloaded as JSON and the
// user deleted with all their data after a confirmation (user page), and the app's data
// retention edited in the settings.
import { readFileSync } from "node:fs";
import { expect, expectFailedRequests, shoot, signIn, test, type Page } from "./fixtures";

/** appCredentials reads the app's key and secret from Settings, as a developer would. */
async function appCredentials(page: Page, appId: string) {
  await page.goto(`/apps/${appId}/settings`);
  const key = (await page.getByLabel("API key", { exact: true }).textContent())?.trim();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByLabel("API secret", { exact: true })).not.toBeEmpty();
  const secret = (await page.getByLabel("API secret", { exact: true }).textContent())?.trim();
  return { "X-SERVICE-API-KEY": key!, "X-SERVICE-API-SECRET": secret! };
}

test("user data: the owner downloads a user's data as JSON, then deletes the user and their data after confirming", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  const appId = process.env.VIEWER_APP_ID!;
  const headers = await appCredentials(page, appId);
  const who = `forget-${Date.now()}`;
  const created = await page.request.put(`/v3/users/${who}`, { headers, data: { name: "Fern Forget", email: `${who}@example.com` } });
  expect(created.status()).toBe(200);

  await page.goto(`/apps/${appId}/users/${who}`);
  await expect(page.getByRole("heading", { name: who, level: 1 })).toBeVisible();
  const data = page.getByRole("region", { name: "Personal data" });
  const [download] = await Promise.all([page.waitForEvent("download"), data.getByRole("button", { name: "Download data (JSON)" }).click()]);
  expect(download.suggestedFilename()).toBe(`${who}-export.json`);
  const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
  expect(exported.user.identifier).toBe(who);
  expect(exported.user.profile.email).toBe(`${who}@example.com`);

  // Deleting asks first; dismissing keeps the user.
  await data.getByRole("button", { name: "Delete user and data" }).click();
  const dialog = page.getByRole("dialog", { name: `Delete ${who} and all their data?` });
  await expect(dialog).toContainText("It cannot be undone");
  await shoot(page, "user-erase-confirm");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Profile" })).toContainText(`${who}@example.com`);

  await data.getByRole("button", { name: "Delete user and data" }).click();
  await dialog.getByRole("button", { name: "Delete user and data" }).click();
  const done = page.getByRole("status").filter({ has: page.getByRole("heading", { name: `${who} was deleted` }) });
  await expect(done).toBeVisible();
  await expect(done.getByRole("list", { name: "What was erased" })).toContainText("0 inbox items");
  await shoot(page, "user-erased");

  // The user is gone: the developer API no longer finds it.
  const again = await page.request.delete(`/v3/users/${who}`, { headers });
  expect(again.status()).toBe(404);
  await done.getByRole("link", { name: "← All users" }).click();
  await expect(page.getByRole("heading", { name: "Users", level: 1 })).toBeVisible();
});

test("retention: the owner shortens how long message logs are kept; a value out of bounds is shown at its field", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  const appId = process.env.VIEWER_APP_ID!;
  await page.goto(`/apps/${appId}/settings`);
  const form = page.getByRole("form", { name: "Data retention" });
  const logs = form.getByLabel("Message logs (days)");
  await expect(logs).toHaveValue("90");
  await logs.fill("0");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Save retention" }).click();
  await expect(form.getByRole("alert")).toContainText("messageLogs must be between 1 and 3650 days");
  await logs.fill("14");
  await form.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText("Retention saved", { exact: true })).toBeVisible();
  await shoot(page, "settings-retention");
  await page.reload();
  await expect(page.getByRole("form", { name: "Data retention" }).getByLabel("Message logs (days)")).toHaveValue("14");
  // Emptied, the field returns to the default.
  await page.getByRole("form", { name: "Data retention" }).getByLabel("Message logs (days)").fill("");
  await page.getByRole("form", { name: "Data retention" }).getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByRole("form", { name: "Data retention" }).getByLabel("Message logs (days)")).toHaveValue("90");
});
