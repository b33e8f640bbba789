// The console's journeys in Chromium, found by role and label as a user (or a screen
// reader) finds them. Every test fails on any error in the browser console (fixtures.ts).
import { expect, expectFailedRequests, link, mail, password, shoot, side, signIn, test } from "./fixtures";

test("sign up, verify from the email, sign in, create a team and apps, send the first notification", async ({ page }) => {
  const email = `newcomer-${Date.now()}@example.com`;
  await page.goto("/signin");
  await expect(page.getByRole("heading", { name: "Sign in to Herald" })).toBeVisible();
  await shoot(page, "signin");
  await page.getByRole("link", { name: "Create an account" }).click();

  await expect(page.getByRole("heading", { name: "Create your Herald account" })).toBeVisible();
  // The API's errors appear next to the fields they name.
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password").fill("short");
  expectFailedRequests(1);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("email must be an email address")).toBeVisible();
  await expect(page.getByText("password must be at least 8 characters")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await shoot(page, "signup-errors");

  await page.getByLabel("Name").fill("Nia Newcomer");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await shoot(page, "verify");

  // The code from the email, typed in.
  const { subject, body } = await mail(page, email, "verificationCode=");
  expect(subject).toContain("Verify");
  const verifyPath = link(body, "verificationCode");
  expect(verifyPath.startsWith("/verify?")).toBeTruthy();
  const code = new URL(verifyPath, "http://x").searchParams.get("verificationCode")!;
  await page.getByLabel("Verification code").fill(code);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Verify email" }).click();
  await expect(page.getByRole("heading", { name: "Email verified" })).toBeVisible();
  await page.getByRole("link", { name: "Continue to sign in" }).click();

  await expect(page.getByLabel("Email")).toHaveValue(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();

  // Onboarding: a team, then its apps.
  await expect(page.getByRole("heading", { name: "Welcome to Herald" })).toBeVisible();
  await shoot(page, "onboarding-team");
  await page.getByLabel("Team name").fill("Nia's team");
  await page.getByRole("button", { name: "Create team" }).click();
  await expect(page.getByRole("heading", { name: "Create your apps" })).toBeVisible();
  await shoot(page, "onboarding-apps");
  await page.getByRole("button", { name: "Create apps" }).click();

  // Send your first notification: the real key and secret in the snippet.
  await expect(page.getByRole("heading", { name: "Send your first notification" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Team: Nia's team" })).toBeVisible();
  const curl = (await page.getByLabel("curl command", { exact: true }).textContent()) ?? "";
  const key = curl.match(/X-SERVICE-API-KEY: (\S+)"/)?.[1];
  const secret = curl.match(/X-SERVICE-API-SECRET: (\S+)"/)?.[1];
  expect(key).toBeTruthy();
  expect(secret && !secret.startsWith("$")).toBeTruthy();
  await expect(page.getByRole("heading", { name: "Waiting for your first notification…" })).toBeVisible();
  await shoot(page, "get-started");
  // A tab for each SDK beside curl: its install command and the program, each with a copy
  // button, the app's key and secret written in (integration/sdk/snippets_test.go runs them).
  const sdks = [
    { tab: "Go", install: "go mod init first-send && go get github.com/heraldhq/herald/sdk/go", key: `herald.WithAPIKey("${key}")`, shot: "get-started-go" },
    { tab: "Node.js", install: "npm install @heraldhq/node", key: `apiKey: "${key}"`, shot: "get-started-node" },
    { tab: "Python", install: "pip install herald-sdk", key: `api_key="${key}"`, shot: "get-started-python" },
  ];
  for (const sdk of sdks) {
    await page.getByRole("tab", { name: sdk.tab, exact: true }).click();
    await expect(page.getByRole("tab", { name: sdk.tab, exact: true })).toHaveAttribute("aria-selected", "true");
    const panel = page.getByRole("tabpanel", { name: sdk.tab, exact: true });
    await expect(panel.getByLabel(`${sdk.tab} install command`, { exact: true })).toHaveText(sdk.install);
    await expect(panel.getByRole("button", { name: `Copy ${sdk.tab} install command` })).toBeVisible();
    await expect(panel.getByLabel(`${sdk.tab} snippet`, { exact: true })).toContainText(sdk.key);
    await expect(panel.getByLabel(`${sdk.tab} snippet`, { exact: true })).toContainText(secret!);
    await expect(panel.getByRole("button", { name: `Copy ${sdk.tab} snippet` })).toBeVisible();
    if (sdk.tab !== "Node.js") await shoot(page, sdk.shot);
  }
  // The copy button puts the program on the clipboard as shown.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy Python snippet" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await page.getByLabel("Python snippet", { exact: true }).textContent());
  // Arrow keys move between the tabs.
  await page.getByRole("tab", { name: "Python", exact: true }).focus();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Node.js", exact: true })).toBeFocused();
  // One key at a time: each press moves (and, with automatic activation, selects) a tab,
  // so the next waits for its focus.
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Python", exact: true })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "curl", exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("tab", { name: "curl", exact: true })).toHaveAttribute("aria-selected", "true");

  // Run the snippet's request: the check turns green.
  const sent = await page.request.post("/v3/notifications", {
    headers: { "X-SERVICE-API-KEY": key!, "X-SERVICE-API-SECRET": secret! },
    data: { notification: { title: "Welcome to Herald", message: "Your first notification" }, sendTo: { recipients: ["first-user"] } },
  });
  expect(sent.status()).toBe(202);
  await expect(page.getByRole("heading", { name: "First notification received" })).toBeVisible();
  await shoot(page, "get-started-done");

  // Message logs: the send's in-app row, and an empty result for another channel.
  await page.getByRole("link", { name: "Message logs" }).click();
  await expect(page.getByRole("heading", { name: "Message logs" })).toBeVisible();
  await expect
    .poll(async () => {
      await page.getByRole("button", { name: "Apply filters" }).click();
      return page.getByRole("cell", { name: "first-user" }).count();
    })
    .toBeGreaterThan(0);
  await expect(page.getByRole("row").filter({ hasText: "first-user" }).getByRole("cell", { name: "inApp" })).toBeVisible();
  await shoot(page, "logs");
  await page.getByLabel("Channel").selectOption("email");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No messages match")).toBeVisible();
  await expect(page).toHaveURL(/channel=email/);

  // Settings: the key, the secret on demand, the widget's origins.
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByLabel("API key", { exact: true })).toHaveText(key!);
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByLabel("API secret", { exact: true })).toHaveText(secret!);
  await page.getByLabel("Allowed origins").fill("not an origin");
  expectFailedRequests(1);
  await page.getByRole("button", { name: "Save origins" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "allowedOrigins" })).toBeVisible();
  await page.getByLabel("Allowed origins").fill("https://app.example.com, http://localhost:3000");
  await page.getByRole("button", { name: "Save origins" }).click();
  await expect(page.getByText("Allowed origins saved").first()).toBeVisible();

  // Secure mode: turning it on needs a signing key; the private key is shown once.
  await expect(page.getByText("Secure mode is off. No signing key yet.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Turn secure mode on" })).toBeDisabled();
  await page.getByRole("button", { name: "Generate a signing key" }).click();
  await expect(page.getByLabel("Private key", { exact: true })).toContainText("PRIVATE KEY");
  await shoot(page, "secure-mode-key");
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByLabel("Private key", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Turn secure mode on" }).click();
  await expect(page.getByText("Secure mode is on. A signing key is set.")).toBeVisible();
  await page.getByLabel("User for a test token").fill("first-user");
  await page.getByRole("button", { name: "Create test token" }).click();
  await expect(page.getByLabel("Test token", { exact: true })).toHaveText(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  // Replacing the key asks first.
  await page.getByRole("button", { name: "Generate a new signing key" }).click();
  await expect(page.getByRole("dialog", { name: "Replace the signing key?" })).toBeVisible();
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Turn secure mode off" }).click();
  await expect(page.getByText("Secure mode is off. A signing key is set.")).toBeVisible();
  await shoot(page, "settings");

  // The session survives a reload (refresh cookie); the access token was only in memory.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByLabel("Allowed origins")).toHaveValue("https://app.example.com, http://localhost:3000");
  expect(await page.evaluate(() => document.cookie)).toBe("");

  // Team.
  await page.getByRole("link", { name: "Team" }).click();
  await expect(page.getByRole("cell", { name: email })).toBeVisible();
  await expect(page.getByText("No pending invitations")).toBeVisible();
  await page.getByLabel("Email addresses").fill("colleague@example.com");
  await page.getByRole("button", { name: "Send invitations" }).click();
  await expect(page.getByRole("button", { name: "Revoke the invitation of colleague@example.com" })).toBeVisible();
  await shoot(page, "team");

  // Keyboard: the app switcher opens and lists both apps.
  await page.getByRole("button", { name: /^App: / }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("menuitem", { name: "Production" })).toBeVisible();
  await page.keyboard.press("Escape");

  // Sign out ends the session on the server: a reload lands on sign-in.
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Herald" })).toBeVisible();
  await page.goto("/apps/1/settings");
  await expect(page.getByRole("heading", { name: "Sign in to Herald" })).toBeVisible();
});

test("a viewer sees the key but not the secret", async ({ page }) => {
  // At the narrowest supported width.
  await page.setViewportSize({ width: 1024, height: 700 });
  await signIn(page, process.env.VIEWER_EMAIL!);
  await page.goto(`/apps/${process.env.VIEWER_APP_ID}/settings`);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expect(page.getByLabel("API key", { exact: true })).not.toBeEmpty();
  await expect(page.getByText("Only admins and owners of the team can see the secret.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Reveal secret" })).toHaveCount(0);
  await expect(page.getByLabel("Allowed origins")).toBeDisabled();
  await shoot(page, "viewer-settings-1024");
  await page.getByRole("link", { name: "Get started" }).click();
  await expect(page.getByRole("note")).toContainText("cannot see this app's API secret");
  await expect(page.getByLabel("curl command", { exact: true })).toContainText('-H "X-SERVICE-API-SECRET: $HERALD_API_SECRET"');
  await shoot(page, "viewer-get-started");
  // The SDK programs leave the secret to the SDK, which reads HERALD_API_SECRET.
  await page.getByRole("tab", { name: "Go", exact: true }).click();
  await expect(page.getByLabel("Go snippet", { exact: true })).toContainText("// The API secret: from HERALD_API_SECRET.");
  await expect(page.getByLabel("Go snippet", { exact: true })).not.toContainText("WithAPISecret");
  // Channels: the catalogue and the instances, without the buttons that change them.
  await page.getByRole("link", { name: "Channels" }).click();
  const catalogue = page.getByRole("region", { name: "Provider catalogue" });
  await expect(catalogue.getByText("smtp", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /^(Add|Test the connection|Disable|Enable) / })).toHaveCount(0);
});

test("an app without secure mode is marked Not secure, and its settings say what secure mode takes", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${process.env.VIEWER_APP_ID}/settings`);
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  const badge = /^Not secure: anyone with the app's public API key can act as any of its users$/;
  // The app page: the app switcher names it, and the secure mode section shows the badge.
  await expect(page.getByRole("button", { name: "App: Shop, not secure" })).toBeVisible();
  const secure = page.getByRole("region", { name: "Secure mode" });
  await expect(secure.getByRole("img", { name: badge })).toBeVisible();
  const steps = secure.getByRole("region", { name: "What turning on secure mode takes" });
  await expect(steps).toContainText("Anyone with its API key");
  await expect(steps.getByRole("listitem")).toHaveText([
    /Generate the signing key pair/,
    /Sign a JWT for each signed-in user on your backend: RS256 .* an exp/,
    /Pass the token to the inbox widget/,
    /Turn secure mode on/,
  ]);
  await shoot(page, "app-not-secure");
  // The app list: the switcher's menu marks the app.
  await page.getByRole("button", { name: "App: Shop, not secure" }).click();
  const item = page.getByRole("menuitem", { name: /^Shop/ });
  await expect(item.getByRole("img", { name: badge })).toBeVisible();
  await page.keyboard.press("Escape");
});

test("two-factor challenge at sign-in", async ({ page }) => {
  await signIn(page, process.env.TWOFACTOR_EMAIL!, password, false);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await shoot(page, "two-factor");
  await page.getByLabel("Authentication code").fill("000000");
  expectFailedRequests(1);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  const code = await (await page.request.get(`${side}/totp`)).text();
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Account" })).toBeVisible();
});

test("password reset from the emailed link", async ({ page }) => {
  const email = process.env.RESET_EMAIL!;
  await page.goto("/signin");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText("we emailed it a link");
  await shoot(page, "forgot-password");
  const { body } = await mail(page, email, "resetCode=");
  await page.goto(link(body, "resetCode"));
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password").fill("a brand new password");
  await page.getByRole("button", { name: "Set password" }).click();
  await expect(page.getByRole("status")).toContainText("password is changed");
  await signIn(page, email, "a brand new password");
});

test("an invitation sent from the console is accepted from the email link", async ({ page }) => {
  const invitee = process.env.INVITEE_EMAIL!;
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${process.env.VIEWER_APP_ID}/team`);
  await page.getByLabel("Email addresses").fill(invitee);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Send invitations" }).click();
  await expect(page.getByRole("button", { name: `Revoke the invitation of ${invitee}` })).toBeVisible();
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Herald" })).toBeVisible();

  const { body } = await mail(page, invitee, "/invitations/");
  const m = body.match(/https?:\/\/\S+\/invitations\/[A-Za-z0-9_-]+/);
  expect(m).toBeTruthy();
  await page.goto(new URL(m![0]).pathname);
  await expect(page.getByRole("heading", { name: "Join Acme" })).toBeVisible();
  await shoot(page, "invitation");
  await page.getByRole("link", { name: "Sign in to accept" }).click();
  await expect(page.getByLabel("Email")).toHaveValue(invitee);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByRole("heading", { name: "Send your first notification" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Team: Acme" })).toBeVisible();
  // A developer: no secret.
  await expect(page.getByRole("note")).toContainText("cannot see this app's API secret");
});

test("two-factor set-up with the QR code, recovery codes, and a sign-in with one", async ({ page }) => {
  const email = process.env.SETUP_EMAIL!;
  await signIn(page, email);
  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Account and security" }).click();
  await expect(page.getByRole("heading", { name: "Your account" })).toBeVisible();
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code of your two-factor secret" })).toBeVisible();
  const key = (await page.getByLabel("Two-factor key", { exact: true }).textContent())!.trim();
  await shoot(page, "two-factor-setup");
  const code = await (await page.request.get(`${side}/totp?secret=${encodeURIComponent(key)}`)).text();
  await page.getByLabel("Code from the app").fill(code);
  await page.getByRole("button", { name: "Turn on" }).click();
  const list = page.getByRole("list", { name: "Recovery codes" });
  await expect(list.getByRole("listitem").first()).toBeVisible();
  const recovery = (await list.getByRole("listitem").first().textContent())!.trim();
  await shoot(page, "recovery-codes");
  await page.getByRole("button", { name: "I saved them" }).click();
  await expect(page.getByRole("button", { name: "Turn off two-factor authentication" })).toBeVisible();

  await page.getByRole("button", { name: "Account" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  // Wait for the sign-out's answer (it clears the refresh cookie) before loading a page:
  // navigating sooner presents the revoked session's cookie, which the API answers 401.
  await expect(page.getByRole("heading", { name: "Sign in to Herald" })).toBeVisible();
  await signIn(page, email, password, false);
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await page.getByRole("button", { name: "Use a recovery code instead" }).click();
  await page.getByLabel("Recovery code").fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("button", { name: "Account" })).toBeVisible();
});

test("channels: SMTP at the test's server passes its connection test; a bad form names its fields", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${process.env.VIEWER_APP_ID}/channels`);
  await expect(page.getByRole("heading", { name: "Channels and providers" })).toBeVisible();
  await expect(page.getByText("No provider is configured yet")).toBeVisible();
  const catalogue = page.getByRole("region", { name: "Provider catalogue" });
  await expect(catalogue.getByRole("heading", { name: "SMS" })).toBeVisible();
  await catalogue.getByRole("button", { name: "Add SMTP on Email" }).click();
  const form = page.getByRole("form", { name: "Add SMTP on Email" });

  // A bad form: every problem the API names appears under its field; nothing is saved.
  await expect(form.getByLabel("Password", { exact: true })).toHaveAttribute("type", "password");
  await form.getByLabel("Port").fill("0");
  await form.getByLabel("From address *").fill("not-an-email");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByLabel("Host *")).toHaveAccessibleDescription(/config\.host is required/);
  await expect(form.getByLabel("Port")).toHaveAccessibleDescription(/config\.port must/);
  await expect(form.getByLabel("From address *")).toHaveAccessibleDescription(/config\.from must/);
  await expect(form.getByLabel("Host *")).toHaveAttribute("aria-invalid", "true");
  await shoot(page, "channels-form-errors");

  // Fixed, tested against the real SMTP server, saved.
  await form.getByLabel("Name", { exact: true }).fill("Relay");
  await form.getByLabel("Host *").fill(process.env.SMTP_HOST!);
  await form.getByLabel("Port").fill(process.env.SMTP_PORT!);
  await form.getByLabel("Connection security").selectOption("none");
  await form.getByLabel("From address *").fill("alerts@example.com");
  await form.getByRole("button", { name: "Test connection and save" }).click();
  await expect(page.getByText("Connection test passed: Relay is saved", { exact: true })).toBeVisible();
  await expect(form).toBeHidden();
  const row = page.getByRole("row", { name: /Relay/ });
  await expect(row).toContainText("SMTP");
  await expect(row).toContainText("Enabled");

  // The saved instance's own test, then disable and enable again.
  await page.getByRole("button", { name: "Test the connection of Relay (Email)" }).click();
  await expect(row.getByRole("status")).toHaveText("Connection test passed");
  await page.getByRole("button", { name: "Disable Relay (Email)" }).click();
  await expect(row).toContainText("Disabled");
  await expect(page.getByRole("button", { name: "Enable Relay (Email)" })).toBeFocused();
  await page.keyboard.press("Enter"); // keyboard: the focused button, now "Enable"
  await expect(row).toContainText("Enabled");
  await expect(page.getByRole("button", { name: "Disable Relay (Email)" })).toBeFocused();

  // Saved without a test at a port where nothing listens: its test shows the failure.
  await catalogue.getByRole("button", { name: "Add SMTP on Email" }).click();
  await form.getByLabel("Name", { exact: true }).fill("Dead relay");
  await form.getByLabel("Host *").fill(process.env.SMTP_HOST!);
  await form.getByLabel("Port").fill("1");
  await form.getByLabel("Connection security").selectOption("none");
  await form.getByLabel("From address *").fill("alerts@example.com");
  await form.getByRole("button", { name: "Save", exact: true }).click();
  const dead = page.getByRole("row", { name: /Dead relay/ });
  await expect(dead).toContainText("Enabled");
  expectFailedRequests(1);
  await page.getByRole("button", { name: "Test the connection of Dead relay (Email)" }).click();
  await expect(dead.getByRole("alert")).toContainText("connection test failed");
  await shoot(page, "channels");
});

test("users: a user sent a notification through the v3 API is found by search and opened; no match shows the empty state", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  const appId = process.env.VIEWER_APP_ID;
  // The app's key and secret, read from Settings as a developer would.
  await page.goto(`/apps/${appId}/settings`);
  const key = (await page.getByLabel("API key", { exact: true }).textContent())?.trim();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByLabel("API secret", { exact: true })).not.toBeEmpty();
  const secret = (await page.getByLabel("API secret", { exact: true }).textContent())?.trim();
  const who = `ursula-${Date.now()}`;
  const sent = await page.request.post("/v3/notifications", {
    headers: { "X-SERVICE-API-KEY": key!, "X-SERVICE-API-SECRET": secret! },
    data: {
      notification: { title: "Your order shipped", message: "It arrives on Friday" },
      sendTo: { recipients: [{ identifier: who, name: "Ursula Usher", email: `${who}@example.com` }] },
    },
  });
  expect(sent.status()).toBe(202);

  // Found by a prefix of the identifier (the user is created as the send is accepted).
  await page.getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();
  const search = page.getByRole("search", { name: "Search users" });
  await search.getByLabel("Identifier starts with").fill(who.slice(0, -3));
  await expect
    .poll(async () => {
      await search.getByRole("button", { name: "Search" }).click();
      return page.getByRole("link", { name: who }).count();
    })
    .toBe(1);
  await expect(page).toHaveURL(/q=ursula-/);
  await expect(page.getByRole("row", { name: new RegExp(who) })).toContainText("Ursula Usher");
  await shoot(page, "users");

  // Opened with the keyboard: the profile and the preference matrix.
  await page.getByRole("link", { name: who }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: who, level: 1 })).toBeVisible();
  const profile = page.getByRole("region", { name: "Profile" });
  await expect(profile.getByRole("definition").filter({ hasText: "Ursula Usher" })).toBeVisible();
  await expect(profile).toContainText(`${who}@example.com`);
  await expect(page.getByRole("region", { name: "Preferences" })).toBeVisible();
  await shoot(page, "user-detail");

  // Back to the list; a search with no match shows the empty state.
  await page.getByRole("link", { name: "← All users" }).click();
  await page.getByLabel("Identifier starts with").fill("nobody-by-this-name");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No user matches")).toBeVisible();
  await expect(page.getByRole("link", { name: who })).toHaveCount(0);

  // Paging: 21 users sharing a prefix fill a page of 20 and one more.
  const batch = `pager-${Date.now()}-`;
  const many = await page.request.post("/v3/notifications", {
    headers: { "X-SERVICE-API-KEY": key!, "X-SERVICE-API-SECRET": secret! },
    data: {
      notification: { title: "Hello", message: "Paging" },
      sendTo: { recipients: Array.from({ length: 21 }, (_, i) => `${batch}${String(i).padStart(2, "0")}`) },
    },
  });
  expect(many.status()).toBe(202);
  await page.getByLabel("Identifier starts with").fill(batch);
  await expect
    .poll(async () => {
      await page.getByRole("button", { name: "Search" }).click();
      return page.getByText("21 users", { exact: false }).count();
    }, { timeout: 60_000, message: "the 21 recipients of the send, created by its delivery" })
    .toBe(1);
  const pager = page.getByRole("navigation", { name: "Pages of users" });
  await expect(pager).toContainText("Page 1 of 2");
  await expect(page.getByRole("link", { name: new RegExp(`^${batch}`) })).toHaveCount(20);
  await expect(pager.getByRole("button", { name: "Previous page" })).toBeDisabled();
  await pager.getByRole("button", { name: "Next page" }).click();
  await expect(pager).toContainText("Page 2 of 2");
  await expect(page).toHaveURL(/page=2/);
  await expect(page.getByRole("link", { name: new RegExp(`^${batch}`) })).toHaveCount(1);
  await expect(pager.getByRole("button", { name: "Next page" })).toBeDisabled();

  // A user that does not exist: the detail shows the API's error, not an empty profile (the
  // profile, the matrix, the channel and the workflow switches and the quiet hours each
  // answer 404).
  expectFailedRequests(5);
  await page.goto(`/apps/${appId}/users/nobody-${Date.now()}`);
  await expect(page.getByRole("region", { name: "Profile" }).getByRole("alert")).toBeVisible();
  await expect(page.getByText("This user has no profile fields.")).toHaveCount(0);
});

test("topics: a topic created through the v3 API is listed with its subscriber count", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${process.env.VIEWER_APP_ID}/settings`);
  const key = (await page.getByLabel("API key", { exact: true }).textContent())?.trim();
  await page.getByRole("button", { name: "Reveal secret" }).click();
  await expect(page.getByLabel("API secret", { exact: true })).not.toBeEmpty();
  const secret = (await page.getByLabel("API secret", { exact: true }).textContent())?.trim();
  const headers = { "X-SERVICE-API-KEY": key!, "X-SERVICE-API-SECRET": secret! };
  const ident = `digest-${Date.now()}`;
  const made = await page.request.post("/v3/topics", { headers, data: { identifier: ident, name: "Weekly digest" } });
  expect(made.status()).toBe(201);
  const { id } = await made.json();
  const attached = await page.request.post(`/v3/topics/${id}/users`, {
    headers,
    data: { users: [{ identifier: `${ident}-a` }, { identifier: `${ident}-b` }, { identifier: `${ident}-c` }] },
  });
  expect(attached.status()).toBe(200);

  await page.getByRole("link", { name: "Topics" }).click();
  await expect(page.getByRole("heading", { name: "Topics" })).toBeVisible();
  const row = page.getByRole("row", { name: new RegExp(ident) });
  await expect(row).toContainText("Weekly digest");
  await expect(row.getByRole("cell").nth(2)).toHaveText("3");
  await shoot(page, "topics");
});
