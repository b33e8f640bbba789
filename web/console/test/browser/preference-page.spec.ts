// The hosted preference page ({{preferencesUrl}} of emails), served by the API and not
// part of the console: integration/prefpage_browser_test.go starts Herald, signs a
// preference link and runs this file alone (PREFS_URL). It skips without it, so the
// console's own run passes over it.
import { expect, test, expectFailedRequests, type Page } from "./fixtures";

const prefsURL = process.env.PREFS_URL;
const expiredURL = process.env.PREFS_EXPIRED_URL;
const shots = process.env.PREFS_SCREENSHOTS;

async function shootPage(page: Page, name: string) {
  if (!shots) return;
  await page.mouse.move(0, 0);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `${shots}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** tabTo presses Tab until target has the focus (at most limit times). */
async function tabTo(page: Page, target: ReturnType<Page["getByRole"]>, limit = 60) {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

test.describe("the hosted preference page", () => {
  test.skip(!prefsURL, "run by integration/prefpage_browser_test.go, which sets PREFS_URL");
  test.use({ viewport: { width: 900, height: 800 } });

  test("shows every switch and saves changes made with the mouse", async ({ page }) => {
    await page.goto(prefsURL!);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notification preferences");
    await expect(page.getByRole("group", { name: "Billing" })).toBeVisible();
    const billingEmail = page.getByRole("checkbox", { name: "Billing: Email" });
    await expect(billingEmail).toBeChecked();
    // News starts off for email (the app's default for the category).
    await expect(page.getByRole("checkbox", { name: "News: Email" })).not.toBeChecked();
    // A critical category is locked, with the reason.
    const security = page.getByRole("checkbox", { name: "Security: Email" });
    await expect(security).toBeChecked();
    await expect(security).toBeDisabled();
    await expect(page.getByRole("group", { name: "Security (always on)" })).toContainText("are always delivered");
    await expect(page.getByRole("checkbox", { name: "Sign-in code (always on)" })).toBeDisabled();
    await shootPage(page, "preference-page");

    await billingEmail.uncheck();
    await page.getByRole("checkbox", { name: "All notifications: SMS" }).uncheck();
    await page.getByRole("checkbox", { name: "Weekly digest", exact: true }).uncheck();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByRole("status")).toHaveText("Your preferences are saved.");
    // The page after the redirect shows what the server stored.
    await expect(billingEmail).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "All notifications: SMS" })).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Weekly digest", exact: true })).not.toBeChecked();
    // Its channel switches were never set: they follow the whole workflow's.
    await expect(page.getByRole("checkbox", { name: "Weekly digest: Email" })).not.toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Billing: In-app" })).toBeChecked();
    await shootPage(page, "preference-page-saved");
  });

  test("works with the keyboard alone", async ({ page }) => {
    await page.goto(prefsURL!);
    const news = page.getByRole("checkbox", { name: "News: Email" });
    await expect(news).not.toBeChecked();
    await tabTo(page, news);
    // The focus is visible.
    expect(await news.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe("none");
    await page.keyboard.press("Space");
    await expect(news).toBeChecked();
    const save = page.getByRole("button", { name: "Save preferences" });
    await tabTo(page, save);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText("Your preferences are saved.");
    await expect(page.getByRole("checkbox", { name: "News: Email" })).toBeChecked();
  });

  test("a workflow's channel switches, with the keyboard; a critical workflow's are locked with the reason", async ({ page }) => {
    await page.goto(prefsURL!);
    // One group per workflow: its whole switch, then one switch per channel.
    const reminder = page.getByRole("group", { name: "Payment reminder" });
    await expect(reminder.getByRole("checkbox", { name: "Payment reminder", exact: true })).toBeChecked();
    const reminderEmail = reminder.getByRole("checkbox", { name: "Payment reminder: Email" });
    await expect(reminderEmail).toBeChecked();
    await expect(reminder.getByRole("checkbox", { name: "Payment reminder: In-app" })).toBeChecked();
    // Critical: every switch of it on and disabled, the reason describing the group.
    const otp = page.getByRole("group", { name: "Sign-in code" });
    await expect(otp).toHaveAccessibleDescription(/always delivered/);
    for (const name of ["Sign-in code (always on)", "Sign-in code: Email", "Sign-in code: In-app"]) {
      await expect(otp.getByRole("checkbox", { name })).toBeDisabled();
      await expect(otp.getByRole("checkbox", { name })).toBeChecked();
    }
    await shootPage(page, "preference-page-workflow-channels");

    await tabTo(page, reminderEmail);
    await page.keyboard.press("Space");
    await expect(reminderEmail).not.toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Save preferences" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status")).toHaveText("Your preferences are saved.");
    await expect(reminder.getByRole("checkbox", { name: "Payment reminder: Email" })).not.toBeChecked();
    await expect(reminder.getByRole("checkbox", { name: "Payment reminder", exact: true })).toBeChecked();
    await expect(reminder.getByRole("checkbox", { name: "Payment reminder: In-app" })).toBeChecked();
  });

  test("an expired link says what to do", async ({ page }) => {
    expectFailedRequests(1);
    const res = await page.goto(expiredURL!);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("This link has expired");
    await expect(page.getByText("more recent email")).toBeVisible();
    await shootPage(page, "preference-page-expired");
  });
});
