// Seeing what happened: a test run of a workflow with an in-app step, a branch and an email
// step; the run timeline's step rows expand to the input each step saw, the branch's matched
// condition with the values it compared, the in-app card, and the email as it was sent inside
// a sandboxed frame with the provider's answer; the same details on the request's page of
// the Activity screen. Found by role and label only (the email frame by its title).
import { expect, password, shoot, signIn, test, type Page } from "./fixtures";

/** setup makes an app with an SMTP provider at the test's mail server and a published
 * workflow "receipt" (inApp → branch on data.total → email), through the API as the owner. */
async function setup(page: Page) {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const headers = { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Step details ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number };
  const smtp = await page.request.post(`/v1/apps/${app.id}/channels/email/providerInstances`, {
    headers,
    data: {
      providerIdentifier: "smtp",
      name: "Relay",
      config: { host: process.env.SMTP_HOST, port: Number(process.env.SMTP_PORT), security: "none", from: "orders@example.com" },
    },
  });
  expect(smtp.status(), await smtp.text()).toBe(201);
  const definition = {
    steps: [
      { id: "note", type: "inApp", content: { title: "Order {{data.order}}", message: "Total {{data.total}} €" }, next: "check" },
      { id: "check", type: "branch", conditions: [{ if: { field: "data.total", op: "gt", value: 100 }, next: "receipt" }] },
      {
        id: "receipt",
        type: "email",
        content: { subject: "Your receipt for {{data.order}}", html: "<h1 style=\"color:#4f46e5\">Thank you!</h1><p>Order <b>{{data.order}}</b>: {{data.total}} €</p>" },
      },
    ],
  };
  const wf = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "receipt", name: "Receipt", definition } });
  expect(wf.status(), await wf.text()).toBe(201);
  expect((await page.request.post(`/v1/apps/${app.id}/workflows/receipt/publish`, { headers })).status()).toBe(200);
  return app;
}

test("step details: the timeline shows the branch's matched condition and the email as sent in a sandboxed frame", async ({ page }) => {
  const app = await setup(page);
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/workflows/receipt`);
  await expect(page.getByRole("heading", { name: "Receipt" })).toBeVisible();

  await page.getByRole("tab", { name: "Test run" }).click();
  const user = `olga-${Date.now()}`;
  const form = page.getByRole("form", { name: "Test run" });
  await form.getByLabel("User identifier").fill(user);
  await form.getByLabel("Email address (optional)").fill(`${user}@example.com`);
  await form.getByLabel("Data (JSON)").fill('{"order": "A-1042", "total": 120}');
  const accepted = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith(`/v1/apps/${app.id}/notifications`));
  await form.getByRole("button", { name: "Start test run" }).click();
  const requestId = ((await (await accepted).json()) as { requestId: string }).requestId;
  const timeline = page.getByRole("region", { name: "Run timeline" });
  await expect(timeline.getByLabel("Run status: completed")).toBeVisible({ timeout: 60_000 });
  const steps = timeline.getByRole("list", { name: `Steps of ${user}'s run` });
  await expect(steps.getByRole("listitem").filter({ hasText: "receipt (email)" })).toContainText("sent");

  // The branch: which condition matched, with the value it compared.
  const toggle = steps.getByRole("button", { name: "Details of step check" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const check = steps.getByRole("region", { name: "Step check details" });
  const evaluation = check.getByRole("region", { name: "Branch evaluation" });
  await expect(evaluation).toContainText("Condition 0 matched → receipt");
  await expect(evaluation.getByRole("list", { name: "Conditions evaluated" })).toContainText("data.total (120) gt 100 → true");
  await expect(check.getByRole("region", { name: "Input" })).toContainText('"order": "A-1042"');

  // The in-app card as written.
  await steps.getByRole("button", { name: "Details of step note" }).click();
  const card = steps.getByRole("group", { name: "In-app card of step note" });
  await expect(card).toContainText("Order A-1042");
  await expect(card).toContainText("Total 120 €");

  // The email as sent, inside a sandboxed frame, and the provider's answer.
  await steps.getByRole("button", { name: "Details of step receipt" }).click();
  const receipt = steps.getByRole("region", { name: "Step receipt details" });
  const sent = receipt.getByRole("region", { name: "Sent content" });
  await expect(sent).toContainText(`To ${user}@example.com`);
  await expect(sent).toContainText("Subject: Your receipt for A-1042");
  const frame = sent.getByTitle("Email sent by step receipt");
  await expect(frame).toHaveAttribute("sandbox", "");
  const email = frame.contentFrame();
  await expect(email.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(email.getByText("Order A-1042: 120 €")).toBeVisible();
  const answer = receipt.getByRole("region", { name: "Provider answer" });
  await expect(answer).toContainText("sent");
  await expect(answer).toContainText("Provider message id");
  await shoot(page, "workflow-test-run-details");

  // The same details on the request's page of the Activity screen.
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Activity" }).click();
  const requests = page.getByRole("region", { name: "Requests" });
  const row = requests.getByRole("button", { name: /workflow receipt$/ });
  await row.click();
  const runSteps = page.getByRole("list", { name: `Steps of ${user}’s run` });
  await runSteps.getByRole("button", { name: "Details of step check" }).click();
  await expect(runSteps.getByRole("region", { name: "Branch evaluation" })).toContainText("Condition 0 matched → receipt");
  await runSteps.getByRole("button", { name: "Details of step receipt" }).click();
  await expect(runSteps.getByTitle("Email sent by step receipt").contentFrame().getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await shoot(page, "activity-step-details");

  // A run's page of its own, reached from a message log row.
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Message logs" }).click();
  await page.getByRole("link", { name: `Request ${requestId.slice(0, 8)}: what it did` }).first().click();
  await expect(page.getByRole("heading", { name: `Request ${requestId.slice(-8)}`, level: 1 })).toBeVisible();
  const pageSteps = page.getByRole("list", { name: `Steps of ${user}’s run` });
  await pageSteps.getByRole("button", { name: "Details of step check" }).click();
  await expect(pageSteps.getByRole("region", { name: "Branch evaluation" })).toContainText("data.total (120) gt 100 → true");
  await page.getByRole("link", { name: "← Activity" }).click();
  await expect(page.getByRole("heading", { name: "Activity", level: 1 })).toBeVisible();
});
