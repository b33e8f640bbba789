// Journeys of the categories, the user page (preferences, devices, inbox), the team's CLI
// tokens and usage, the message logs' provider filter and Temporal links, and channel
// routes. Data the console does not create is made through the API with page.request.
import { expect, expectFailedRequests, password, shoot, signIn, test, type Page } from "./fixtures";

const appId = process.env.VIEWER_APP_ID;
const owner = process.env.OWNER_EMAIL!;

/** appKeys reads the app's key and secret from Settings, as a developer would. */
async function appKeys(page: Page): Promise<Record<string, string>> {
  await page.goto(`/apps/${appId}/settings`);
  const key = (await page.getByLabel("API key", { exact: true }).textContent())?.trim();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByLabel("API secret", { exact: true })).not.toBeEmpty();
  const secret = (await page.getByLabel("API secret", { exact: true }).textContent())?.trim();
  return { "X-SERVICE-API-KEY": key!, "X-SERVICE-API-SECRET": secret! };
}

/** sessionToken signs in through the API (outside the page's session) for setting up data. */
async function sessionToken(page: Page, email: string): Promise<string> {
  const res = await page.request.post("/v1/auth?redirect=/", { data: { email, password } });
  expect(res.status()).toBe(200);
  return (await res.json()).accessToken;
}

