// The workflow designer's journeys: build inApp → delay → branch (not read) → email with the
// mouse and the keyboard, see the server's problems on the step they name, publish, and
// test-run it against real Temporal and a real SMTP server: a user who does not read the
// in-app message gets the email; one who reads it before the delay ends does not.
import type { Locator } from "@playwright/test";
import { expect, expectFailedRequests, mail, password, shoot, side, signIn, test, type Page } from "./fixtures";

const delay = "6s";

/** code is a content field's code editor, by its label. */
const code = (scope: Page | Locator, name: string) => scope.getByRole("textbox", { name, exact: true });

/** setup signs in the owner through the API (a session of its own) and makes an app with an
 * SMTP provider at the test's mail server, so the journey changes no other journey's app. */
async function setup(page: Page) {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const token = (await auth.json()).accessToken as string;
  const headers = { Authorization: `Bearer ${token}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Designer ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number; apiKey: string; apiSecret: string };
  const smtp = await page.request.post(`/v1/apps/${app.id}/channels/email/providerInstances`, {
    headers,
    data: {
      providerIdentifier: "smtp",
      name: "Relay",
      config: { host: process.env.SMTP_HOST, port: Number(process.env.SMTP_PORT), security: "none", from: "alerts@example.com" },
    },
  });
  expect(smtp.status()).toBe(201);
  return app;
}

/** ownerToken is an API session of the owner, apart from the page's. */
async function ownerToken(page: Page) {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  return { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
}

/** markRead reads the user's in-app notification through the developer API, as the inbox would. */
async function markRead(page: Page, apiKey: string, user: string) {
  const headers = { "X-SERVICE-API-KEY": apiKey, "X-SERVICE-USER-ID": user };
  let id = "";
  await expect
    .poll(async () => {
      const res = await page.request.get("/v3/notifications", { headers });
      const items = res.ok() ? ((await res.json()).data as { id: string | number }[]) : [];
      id = items[0] ? String(items[0].id) : "";
      return id;
    }, { message: `the in-app notification of ${user}` })
    .not.toBe("");
  const read = await page.request.post(`/v3/notifications/${id}/reads`, { headers });
  expect(read.ok()).toBeTruthy();
}

async function startRun(page: Page, user: string) {
  const form = page.getByRole("form", { name: "Test run" });
  await form.getByLabel("User identifier").fill(user);
  await form.getByLabel("Email address (optional)").fill(`${user}@example.com`);
  await form.getByLabel("Data (JSON)").fill('{"plan": "pro"}');
  await form.getByRole("button", { name: "Start test run" }).click();
  return page.getByRole("region", { name: "Run timeline" });
}

test("designer: build inApp → delay → branch(not read) → email, publish, test runs with and without reading", async ({ page }) => {
  const app = await setup(page);
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/get-started`);
  await page.getByRole("navigation", { name: "App" }).getByRole("link", { name: "Workflows" }).click();
  await expect(page.getByRole("heading", { name: "Workflows" })).toBeVisible();
  await expect(page.getByText("No workflows yet")).toBeVisible();

  // Create: the designer opens with one in-app step.
  const create = page.getByRole("form", { name: "New workflow" });
  await create.getByLabel("Name").fill("Reminder");
  await create.getByLabel("Identifier").fill("reminder");
  await create.getByRole("button", { name: "Create workflow" }).click();
  await expect(page.getByRole("heading", { name: "Reminder" })).toBeVisible();
  const canvas = page.getByLabel("Workflow canvas");
  const node = (id: string) => canvas.locator(`.react-flow__node[data-id="${id}"]`);
  await expect(node("inApp-1")).toBeVisible();

  // Mouse: select the in-app step; the palette adds the delay after it, connected.
  await node("inApp-1").click();
  const panel = page.getByRole("complementary", { name: "Selected step" });
  await expect(panel.getByRole("group", { name: /inApp step/ })).toBeVisible();
  await code(panel, "In-app title").fill("Your cart misses you");
  await page.getByRole("button", { name: "Add delay step" }).click();
  await expect(node("delay-1")).toBeVisible();
  await expect(panel.getByLabel("Step id")).toHaveValue("delay-1");
  // Keyboard: the duration typed into the schema-driven form (a bad one is named first).
  const duration = panel.getByLabel("Duration");
  await duration.fill("soon");
  await expect(duration).toHaveAccessibleDescription(/duration must be a duration/);
  await duration.fill(delay);
  await expect(duration).not.toHaveAttribute("aria-invalid", "true");

  // The branch after the delay: its condition built as "inApp-1 is notRead".
  await page.getByRole("button", { name: "Add branch step" }).click();
  await expect(node("branch-1")).toBeVisible();
  await panel.getByLabel("Condition 1: kind").selectOption({ label: "State of a step's notification" });
  await panel.getByLabel("Condition 1: step").selectOption("inApp-1");
  await panel.getByLabel("Condition 1: state").selectOption("notRead");
  await expect(canvas.getByText("inApp-1 notRead").first()).toBeVisible();

  // An email step on its own (nothing selected), connected with the mouse: drag from the
  // branch's condition handle to the email step.
  await canvas.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
  await expect(panel.getByRole("heading", { name: "No step selected" })).toBeVisible();
  await page.getByRole("button", { name: "Add email step" }).click();
  await expect(node("email-1")).toBeVisible();
  await page.getByRole("button", { name: "Auto layout" }).click();
  const handle = canvas.getByLabel("branch-1: inApp-1 notRead");
  const into = canvas.getByLabel("Into email-1");
  await canvas.scrollIntoViewIfNeeded();
  // The view fits the new layout: wait until the handles stop moving.
  let last = "";
  await expect
    .poll(async () => {
      const now = JSON.stringify([await handle.boundingBox(), await into.boundingBox()]);
      const still = now === last;
      last = now;
      return still;
    })
    .toBe(true);
  const from = await handle.boundingBox();
  const to = await into.boundingBox();
  await page.mouse.move(from!.x + from!.width / 2, from!.y + from!.height / 2);
  await page.mouse.down();
  await page.mouse.move(from!.x + 40, from!.y + 60, { steps: 5 });
  await page.mouse.move(to!.x + to!.width / 2, to!.y + to!.height / 2, { steps: 10 });
  await page.mouse.up();
  await expect(canvas.locator('.react-flow__edge[data-id="branch-1:cond-0"]')).toHaveCount(1);

  // Keyboard: a stray SMS step deleted with Delete, brought back with Ctrl+Z, gone again with Ctrl+Shift+Z.
  await page.getByRole("button", { name: "Add sms step" }).click();
  await expect(node("sms-1")).toBeVisible();
  await node("sms-1").click();
  await page.keyboard.press("Delete");
  await expect(node("sms-1")).toHaveCount(0);
  await page.keyboard.press("Control+z");
  await expect(node("sms-1")).toBeVisible();
  await page.keyboard.press("Control+Shift+z");
  await expect(node("sms-1")).toHaveCount(0);

  // Saved without content: the server's problem appears on the email step.
  expectFailedRequests(1);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText(/The draft has 1 problem/)).toBeVisible();
  await expect(canvas.getByRole("list", { name: "Problems of email-1" })).toContainText("needs a template or content");
  await shoot(page, "workflow-designer-problems");

  // Fixed in the panel: inline content for the email.
  await node("email-1").click();
  await expect(panel.getByText("needs a template or content")).toBeVisible();
  await code(panel, "Email subject").fill("You left something behind");
  await code(panel, "Email plain-text body").fill("Come back to your cart: {{data.plan}} plan");
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(page.getByText("draft saved")).toBeVisible();
  await expect(canvas.getByRole("list", { name: "Problems of email-1" })).toHaveCount(0);
  await shoot(page, "workflow-designer");

  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("Published version 1", { exact: true })).toBeVisible();
  await expect(page.getByText("published v1")).toBeVisible();

  // The JSON view holds the definition the canvas drew.
  await page.getByRole("tab", { name: "JSON" }).click();
  const json = JSON.parse(await page.getByLabel("Workflow JSON").inputValue());
  expect(json).toEqual({
    steps: [
      { id: "inApp-1", type: "inApp", content: { title: "Your cart misses you" }, next: "delay-1" },
      { id: "delay-1", type: "delay", duration: delay, next: "branch-1" },
      { id: "branch-1", type: "branch", conditions: [{ if: { step: "inApp-1", is: "notRead" }, next: "email-1" }] },
      { id: "email-1", type: "email", content: { subject: "You left something behind", text: "Come back to your cart: {{data.plan}} plan" } },
    ],
  });

  // Versions: v1 equals the draft.
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page.getByRole("row", { name: /v1/ })).toBeVisible();
  await expect(page.getByText("No differences.")).toBeVisible();

  // Test run 1: the user never reads the in-app message: the branch sends the email.
  await page.getByRole("tab", { name: "Test run" }).click();
  const dora = `dora-${Date.now()}`;
  let timeline = await startRun(page, dora);
  await expect(timeline.getByLabel("Run status: completed")).toBeVisible({ timeout: 60_000 });
  const steps = timeline.getByRole("list", { name: `Steps of ${dora}'s run` });
  await expect(steps.getByRole("listitem")).toHaveCount(4);
  await expect(steps.getByRole("listitem").nth(1)).toContainText(`delay-1 (delay) waited ${delay}`);
  await expect(steps.getByRole("listitem").nth(2)).toContainText("condition 0 → email-1");
  await expect(steps.getByRole("listitem").nth(3)).toContainText("email-1 (email) sent");
  await shoot(page, "workflow-test-run");
  const got = await mail(page, `${dora}@example.com`, "Come back to your cart: pro plan");
  expect(got.subject).toBe("You left something behind");

  // Test run 2: the user reads the in-app message during the delay: no email.
  const rita = `rita-${Date.now()}`;
  timeline = await startRun(page, rita);
  await markRead(page, app.apiKey, rita);
  // The delay counting down, for the docs (not asserted: it lasts the delay only).
  await timeline
    .getByRole("timer")
    .waitFor({ timeout: 5_000 })
    .then(() => shoot(page, "workflow-test-run-waiting"), () => {});
  await expect(timeline.getByLabel("Run status: completed")).toBeVisible({ timeout: 60_000 });
  const ritaSteps = timeline.getByRole("list", { name: `Steps of ${rita}'s run` });
  await expect(ritaSteps.getByRole("listitem")).toHaveCount(3);
  await expect(ritaSteps.getByRole("listitem").nth(2)).toContainText("else → end");
  const none = await page.request.get(`${side}/mail?to=${encodeURIComponent(`${rita}@example.com`)}`);
  expect(none.status()).toBe(404);

  // The JSON view opens an edited definition on the canvas; the diff names the change; undo restores it.
  await page.getByRole("tab", { name: "JSON" }).click();
  const text = await page.getByLabel("Workflow JSON").inputValue();
  await page.getByLabel("Workflow JSON").fill(text.replace(`"duration": "${delay}"`, '"duration": "2m"'));
  await page.getByRole("button", { name: "Apply JSON" }).click();
  await expect(page.getByText("unsaved changes")).toBeVisible();
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page.getByText("2 changed lines.")).toBeVisible();
  await expect(page.getByLabel("Diff from v1 to the draft")).toContainText('+     "duration": "2m",');
  await page.getByRole("tab", { name: "Canvas" }).click();
  await expect(node("delay-1")).toContainText("2m");
  await page.keyboard.press("Control+z");
  await expect(node("delay-1")).toContainText(delay);
  await expect(page.getByText("draft saved")).toBeVisible();
});

