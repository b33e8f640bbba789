// The templates journeys: the per-channel editors with their live preview, a test send that
// arrives at the test's SMTP server and shows in Message logs, the SMS preview, email
// layouts and translations. They work in an app of their own (TEMPLATES_APP_ID, set by
// integration/console_test.go) with a user who has an email address (TEMPLATES_USER).
import { expect, expectFailedRequests, mail, shoot, signIn, test, type Page } from "./fixtures";

const appId = process.env.TEMPLATES_APP_ID;
const user = process.env.TEMPLATES_USER!;
const userEmail = process.env.TEMPLATES_USER_EMAIL!;

/** code is the code editor (CodeMirror's textbox) labelled name. */
const code = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });

async function newTemplate(page: Page, name: string, identifier: string) {
  await page.goto(`/apps/${appId}/templates`);
  await page.getByRole("button", { name: "New template" }).click();
  const create = page.getByRole("form", { name: "New template" });
  await create.getByLabel("Name").fill(name);
  await create.getByLabel("Identifier").fill(identifier);
  await create.getByRole("button", { name: "Create" }).click();
  await expect(page.getByRole("row", { name: new RegExp(name) })).toContainText(identifier);
  return page.getByRole("form", { name: `Edit ${name}` });
}

test("templates: SMTP configured, an email written with live preview and completion, saved, sent as a test that arrives and is logged", async ({ page, browser }) => {
  await signIn(page, process.env.OWNER_EMAIL!);

  // An SMTP provider at the test's server, tested and saved.
  await page.goto(`/apps/${appId}/channels`);
  await page.getByRole("region", { name: "Provider catalogue" }).getByRole("button", { name: "Add SMTP on Email" }).click();
  const smtp = page.getByRole("form", { name: "Add SMTP on Email" });
  await smtp.getByLabel("Name", { exact: true }).fill("Studio relay");
  await smtp.getByLabel("Host *").fill(process.env.SMTP_HOST!);
  await smtp.getByLabel("Port").fill(process.env.SMTP_PORT!);
  await smtp.getByLabel("Connection security").selectOption("none");
  await smtp.getByLabel("From address *").fill("studio@example.com");
  await smtp.getByRole("button", { name: "Test connection and save" }).click();
  await expect(page.getByText("Connection test passed: Studio relay is saved", { exact: true })).toBeVisible();

  // No template yet; a bad identifier is named under its field.
  await page.getByRole("link", { name: "Templates" }).click();
  await expect(page.getByRole("heading", { name: "Templates", exact: true })).toBeVisible();
  await expect(page.getByText("No template yet")).toBeVisible();
  await shoot(page, "templates-empty");
  await page.getByRole("button", { name: "New template" }).click();
  const create = page.getByRole("form", { name: "New template" });
  await create.getByLabel("Name").fill("Order shipped");
  await create.getByLabel("Identifier").fill("not valid!");
  expectFailedRequests(1);
  await create.getByRole("button", { name: "Create" }).click();
  await expect(create.getByLabel("Identifier")).toHaveAttribute("aria-invalid", "true");
  await expect(create.getByLabel("Identifier")).toHaveAccessibleDescription(/identifier/);
  await create.getByLabel("Identifier").fill("order-shipped");
  await create.getByRole("button", { name: "Create" }).click();
  const editor = page.getByRole("form", { name: "Edit Order shipped" });
  await expect(page.getByRole("tab", { name: "Email", selected: true })).toBeVisible();

  // Sample data first: its paths are offered inside {{ }}.
  await page.getByLabel("Sample data (JSON)").fill(JSON.stringify({ data: { orderId: "A-17" }, user: { identifier: user, profile: { firstName: "Tess" } } }));
  const subject = code(page, "Email subject");
  await subject.click();
  await subject.pressSequentially("Order {{data.or");
  await expect(page.getByRole("option", { name: "data.orderId" })).toBeVisible();
  await page.keyboard.press("Enter");
  await subject.pressSequentially("}} shipped");
  await expect(subject).toHaveText("Order {{data.orderId}} shipped");

  // The preview follows the unsaved text; a variable the data lacks is flagged.
  const preview = page.getByRole("region", { name: "Live preview" });
  await expect(preview.getByTestId("preview-subject")).toHaveText("Order A-17 shipped");
  await code(page, "Email HTML body").fill("<h1>Hi {{user.profile.firstName}}</h1>\n<p>Tracking: {{data.tracking}}</p>");
  await expect(preview.frameLocator("iframe[title='Email preview']").getByRole("heading", { name: "Hi Tess" })).toBeVisible();
  await expect(preview.locator("iframe[title='Email preview']")).toHaveAttribute("sandbox", "");
  const warnings = page.getByRole("list", { name: "Missing variables" });
  await expect(warnings).toContainText("Email HTML body, line 2: variable data.tracking is not in the data");
  await page.getByLabel("Sample data (JSON)").fill(JSON.stringify({ data: { orderId: "A-17", tracking: "TRK-9" }, user: { identifier: user, profile: { firstName: "Tess" } } }));
  await expect(page.getByText("The sample data holds every variable the Email content uses.")).toBeVisible();
  await expect(preview.frameLocator("iframe[title='Email preview']").getByText("Tracking: TRK-9")).toBeVisible();
  await expect(page.getByRole("tab", { name: /Email.*unsaved/ })).toBeVisible();
  await shoot(page, "templates-editor");

  // Saved; the test send waits for the save.
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Order shipped is saved", { exact: true })).toBeVisible();
  await expect(page.getByRole("tab", { name: /unsaved/ })).toHaveCount(0);

  // A test to the user found by search: it arrives at the SMTP server with the sample data.
  const send = page.getByRole("form", { name: "Send a test" });
  await send.getByLabel("Find a user").fill(user.slice(0, 4));
  await send.getByRole("radio", { name: new RegExp(user) }).check();
  await send.getByRole("button", { name: `Send Email test to ${user}` }).click();
  await expect(send.getByRole("status")).toContainText(`Sent to ${user}`);
  await shoot(page, "templates-send-test");
  const got = await mail(page, userEmail, "Tracking: TRK-9");
  expect(got.subject).toBe("Order A-17 shipped");
  expect(got.body).toContain("Hi Tess");

  // Its row in Message logs.
  await send.getByRole("link", { name: "Message logs" }).click();
  await expect(page.getByRole("heading", { name: "Message logs" })).toBeVisible();
  await expect
    .poll(async () => {
      await page.getByRole("button", { name: "Apply filters" }).click();
      return page.getByRole("row").filter({ hasText: user }).filter({ hasText: "email" }).count();
    })
    .toBeGreaterThan(0);

  // Opened again: the template shows what was saved.
  await page.getByRole("link", { name: "Templates" }).click();
  await page.getByRole("button", { name: "Edit Order shipped" }).click();
  await expect(code(page, "Email subject")).toHaveText("Order {{data.orderId}} shipped");
  await page.reload();
  await expect(code(page, "Email HTML body")).toContainText("Tracking: {{data.tracking}}");

  // A viewer of the team sees it read-only: no save, no test send.
  const viewer = await browser.newPage();
  await signIn(viewer, process.env.VIEWER_EMAIL!);
  await viewer.goto(`/apps/${appId}/templates`);
  await viewer.getByRole("button", { name: "View Order shipped" }).click();
  await expect(code(viewer, "Email subject")).toHaveText("Order {{data.orderId}} shipped");
  await expect(code(viewer, "Email subject")).toHaveAttribute("contenteditable", "false");
  await expect(viewer.getByRole("region", { name: "Live preview" }).getByTestId("preview-subject")).toHaveText("Order  shipped");
  await expect(viewer.getByRole("button", { name: "Save" })).toHaveCount(0);
  await expect(viewer.getByRole("form", { name: "Send a test" })).toHaveCount(0);
  await viewer.close();
});