test("categories: create with the API's errors next to the fields, rename, delete", async ({ page }) => {
  await signIn(page, owner);
  await page.goto(`/apps/${appId}/get-started`);
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Categories" }).click();
  await expect(page.getByRole("heading", { name: "Categories", level: 1 })).toBeVisible();

  // A bad identifier and no name: each error next to its field, nothing created.
  const form = page.getByRole("region", { name: "New category" });
  await form.getByLabel("Identifier").fill("not valid!");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Create category" }).click();
  await expect(form.getByText("identifier must be 1 to")).toBeVisible();
  await expect(form.getByText("name should not be empty")).toBeVisible();
  await expect(form.getByLabel("Identifier")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await shoot(page, "categories-errors");

  const ident = `promo-${Date.now()}`;
  await form.getByLabel("Name").fill("Promotions");
  await form.getByLabel("Identifier").fill(ident);
  await form.getByRole("button", { name: "Create category" }).click();
  const row = page.getByRole("row", { name: new RegExp(ident) });
  await expect(row).toContainText("Promotions");
  await expect(form.getByLabel("Identifier")).toHaveValue("");

  // Critical when created, with the explanation as its description; unmarked from its row.
  const codes = `codes-${Date.now()}`;
  await form.getByLabel("Name").fill("One-time codes");
  await form.getByLabel("Identifier").fill(codes);
  await expect(form.getByRole("checkbox", { name: "Critical" })).toHaveAccessibleDescription(/Critical notifications ignore opt-outs/);
  await form.getByRole("checkbox", { name: "Critical" }).check();
  await form.getByRole("button", { name: "Create category" }).click();
  const critical = page.getByRole("checkbox", { name: "Critical: One-time codes" });
  await expect(critical).toBeChecked();
  await expect(form.getByRole("checkbox", { name: "Critical" })).not.toBeChecked();
  await expect(row.getByRole("checkbox", { name: "Critical: Promotions" })).not.toBeChecked();
  const saved = page.waitForResponse((r) => r.url().includes("/v1/categories/") && r.request().method() === "PUT");
  await critical.uncheck();
  expect((await saved).ok()).toBeTruthy();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Critical: One-time codes" })).not.toBeChecked();
  const marked = page.waitForResponse((r) => r.url().includes("/v1/categories/") && r.request().method() === "PUT");
  await page.getByRole("checkbox", { name: "Critical: One-time codes" }).check();
  expect((await marked).ok()).toBeTruthy();
  await expect(page.getByRole("checkbox", { name: "Critical: One-time codes" })).toBeChecked();

  // Channel defaults: email and SMS start off for users who never chose; kept after a reload.
  await expect(row.getByRole("cell", { name: "All on" })).toBeVisible();
  await row.getByRole("button", { name: "Channel defaults of Promotions" }).click();
  const defaults = page.getByRole("dialog", { name: "Channel defaults of Promotions" });
  const startsOn = defaults.getByRole("group", { name: "Starts on" });
  await expect(startsOn.getByRole("checkbox", { name: "Email" })).toBeChecked();
  await startsOn.getByRole("checkbox", { name: "Email" }).uncheck();
  await startsOn.getByRole("checkbox", { name: "SMS" }).uncheck();
  await shoot(page, "category-defaults");
  await defaults.getByRole("button", { name: "Save defaults" }).click();
  await expect(defaults).toBeHidden();
  await expect(row).toContainText("Off: Email, SMS");
  await page.reload();
  await expect(page.getByRole("row", { name: new RegExp(ident) })).toContainText("Off: Email, SMS");
  await page.getByRole("row", { name: new RegExp(ident) }).getByRole("button", { name: "Channel defaults of Promotions" }).click();
  await expect(page.getByRole("dialog", { name: "Channel defaults of Promotions" }).getByRole("checkbox", { name: "SMS" })).not.toBeChecked();
  await page.keyboard.press("Escape");

  // The same identifier again: the conflict shows next to the identifier.
  await form.getByLabel("Name").fill("Again");
  await form.getByLabel("Identifier").fill(ident);
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Create category" }).click();
  await expect(form.getByText("already exists")).toBeVisible();
  await expect(form.getByLabel("Identifier")).toHaveAttribute("aria-invalid", "true");

  // Renamed in a dialog, then deleted after confirming.
  await row.getByRole("button", { name: "Rename Promotions" }).click();
  const rename = page.getByRole("dialog", { name: "Rename Promotions" });
  await rename.getByLabel("New name").fill("Deals");
  await rename.getByRole("button", { name: "Save name" }).click();
  await expect(rename).toBeHidden();
  await expect(row).toContainText("Deals");
  await shoot(page, "categories");
  await row.getByRole("button", { name: "Delete Deals" }).click();
  await page.getByRole("dialog", { name: "Delete Deals?" }).getByRole("button", { name: "Delete category" }).click();
  await expect(page.getByRole("row", { name: new RegExp(ident) })).toHaveCount(0);
});

test("user page: preferences changed from the matrix, the user's devices and inbox as tabs", async ({ page }) => {
  await signIn(page, owner);
  const headers = await appKeys(page);
  const who = `petra-${Date.now()}`;
  const category = `news-${Date.now()}`;
  // A category, a send in it (which creates the user), a device that connects.
  const made = await page.request.post("/v3/categories", { headers, data: { identifier: category, name: category } });
  expect(made.ok()).toBeTruthy();
  const sent = await page.request.post("/v3/notifications", {
    headers,
    data: { notification: { title: "Weekly news", message: "Five things this week", category }, sendTo: { recipients: [who] } },
  });
  expect(sent.status()).toBe(202);
  const connected = await page.request.post("/v3/sdk/connect", {
    headers: { "X-SERVICE-API-KEY": headers["X-SERVICE-API-KEY"]!, "X-SERVICE-USER-ID": who, "X-SERVICE-DEVICE-ID": "petra-laptop" },
    data: { deviceType: "browser" },
  });
  expect(connected.ok()).toBeTruthy();

  // A critical category, whose switches the user page shows locked.
  const alerts = `alerts-${Date.now()}`;
  const crit = await page.request.post("/v3/categories", { headers, data: { identifier: alerts, name: alerts, critical: true } });
  expect(crit.ok()).toBeTruthy();

  await page.goto(`/apps/${appId}/users/${who}`);
  await expect(page.getByRole("heading", { name: who, level: 1 })).toBeVisible();
  const prefs = page.getByRole("region", { name: "Preferences" });
  await expect(prefs).toContainText("the most specific switch set wins");

  // Channels as a whole: SMS off for everything, kept after a reload.
  const channels = prefs.getByRole("region", { name: "Channels" });
  const sms = channels.getByRole("switch", { name: "SMS for all notifications" });
  await expect(sms).toBeChecked();
  const smsSaved = page.waitForResponse((r) => r.url().endsWith("/preferences/channels") && r.request().method() === "PUT");
  await sms.uncheck();
  expect((await smsSaved).ok()).toBeTruthy();
  await expect(sms).not.toBeChecked();
  await expect(channels.getByRole("switch", { name: "Email for all notifications" })).toBeChecked();

  // Workflows: a switch per published workflow, or the empty state when the app has none
  // (other journeys publish workflows in this app, so either may be true here).
  const flows = prefs.getByRole("region", { name: "Workflows" });
  await expect(flows.getByRole("switch").first().or(flows.getByText("No published workflows"))).toBeVisible();

  const matrix = page.getByRole("table", { name: "Preferences by category and channel" });
  const locked = matrix.getByRole("checkbox", { name: `${alerts} on Email` });
  await expect(locked).toBeDisabled();
  await expect(locked).toBeChecked();
  await expect(locked).toHaveAccessibleDescription(/always delivered, whatever your preferences/);
  await expect(matrix.getByRole("row", { name: new RegExp(alerts) })).toContainText("Critical");
  const email = matrix.getByRole("checkbox", { name: `${category} on Email` });
  await expect(email).toBeChecked();
  await expect(matrix.getByRole("checkbox", { name: "Without a category on Email" })).toBeDisabled();
  await email.uncheck();
  await expect(email).not.toBeChecked();
  await expect(email).toBeEnabled();
  await shoot(page, "user-preferences");
  // Kept: read again after a reload.
  await page.reload();
  await expect(page.getByRole("switch", { name: "SMS for all notifications" })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: `${category} on Email` })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: `${category} on In-app` })).toBeChecked();

  // Devices: the connected browser.
  await page.getByRole("tab", { name: "Devices" }).click();
  await expect(page).toHaveURL(/tab=devices/);
  const devices = page.getByRole("table", { name: "Devices" });
  await expect(devices.getByRole("row", { name: /petra-laptop/ })).toContainText("browser");
  await shoot(page, "user-devices");

  // Inbox: the in-app notification, once the send is delivered.
  await page.getByRole("tab", { name: "Inbox" }).click();
  await expect
    .poll(async () => {
      await page.getByRole("tab", { name: "Devices" }).click();
      await page.getByRole("tab", { name: "Inbox" }).click();
      return page.getByRole("row", { name: /Weekly news/ }).count();
    }, { timeout: 45_000 }) // a real send through Temporal, as the widget's journeys wait for
    .toBe(1);
  const note = page.getByRole("row", { name: /Weekly news/ });
  await expect(note).toContainText("Five things this week");
  await expect(note).toContainText(category);
  await expect(note).toContainText("Unread");
  await shoot(page, "user-inbox");
});