test("designer: a viewer sees a workflow made through the API, laid out, read-only; an unknown workflow is not found", async ({ page }) => {
  const app = await setup(page);
  const headers = await ownerToken(page);
  const definition = {
    steps: [
      { id: "load", type: "fetch", url: "https://example.com/profile", next: "note", onError: "fallback" },
      { id: "note", type: "inApp", content: { title: "Hello" }, next: "wait" },
      { id: "wait", type: "waitForRead", step: "note", timeout: "1h", next: "done", timeoutNext: "pick" },
      {
        id: "pick",
        type: "branch",
        conditions: [{ if: { field: "data.plan", op: "eq", value: "pro" }, next: "fallback" }],
        else: "done",
      },
      { id: "fallback", type: "email", content: { subject: "Hi", text: "Hello" } },
      { id: "done", type: "throttle", limit: 1, window: "1d" },
    ],
  };
  const made = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "onboarding", name: "Onboarding", definition } });
  expect(made.status(), await made.text()).toBe(201);
  expect((await page.request.post(`/v1/apps/${app.id}/workflows/onboarding/publish`, { headers })).status()).toBe(200);

  await signIn(page, process.env.VIEWER_EMAIL!);
  await page.goto(`/apps/${app.id}/workflows`);
  await expect(page.getByRole("row", { name: /Onboarding/ })).toContainText("v1");
  await expect(page.getByRole("form", { name: "New workflow" })).toHaveCount(0);
  await shoot(page, "workflows");
  await page.getByRole("link", { name: "Onboarding" }).click();

  // Every step and way out is drawn, in layers: each edge points down.
  const canvas = page.getByLabel("Workflow canvas");
  await expect(canvas.locator(".react-flow__node")).toHaveCount(6);
  await expect(canvas.locator(".react-flow__edge")).toHaveCount(7);
  const top = async (id: string) => (await canvas.locator(`.react-flow__node[data-id="${id}"]`).boundingBox())!.y;
  expect(await top("load")).toBeLessThan(await top("note"));
  expect(await top("note")).toBeLessThan(await top("wait"));
  expect(await top("wait")).toBeLessThan(await top("pick"));
  expect(await top("pick")).toBeLessThan(await top("fallback"));
  expect(await top("pick")).toBeLessThan(await top("done"));
  await shoot(page, "workflow-layout");

  // Read-only: no palette, no save or publish; the step's form is disabled.
  await expect(page.getByRole("navigation", { name: "Add a step" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save draft" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Publish" })).toHaveCount(0);
  await canvas.locator('.react-flow__node[data-id="wait"]').click();
  const panel = page.getByRole("complementary", { name: "Selected step" });
  await expect(panel.getByLabel("Timeout (required)")).toHaveValue("1");
  await expect(panel.getByLabel("Unit")).toHaveValue("h");
  await expect(panel.getByLabel("Timeout (required)")).toBeDisabled();
  // Keyboard: a focused step is selected with Enter.
  await canvas.getByRole("group", { name: "Step pick (branch)" }).focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("group", { name: "branch step pick" })).toBeVisible();
  await expect(panel.getByLabel("Condition 1: field")).toHaveValue("data.plan");
  await page.getByRole("tab", { name: "JSON" }).click();
  await expect(page.getByLabel("Workflow JSON")).toHaveAttribute("readonly", "");
  expect(JSON.parse(await page.getByLabel("Workflow JSON").inputValue())).toEqual(definition);
  await page.getByRole("tab", { name: "Versions" }).click();
  await expect(page.getByText("No differences.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Open v1 as the draft/ })).toHaveCount(0);

  expectFailedRequests(1);
  await page.goto(`/apps/${app.id}/workflows/nope`);
  await expect(page.getByRole("alert")).toContainText("Not found");
});

