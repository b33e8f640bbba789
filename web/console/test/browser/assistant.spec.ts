// The template editor's "Draft with the assistant". Run by TestConsoleAssistantInChromium
// (integration/console_assistant_test.go) on stacks of their own: one without the assistant,
// one whose assistant is a fake OpenAI-compatible endpoint that drafts "Your order
// {{orderId}} …" for every channel. Both have ASSISTANT_EMAIL, a developer of the app
// ASSISTANT_APP_ID holding the empty template "Order shipped"; skipped elsewhere.
import { expect, expectUnavailable, shoot, signIn, test, type Page } from "./fixtures";

const appId = process.env.ASSISTANT_APP_ID;
const code = (page: Page, name: string) => page.getByRole("textbox", { name, exact: true });

async function openTemplate(page: Page) {
  await signIn(page, process.env.ASSISTANT_EMAIL!);
  await page.goto(`/apps/${appId}/templates`);
  await page.getByRole("button", { name: "Edit Order shipped" }).click();
  await expect(page.getByRole("tab", { name: "Email", selected: true })).toBeVisible();
}

test("assistant: not configured, the editor has no assistant", async ({ page }) => {
  test.skip(!appId, "needs the stacks of TestConsoleAssistantInChromium");
  await openTemplate(page);
  await expect(code(page, "Email subject")).toBeVisible();
  await page.getByRole("tab", { name: "SMS" }).click();
  await expect(code(page, "SMS text")).toBeVisible();
  await expect(page.getByRole("button", { name: "Draft with the assistant" })).toHaveCount(0);
});

test("assistant: drafts the open channel, Use this draft fills its fields unsaved until Save", async ({ page }) => {
  test.skip(!appId, "needs the stacks of TestConsoleAssistantInChromium");
  await openTemplate(page);
  await page.getByRole("button", { name: "Draft with the assistant" }).click();
  const panel = page.getByRole("region", { name: "Draft with the assistant" });
  const prompt = panel.getByLabel("What should the Email message say?");
  await expect(panel.getByRole("button", { name: "Draft", exact: true })).toBeDisabled();
  await prompt.fill("Tell the customer their order shipped");
  await panel.getByRole("button", { name: "Draft", exact: true }).click();
  const draft = panel.getByRole("region", { name: /Draft for Email/ });
  await expect(draft).toContainText("Your order {{orderId}} shipped");
  await expect(draft).toContainText("fake-model");
  await expect(draft.getByRole("definition")).toHaveCount(3);
  await shoot(page, "templates-assistant");
  // Nothing is filled before the user takes the draft.
  await expect(code(page, "Email subject")).toHaveText("");
  await draft.getByRole("button", { name: "Use this draft" }).click();
  await expect(code(page, "Email subject")).toHaveText("Your order {{orderId}} shipped");
  await expect(code(page, "Email plain-text body")).toHaveText("Hi {{firstName}}, your order is on its way.");
  await expect(page.getByRole("region", { name: "Draft with the assistant" })).toHaveCount(0);
  await expect(page.getByRole("tab", { name: /Email.*unsaved/ })).toBeVisible();
  await expect(page.getByText("Unsaved: Email", { exact: true })).toBeVisible();

  // On SMS: a draft the server refuses shows its error in the panel; then the assistant's
  // text fills the SMS text.
  await page.getByRole("tab", { name: /^SMS/ }).click();
  await page.getByRole("button", { name: "Draft with the assistant" }).click();
  const sms = page.getByRole("region", { name: "Draft with the assistant" });
  await sms.getByLabel("What should the SMS message say?").fill("Something broken");
  expectUnavailable(1);
  await sms.getByRole("button", { name: "Draft", exact: true }).click();
  await expect(sms.getByRole("alert")).toContainText("the assistant did not produce a valid sms template (text: {{ at offset 3 is never closed)");
  await expect(sms.getByRole("button", { name: "Use this draft" })).toHaveCount(0);
  await shoot(page, "templates-assistant-error");
  await sms.getByLabel("What should the SMS message say?").fill("Order shipped, short");
  await sms.getByRole("button", { name: "Draft", exact: true }).click();
  await expect(sms.getByRole("region", { name: /Draft for SMS/ })).toContainText("Your order {{orderId}} is on its way.");
  await sms.getByRole("button", { name: "Use this draft" }).click();
  await expect(code(page, "SMS text")).toHaveText("Your order {{orderId}} is on its way.");

  // Save keeps both channels.
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Order shipped is saved", { exact: true })).toBeVisible();
  await expect(page.getByText(/^Unsaved:/)).toHaveCount(0);
  await page.reload();
  await expect(code(page, "Email subject")).toHaveText("Your order {{orderId}} shipped");
});