test("user page: quiet hours set, refused with every problem listed, and removed", async ({ page }) => {
  await signIn(page, owner);
  const headers = await appKeys(page);
  const who = `quinn-${Date.now()}`;
  const made = await page.request.put(`/v3/users/${who}`, { headers, data: { email: `${who}@example.com` } });
  expect(made.ok()).toBeTruthy();
  await page.goto(`/apps/${appId}/users/${who}`);
  const quiet = page.getByRole("region", { name: "Quiet hours" });
  await expect(quiet.getByRole("status")).toHaveText("No quiet hours");
  const form = quiet.getByRole("form", { name: "Quiet hours" });

  // Every problem of a refused change is listed; nothing is saved.
  await form.getByLabel("From").fill("22:00:00");
  await form.getByLabel("Time zone (IANA)").fill("Mars/Olympus");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Save quiet hours" }).click();
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("start and end go together");
  await expect(alert).toContainText("timezone must be an IANA time zone name");
  await expect(quiet.getByRole("status")).toHaveText("No quiet hours");

  await form.getByLabel("Until").fill("07:00:00");
  await form.getByLabel("Time zone (IANA)").fill("Europe/Paris");
  await form.getByRole("group", { name: "Quiet all day on" }).getByLabel("Sunday").check();
  const saved = page.waitForResponse((r) => r.url().endsWith("/preferences/quiet-hours") && r.request().method() === "PUT");
  await form.getByRole("button", { name: "Save quiet hours" }).click();
  expect((await saved).ok()).toBeTruthy();
  await expect(quiet.getByRole("status")).toHaveText("Quiet 22:00–07:00, Sunday (Europe/Paris)");
  await shoot(page, "user-quiet-hours");
  await page.reload();
  await expect(page.getByRole("region", { name: "Quiet hours" }).getByRole("status")).toHaveText("Quiet 22:00–07:00, Sunday (Europe/Paris)");

  await page.getByRole("region", { name: "Quiet hours" }).getByRole("button", { name: "Remove quiet hours" }).click();
  await expect(page.getByRole("region", { name: "Quiet hours" }).getByRole("status")).toHaveText("No quiet hours");
});

