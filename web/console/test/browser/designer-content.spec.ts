// Content written inside the designer: an email step's content written in the step panel
// with the template editor's fields (completion, layout picker), previewed with sample
// data, published, test-run against real Temporal and a real SMTP server, and the email
// checked as delivered; and written content turned into a template in one action.
import type { Locator } from "@playwright/test";
import { expect, expectFailedRequests, mail, password, signIn, test, type Page } from "./fixtures";

const shots = process.env.SCREENSHOTS;

/** code is a content field's code editor, by its label. */
const code = (scope: Page | Locator, name: string) => scope.getByRole("textbox", { name, exact: true });

/** shootPanel saves the step panel, light and dark, for docs/console.md. */
async function shootPanel(page: Page, panel: Locator, name: string) {
  if (!shots) return;
  await page.mouse.move(0, 0);
  // Tall enough for the whole panel (it scrolls on its own at the test's 800 px).
  await page.setViewportSize({ width: 1280, height: 2400 });
  await panel.evaluate((el) => (el.style.maxHeight = "none"));
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator("html")).toHaveAttribute("data-theme", scheme);
    await panel.screenshot({ path: `${shots}/${name}-${scheme}.png` });
  }
  await page.emulateMedia({ colorScheme: "light" });
  await panel.evaluate((el) => (el.style.maxHeight = ""));
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** setup makes an app of its own with an SMTP provider at the test's mail server and a
 * layout, and returns it with an owner's API headers. */
async function setup(page: Page) {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const headers = { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Content ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number };
  const smtp = await page.request.post(`/v1/apps/${app.id}/channels/email/providerInstances`, {
    headers,
    data: { providerIdentifier: "smtp", name: "Relay", config: { host: process.env.SMTP_HOST, port: Number(process.env.SMTP_PORT), security: "none", from: "shop@example.com" } },
  });
  expect(smtp.status()).toBe(201);
  const layout = await page.request.post(`/v1/apps/${app.id}/layouts`, { headers, data: { identifier: "receipt-frame", name: "Receipt frame", html: '<div class="frame"><h2>Acme shop</h2>{{{content}}}</div>' } });
  expect(layout.status()).toBe(201);
  return { app, headers };
}

/** newWorkflow creates a workflow and selects its first (in-app) step. */
async function newWorkflow(page: Page, appId: number, name: string, identifier: string) {
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${appId}/workflows`);
  const create = page.getByRole("form", { name: "New workflow" });
  await create.getByLabel("Name").fill(name);
  await create.getByLabel("Identifier").fill(identifier);
  await create.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const canvas = page.getByLabel("Workflow canvas");
  await canvas.locator('.react-flow__node[data-id="inApp-1"]').click();
  return { canvas, panel: page.getByRole("complementary", { name: "Selected step" }) };
}

test("designer: an email step's content written in the step, previewed with sample data, published, test-run and delivered", async ({ page }) => {
  const { app } = await setup(page);
  const { canvas, panel } = await newWorkflow(page, app.id, "Receipt", "receipt");
  // The in-app step's content: the in-app fields, not a key/value list.
  await expect(panel.getByRole("radio", { name: "Write it here" })).toBeChecked();
  await code(panel, "In-app title").fill("Thanks for your order");

  // The email step after it: its content written here, with the email fields.
  await page.getByRole("button", { name: "Add email step" }).click();
  await expect(canvas.locator('.react-flow__node[data-id="email-1"]')).toBeVisible();
  await expect(panel.getByRole("group", { name: "Email content" })).toBeVisible();
  await panel.getByLabel("Sample data (JSON)").fill(JSON.stringify({ data: { order: "A-17", total: "42 €" }, user: { identifier: "ada", profile: { firstName: "Ada" } } }));
  const subject = code(panel, "Email subject");
  await subject.click();
  await subject.pressSequentially("Receipt for {{data.or");
  await expect(page.getByRole("option", { name: "data.order" })).toBeVisible();
  await page.keyboard.press("Enter");
  await subject.pressSequentially("}}");
  await expect(subject).toHaveText("Receipt for {{data.order}}");
  await code(panel, "Email HTML body").fill("<p>Hi {{user.profile.firstName}}, order {{data.order}}: {{data.total}} {{data.coupon}}</p>");
  await panel.getByLabel("Layout").selectOption({ label: "Receipt frame" });

  // The live preview renders the unsaved content in the chosen layout with the sample data.
  const preview = panel.getByRole("region", { name: "Live preview" });
  await expect(preview.getByTestId("preview-subject")).toHaveText("Receipt for A-17");
  const frame = preview.frameLocator("iframe[title='Email preview']");
  await expect(frame.getByRole("heading", { name: "Acme shop" })).toBeVisible();
  await expect(frame.getByText("Hi Ada, order A-17: 42 €")).toBeVisible();
  await expect(panel.getByRole("list", { name: "Missing variables" })).toContainText("Email HTML body, line 1: variable data.coupon is not in the data");
  await code(panel, "Email HTML body").fill("<p>Hi {{user.profile.firstName}}, order {{data.order}}: {{data.total}}</p>");
  await expect(panel.getByText("The sample data holds every variable the Email content uses.")).toBeVisible();
  await shootPanel(page, panel, "workflow-step-content");

  // Saved, published, and the JSON holds the step's own content and layout.
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("draft saved")).toBeVisible();
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1", { exact: true })).toBeVisible();
  await page.getByRole("tab", { name: "JSON" }).click();
  expect(JSON.parse(await page.getByLabel("Workflow JSON").inputValue()).steps[1]).toEqual({
    id: "email-1",
    type: "email",
    content: { subject: "Receipt for {{data.order}}", html: "<p>Hi {{user.profile.firstName}}, order {{data.order}}: {{data.total}}</p>" },
    layout: "receipt-frame",
  });

  // Test run: the email arrives as previewed, in the layout.
  await page.getByRole("tab", { name: "Test run" }).click();
  const user = `ada-${Date.now()}`;
  const form = page.getByRole("form", { name: "Test run" });
  await form.getByLabel("User identifier").fill(user);
  await form.getByLabel("Email address (optional)").fill(`${user}@example.com`);
  await form.getByLabel("Data (JSON)").fill('{"order": "B-9", "total": "7 €"}');
  await form.getByRole("button", { name: "Start test run" }).click();
  const timeline = page.getByRole("region", { name: "Run timeline" });
  await expect(timeline.getByLabel("Run status: completed")).toBeVisible({ timeout: 60_000 });
  await expect(timeline.getByRole("list", { name: `Steps of ${user}'s run` })).toContainText("email-1 (email) sent");
  const got = await mail(page, `${user}@example.com`, "order B-9: 7 €");
  expect(got.subject).toBe("Receipt for B-9");
  expect(got.body).toContain("Acme shop");
});

