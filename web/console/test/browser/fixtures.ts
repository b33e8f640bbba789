// Shared by every journey of the console: the fixtures (the console-error check), the
// environment the integration test sets, and the helpers that read the test's emails.
// A spec file imports `test` and `expect` from here instead of @playwright/test.
import { expect, test as base, type Page } from "@playwright/test";

export { expect };
export type { Page };

export const password = process.env.CONSOLE_PASSWORD!;
export const side = process.env.SIDE_URL!;
const shots = process.env.SCREENSHOTS;

// Chromium logs every answer with an error status as a console error. A test that provokes
// an API error on purpose (a bad field, a wrong code) declares it with expectFailedRequests;
// any other console error fails the test.
let errors: string[] = [];
let allowedFailures = 0;

/** expectFailedRequests declares n answers with a 4xx status that the test provokes. */
export function expectFailedRequests(n: number) {
  allowedFailures += n;
}

// A 503 the test provokes on purpose (a third-party fake that fails), declared with
// expectUnavailable.
let allowedUnavailable = 0;

/** expectUnavailable declares n answers with status 503 that the test provokes. */
export function expectUnavailable(n: number) {
  allowedUnavailable += n;
}

/** test is Playwright's test whose page fails the test on any error in the browser console. */
export const test = base.extend<{ consoleErrors: void }>({
  consoleErrors: [
    async ({ page }, use) => {
      errors = [];
      allowedFailures = 0;
      allowedUnavailable = 0;
      page.on("console", (m) => {
        if (m.type() !== "error") return;
        if (allowedFailures > 0 && /^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text())) {
          allowedFailures--;
          return;
        }
        if (allowedUnavailable > 0 && /^Failed to load resource: the server responded with a status of 503/.test(m.text())) {
          allowedUnavailable--;
          return;
        }
        errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(String(e)));
      page.on("response", (r) => {
        if (r.status() >= 400) console.log(`answer ${r.status()} ${r.request().method()} ${r.url()}`);
      });
      await use();
      expect(errors, "errors in the browser console").toEqual([]);
    },
    { auto: true },
  ],
});

/** shoot saves a light and a dark screenshot of the page for docs/console.md. */
export async function shoot(page: Page, name: string) {
  if (!shots) return;
  await page.mouse.move(0, 0);
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", scheme);
    await page.screenshot({ path: `${shots}/${name}-${scheme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** mail is the last email to an address whose body contains a text, read from the
 * test's SMTP server (polled until it arrives). */
export async function mail(page: Page, to: string, contains: string): Promise<{ subject: string; body: string }> {
  let last = { subject: "", body: "" };
  await expect
    .poll(async () => {
      const res = await page.request.get(`${side}/mail?to=${encodeURIComponent(to)}`);
      if (res.ok()) last = await res.json();
      return last.body.includes(contains);
    }, { message: `an email to ${to} with ${contains}` })
    .toBe(true);
  return last;
}

/** link finds the console link of an email and points it at the server under test. */
export function link(body: string, param: string): string {
  const m = body.match(new RegExp(`https?://\\S+[?&]${param}=[A-Za-z0-9_-]+`));
  expect(m, `a link with ${param} in ${body}`).toBeTruthy();
  const u = new URL(m![0]);
  return u.pathname + u.search;
}

/** signIn signs in at /signin; signedIn waits for the account menu. */
export async function signIn(page: Page, email: string, pass = password, signedIn = true) {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(pass);
  await page.getByRole("button", { name: "Sign in" }).click();
  if (signedIn) await expect(page.getByRole("button", { name: "Account" })).toBeVisible();
}