test("team: a CLI token is shown once, works, and is revoked; usage against the plan", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, owner);
  await page.goto(`/apps/${appId}/team`);
  await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
  const usage = page.getByRole("region", { name: "Usage" });
  await expect(usage).toContainText(/notifications to \d+ recipients in \d{4}-\d{2}/);

  const tokens = page.getByRole("region", { name: "CLI tokens" });
  const name = `deploys-${Date.now()}`;
  await tokens.getByLabel("Token name").fill(name);
  await tokens.getByLabel("Token role").selectOption("viewer");
  await tokens.getByRole("button", { name: "Create token" }).click();
  const shown = tokens.getByLabel("New CLI token");
  await expect(shown).toHaveText(/^hcli_/);
  const token = (await shown.textContent())!.trim();
  await tokens.getByRole("button", { name: "Copy CLI token" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await expect(tokens.getByRole("row", { name: new RegExp(name) })).toContainText(token.slice(0, 11));
  await expect(tokens.getByRole("row", { name: new RegExp(name) })).toContainText("viewer");
  await shoot(page, "team-tokens");

  // The token calls the management API; once revoked it does not.
  const auth = { Authorization: `Bearer ${token}` };
  expect((await page.request.get("/v1/clients", { headers: auth })).status()).toBe(200);
  // Limited to viewer: the app's secret stays hidden from it.
  expect((await page.request.get(`/v1/apps/${appId}/secret`, { headers: auth })).status()).toBe(403);
  await tokens.getByRole("button", { name: "Done" }).click();
  await expect(shown).toHaveCount(0);
  await tokens.getByRole("button", { name: `Revoke the token ${name}` }).click();
  await page.getByRole("dialog", { name: `Revoke ${name}?` }).getByRole("button", { name: "Revoke token" }).click();
  await expect(tokens.getByRole("row", { name: new RegExp(name) })).toHaveCount(0);
  expect((await page.request.get("/v1/clients", { headers: auth })).status()).toBe(401);
});