test("designer: content written in a step becomes a template in one action; problems show next to the fields", async ({ page }) => {
  const { app, headers } = await setup(page);
  const { panel } = await newWorkflow(page, app.id, "Welcome", "welcome-flow");
  await page.getByRole("button", { name: "Add email step" }).click();
  await code(panel, "Email HTML body").fill("<p>Welcome aboard</p>");

  // No subject: the API refuses the content; the problem is next to the subject, and no
  // half-made template is left.
  await panel.getByRole("button", { name: "Save as a template…" }).click();
  const save = panel.getByRole("group", { name: "Save as a template" });
  await expect(save.getByLabel("Template identifier")).toHaveValue("welcome-flow-email-1");
  await save.getByLabel("Template name").fill("Welcome email");
  expectFailedRequests(1);
  await save.getByRole("button", { name: "Create the template and use it" }).click();
  await expect(code(panel, "Email subject")).toHaveAccessibleDescription(/content\.subject should not be empty/);
  await expect(save.getByText("The content was not saved as a template: see the fields above.")).toBeVisible();
  const listed = async () => ((await (await page.request.get(`/v1/apps/${app.id}/templates`, { headers })).json()) as { identifier: string }[]).map((t) => t.identifier);
  expect(await listed()).not.toContain("welcome-flow-email-1");
  await shootPanel(page, panel, "workflow-step-to-template");

  // With a subject: one action makes the template and points the step at it.
  await code(panel, "Email subject").fill("Welcome, {{user.profile.firstName}}");
  await save.getByRole("button", { name: "Create the template and use it" }).click();
  await expect(page.getByText("Template welcome-flow-email-1 is created; the step uses it", { exact: true })).toBeVisible();
  await expect(panel.getByRole("radio", { name: "Use a template" })).toBeChecked();
  await expect(panel.getByLabel("Template", { exact: true })).toHaveValue("welcome-flow-email-1");
  expect(await listed()).toContain("welcome-flow-email-1");
  // The template's own rendering for the step, with the same sample data.
  await expect(panel.getByRole("region", { name: "Live preview" }).getByTestId("preview-subject")).toHaveText("Welcome, Ada");
  await expect(panel.getByRole("link", { name: "Edit welcome-flow-email-1 in Templates" })).toBeVisible();

  // One switch: "Write it here" brings the written content back, "Use a template" the template.
  await panel.getByRole("radio", { name: "Write it here" }).check();
  await expect(code(panel, "Email subject")).toHaveText("Welcome, {{user.profile.firstName}}");
  await panel.getByRole("radio", { name: "Use a template" }).check();
  await expect(panel.getByLabel("Template", { exact: true })).toHaveValue("welcome-flow-email-1");

  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("draft saved")).toBeVisible();
  await page.getByRole("tab", { name: "JSON" }).click();
  expect(JSON.parse(await page.getByLabel("Workflow JSON").inputValue()).steps[1]).toEqual({ id: "email-1", type: "email", template: "welcome-flow-email-1" });
});