test("designer: a problem the server named goes away once the draft is fixed; Publish follows the draft on screen; moved steps stay put", async ({ page }) => {
  const app = await setup(page);
  const headers = await ownerToken(page);
  const definition = {
    steps: [
      { id: "hello", type: "inApp", content: { title: "Hello" }, next: "delay-1" },
      { id: "delay-1", type: "delay", duration: "8s" },
    ],
  };
  const made = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "nudge", name: "Nudge", definition } });
  expect(made.status(), await made.text()).toBe(201);

  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/workflows/nudge`);
  const canvas = page.getByLabel("Workflow canvas");
  const panel = page.getByRole("complementary", { name: "Selected step" });
  const save = page.getByRole("button", { name: "Save draft" });
  const publish = page.getByRole("button", { name: "Publish" });
  await canvas.locator('.react-flow__node[data-id="delay-1"]').click();
  const duration = panel.getByLabel("Duration");
  await expect(duration).toHaveValue("8");
  await expect(panel.getByLabel("Unit")).toHaveValue("s");

  // "8 seconds" saved: the server names the problem on the step, the field and the banner,
  // and Publish (which would save this draft first) is refused.
  await duration.fill("8 seconds");
  const delayNode = canvas.locator('.react-flow__node[data-id="delay-1"]');
  const height = (await delayNode.boundingBox())!.height;
  expectFailedRequests(1);
  await save.click();
  const banner = page.getByText(/The draft has 1 problem/);
  await expect(banner).toBeVisible();
  await expect(canvas.getByRole("list", { name: "Problems of delay-1" })).toContainText("duration");
  await expect(duration).toHaveAttribute("aria-invalid", "true");
  // A screen reader hears the problems in the node's name.
  await expect(canvas.getByRole("group", { name: "Step delay-1 (delay), 1 problem" })).toBeVisible();
  await expect(publish).toBeDisabled();
  // The marked node keeps its size: it covers no edge below it.
  expect((await delayNode.boundingBox())!.height).toBe(height);
  await shoot(page, "workflow-designer-stale-problem");

  // "8s" typed back: the draft equals the stored one, and everything said about "8 seconds" is gone.
  await duration.fill("8s");
  await expect(page.getByText("draft saved")).toBeVisible();
  await expect(save).toBeDisabled();
  await expect(banner).toHaveCount(0);
  await expect(canvas.getByRole("list", { name: "Problems of delay-1" })).toHaveCount(0);
  await expect(duration).not.toHaveAttribute("aria-invalid", "true");
  await expect(canvas.getByRole("group", { name: "Step delay-1 (delay)", exact: true })).toBeVisible();
  await expect(publish).toBeEnabled();
  await page.getByRole("tab", { name: "Test run" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "problem" })).toHaveCount(0);
  await page.getByRole("tab", { name: "Canvas" }).click();

  await publish.click();
  await expect(page.getByText("Published version 1", { exact: true })).toBeVisible();

  // A step moved with the mouse stays where it was put: saved with the draft, there after a reload.
  const hello = canvas.locator('.react-flow__node[data-id="hello"]');
  const at = (n: typeof hello) => n.evaluate((el) => (el as HTMLElement).style.transform);
  const laidOut = await at(hello);
  const box = (await hello.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + 12);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + 40, { steps: 8 });
  await page.mouse.move(box.x + box.width / 2 + 240, box.y + 52, { steps: 8 });
  await page.mouse.up();
  const moved = await at(hello);
  expect(moved).not.toBe(laidOut);
  await expect(page.getByText("unsaved changes")).toBeVisible();
  await save.click();
  await expect(page.getByText("draft saved")).toBeVisible();
  await page.reload();
  await expect(hello).toBeVisible();
  expect(await at(hello)).toBe(moved);
  await expect(page.getByText("draft saved")).toBeVisible();
  await shoot(page, "workflow-designer-moved");
  // Auto layout is still there: it puts the step back, as a change to save.
  await page.getByRole("button", { name: "Auto layout" }).click();
  await expect.poll(() => at(hello)).toBe(laidOut);
  await expect(page.getByText("unsaved changes")).toBeVisible();

  // How the delay waits, by type: only that type's fields; a duration is an amount and a unit.
  await canvas.locator('.react-flow__node[data-id="delay-1"]').click();
  const wait = panel.getByLabel("Wait");
  await expect(wait).toHaveValue("duration");
  await expect(panel.getByLabel("Until")).toHaveCount(0);
  await wait.selectOption({ label: "Until a time of day in the recipient's time zone" });
  await expect(panel.getByLabel("Duration")).toHaveCount(0);
  await panel.getByLabel("Time of day").fill("09:30");
  await panel.getByLabel("Timezone").fill("Europe/Paris");
  await expect(delayNode).toContainText("at 09:30");
  await shoot(page, "workflow-delay-time-of-day");
  await wait.selectOption({ label: "For a duration" });
  await expect(panel.getByLabel("Time of day")).toHaveCount(0);
  await panel.getByLabel("Duration").fill("2");
  await panel.getByLabel("Unit").selectOption({ label: "minutes" });
  await expect(delayNode).toContainText("2m");
  await shoot(page, "workflow-delay-duration");
  await page.getByRole("tab", { name: "JSON" }).click();
  const steps = JSON.parse(await page.getByLabel("Workflow JSON").inputValue()).steps;
  expect(steps[1]).toEqual({ id: "delay-1", type: "delay", duration: "2m" });

  // A digest closes after a window or at a time of day in the recipient's time zone: the
  // delay's picker; a bad time is named on its field; the count stays beside either.
  await page.getByRole("tab", { name: "Canvas" }).click();
  await canvas.locator('.react-flow__node[data-id="delay-1"]').click();
  await page.getByRole("button", { name: "Add digest step" }).click();
  const digestNode = canvas.locator('.react-flow__node[data-id="digest-1"]');
  await expect(digestNode).toBeVisible();
  const closes = panel.getByLabel("Wait");
  await expect(closes).toHaveValue("window");
  await closes.selectOption({ label: "Until a time of day in the recipient's time zone" });
  await expect(panel.getByLabel("Window")).toHaveCount(0);
  const timeOfDay = panel.getByLabel("Time of day");
  await timeOfDay.fill("8 am");
  await expect(timeOfDay).toHaveAccessibleDescription(/timeOfDay has the wrong form/);
  await timeOfDay.fill("08:00");
  await expect(timeOfDay).not.toHaveAttribute("aria-invalid", "true");
  await panel.getByLabel("Timezone").fill("Europe/Paris");
  await panel.getByLabel("Count").fill("20");
  await expect(digestNode).toContainText("at 08:00");
  await shoot(page, "workflow-digest-time-of-day");
  await page.getByRole("tab", { name: "JSON" }).click();
  const after = JSON.parse(await page.getByLabel("Workflow JSON").inputValue()).steps as Record<string, unknown>[];
  expect(after.find((s) => s.id === "digest-1")).toMatchObject({ type: "digest", timeOfDay: "08:00", timezone: "Europe/Paris", count: 20 });
});