test("message logs: each message links to its run in the Temporal Web UI; the provider filter", async ({ page }) => {
  await signIn(page, owner);
  const headers = await appKeys(page);
  const who = `lou-${Date.now()}`;
  const sent = await page.request.post("/v3/notifications", {
    headers,
    data: { notification: { title: "Logged", message: "A message for the log" }, sendTo: { recipients: [who] } },
  });
  expect(sent.status()).toBe(202);
  await page.goto(`/apps/${appId}/logs?user=${who}&channel=inApp`);
  await expect(page.getByRole("heading", { name: "Message logs" })).toBeVisible();
  const run = page.getByRole("row").filter({ hasText: who }).getByRole("link", { name: /^Run \w{8} in Temporal \(new tab\)$/ });
  // The row appears once the worker has delivered the send (the same filters do not refetch:
  // reload).
  await expect
    .poll(
      async () => {
        await page.reload();
        await expect(page.getByRole("heading", { name: "Message logs" })).toBeVisible();
        await expect(page.getByRole("status")).toHaveCount(0);
        return run.count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
  const href = await run.getAttribute("href");
  expect(href).toMatch(/^https:\/\/temporal-ui\.example\.com\/namespaces\/[^/]+\/workflows\/sends?%2F/);
  await expect(run).toHaveAttribute("target", "_blank");
  await shoot(page, "logs-temporal");

  // The provider filter goes to the URL and to the API: no in-app row has a provider.
  await page.getByLabel("Provider").selectOption("webhook");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/provider=webhook/);
  await expect(page.getByText("No messages match")).toBeVisible();
  await page.getByLabel("Provider").selectOption("");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(run).toHaveCount(1);
});

test("channels: instance priority, a failover route between two instances, enable and disable", async ({ page }) => {
  await signIn(page, owner);
  // Two SMTP instances made through the API.
  const tok = await sessionToken(page, owner);
  const stamp = Date.now();
  for (const name of [`Primary ${stamp}`, `Backup ${stamp}`]) {
    const made = await page.request.post(`/v1/apps/${appId}/channels/email/providerInstances`, {
      headers: { Authorization: `Bearer ${tok}` },
      data: { providerIdentifier: "smtp", name, config: { host: process.env.SMTP_HOST, port: Number(process.env.SMTP_PORT), from: "app@example.com" } },
    });
    expect(made.status()).toBe(201);
  }
  await page.goto(`/apps/${appId}/channels`);
  await expect(page.getByRole("heading", { name: "Channels and providers" })).toBeVisible();

  // Priority: saved on Enter, kept after a reload.
  const prio = page.getByLabel(`Priority of Backup ${stamp} (Email)`);
  await prio.fill("7");
  await prio.press("Enter");
  await expect(page.getByText(`Backup ${stamp}: priority saved`, { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(`Priority of Backup ${stamp} (Email)`)).toHaveValue("7");

  // A route without instances: the API's error next to the instances.
  const routes = page.getByRole("region", { name: "Routes: Email" });
  const form = routes.getByRole("form", { name: "New route on Email" });
  await form.getByLabel("Route name").fill(`Failover ${stamp}`);
  await form.getByLabel("First instance").selectOption("");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Add route" }).click();
  await expect(form.getByText("providerInstanceIds must contain at least 1 element")).toBeVisible();

  // Backup first, then Primary, failing over.
  await form.getByLabel("First instance").selectOption({ label: `Backup ${stamp}` });
  await form.getByLabel("Instance 2").selectOption({ label: `Primary ${stamp}` });
  await expect(form.getByLabel("Fail over to the next instance when one fails")).toBeChecked();
  await form.getByRole("button", { name: "Add route" }).click();
  const row = routes.getByRole("row", { name: new RegExp(`Failover ${stamp}`) });
  await expect(row).toContainText(`Backup ${stamp} → Primary ${stamp}`);
  await expect(row).toContainText("Enabled");
  await expect(row.getByRole("checkbox", { name: `Failover on route Failover ${stamp}` })).toBeChecked();
  await shoot(page, "channels-routes");

  // Disabled, failover off, then deleted.
  await row.getByRole("button", { name: `Disable route Failover ${stamp}` }).click();
  await expect(row).toContainText("Disabled");
  await row.getByRole("checkbox", { name: `Failover on route Failover ${stamp}` }).uncheck();
  await expect(row.getByRole("checkbox", { name: `Failover on route Failover ${stamp}` })).not.toBeChecked();
  await page.reload();
  const again = page.getByRole("region", { name: "Routes: Email" }).getByRole("row", { name: new RegExp(`Failover ${stamp}`) });
  await expect(again).toContainText("Disabled");
  await expect(again.getByRole("checkbox", { name: `Failover on route Failover ${stamp}` })).not.toBeChecked();
  await again.getByRole("button", { name: `Delete route Failover ${stamp}` }).click();
  await page.getByRole("dialog", { name: `Delete the route Failover ${stamp}?` }).getByRole("button", { name: "Delete route" }).click();
  await expect(page.getByRole("region", { name: "Routes: Email" }).getByRole("row", { name: new RegExp(`Failover ${stamp}`) })).toHaveCount(0);
});

// Run by TestConsoleCodeHostInChromium, whose stack has a code host configured (a fake of
// GitHub's OAuth); skipped elsewhere.
test("code host: a refusal shows its error; sign in with GitHub from the sign-in page", async ({ page }) => {
  test.skip(!process.env.CODEHOST_EMAIL, "needs the code-host stack of TestConsoleCodeHostInChromium");
  // The code host refused: its reason and a way back, no request made.
  await page.goto("/auth/codehost?error=access_denied&error_description=The+user+denied+access");
  await expect(page.getByRole("alert")).toContainText("The user denied access");
  await page.getByRole("link", { name: "Back to sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Herald" })).toBeVisible();

  const button = page.getByRole("button", { name: "Sign in with GitHub" });
  await expect(button).toBeVisible();
  await shoot(page, "signin-codehost");
  await button.click();
  // Back from the code host: a new account, signed in, onboarding.
  await expect(page.getByRole("heading", { name: "Welcome to Herald" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Account" })).toContainText(process.env.CODEHOST_EMAIL!);
});