test("templates: an SMS template previews its text as typed and flags a missing variable", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  const editor = await newTemplate(page, "Login code", "login-code");
  await page.getByRole("tab", { name: "SMS", exact: true }).click();
  const body = code(page, "SMS text");
  await body.click();
  await body.pressSequentially("Your code is {{data.code}}. It expires in 10 minutes.");
  const preview = page.getByRole("region", { name: "Live preview" });
  await expect(preview.getByRole("article", { name: "SMS" })).toContainText("Your code is . It expires in 10 minutes.");
  await expect(page.getByRole("list", { name: "Missing variables" })).toContainText("SMS text, line 1: variable data.code is not in the data");
  await page.getByLabel("Sample data (JSON)").fill('{"data": {"code": "482913"}}');
  await expect(preview.getByRole("article", { name: "SMS" })).toContainText("Your code is 482913. It expires in 10 minutes.");
  await expect(preview.getByRole("article", { name: "SMS" })).toContainText("46 characters");
  await shoot(page, "templates-sms");
  await editor.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Login code is saved", { exact: true })).toBeVisible();
  await expect(page.getByRole("tab", { name: /SMS.*has content/ })).toBeVisible();
});

test("templates: an email layout is created, picked in the email editor's preview, and another deleted", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${appId}/templates?tab=layouts`);
  await expect(page.getByRole("heading", { name: "Email layouts" })).toBeVisible();

  // A layout without {{{content}}}: the API's error is named under the HTML.
  await page.getByRole("button", { name: "New layout" }).click();
  const form = page.getByRole("form", { name: "New layout" });
  await form.getByLabel("Identifier").fill("brand");
  await form.getByLabel("Layout name").fill("Brand");
  await code(page, "Layout HTML").fill("<div><h2>Acme news</h2></div>");
  expectFailedRequests(1);
  await form.getByRole("button", { name: "Save layout" }).click();
  await expect(code(page, "Layout HTML")).toHaveAttribute("aria-invalid", "true");
  await code(page, "Layout HTML").fill("<div><h2>Acme news</h2>{{{content}}}</div>");
  await expect(page.frameLocator("iframe[title='Layout preview']").getByRole("heading", { name: "Acme news" })).toBeVisible();
  await shoot(page, "templates-layout");
  await form.getByRole("button", { name: "Save layout" }).click();
  await expect(page.getByRole("row", { name: /Brand/ })).toContainText("brand");

  // A second layout, deleted after a confirmation.
  await page.getByRole("button", { name: "New layout" }).click();
  await form.getByLabel("Identifier").fill("old");
  await form.getByRole("button", { name: "Save layout" }).click();
  await expect(page.getByRole("row", { name: /old/ })).toBeVisible();
  await page.getByRole("button", { name: "Delete layout old" }).click();
  await page.getByRole("button", { name: "Confirm deleting layout old" }).click();
  await expect(page.getByRole("row", { name: /old/ })).toHaveCount(0);

  // Picked in an email's editor: the preview wraps the unsaved body in it.
  await page.getByRole("tab", { name: "Templates" }).click();
  await newTemplate(page, "Newsletter", "newsletter");
  await code(page, "Email subject").fill("News");
  await code(page, "Email HTML body").fill("<p>This week at Acme</p>");
  await page.getByLabel("Layout", { exact: true }).selectOption("brand");
  const frame = page.getByRole("region", { name: "Live preview" }).frameLocator("iframe[title='Email preview']");
  await expect(frame.getByRole("heading", { name: "Acme news" })).toBeVisible();
  await expect(frame.getByText("This week at Acme")).toBeVisible();
  await shoot(page, "templates-layout-picked");
});

test("templates: a locale's strings are written in Translations", async ({ page }) => {
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${appId}/templates?tab=translations`);
  await expect(page.getByText("No translation yet")).toBeVisible();
  await page.getByRole("button", { name: "New locale" }).click();
  const form = page.getByRole("form", { name: "New locale" });
  await form.getByLabel("Locale", { exact: true }).fill("de");
  await form.getByLabel("Key 1").fill("hello");
  await form.getByLabel("Text 1").fill("Hallo {{user.profile.firstName}}");
  await form.getByRole("button", { name: "Add a string" }).click();
  await form.getByLabel("Text 2").fill("no key");
  await form.getByRole("button", { name: "Save locale" }).click();
  await expect(form.getByRole("alert")).toContainText("row 2 has text but no key");
  await form.getByRole("button", { name: "Remove string 2" }).click();
  await form.getByLabel("The default locale").check();
  await shoot(page, "templates-translations");
  await form.getByRole("button", { name: "Save locale" }).click();
  const row = page.getByRole("row", { name: /de/ });
  await expect(row).toContainText("1");
  await expect(row).toContainText("Default");
});
