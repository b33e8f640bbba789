// Managing workflows from the console: rename, duplicate, archive, delete (refused while a
// flow schedule sends the workflow, with the server's reason in the dialog) and cancel a
// running test run from its timeline, against real Temporal. Found by role and label only.
import { expect, expectFailedRequests, password, shoot, signIn, test, type Page } from "./fixtures";

/** setup makes an app with a published workflow "nudge" (a 1h delay, then an in-app step)
 * and a flow schedule that sends it, through the API as the owner. */
async function setup(page: Page) {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const headers = { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Manage ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number };
  const definition = {
    steps: [
      { id: "wait", type: "delay", duration: "1h", next: "note" },
      { id: "note", type: "inApp", content: { title: "Still there?" } },
    ],
  };
  const wf = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "nudge", name: "Nudge", definition } });
  expect(wf.status(), await wf.text()).toBe(201);
  expect((await page.request.post(`/v1/apps/${app.id}/workflows/nudge/publish`, { headers })).status()).toBe(200);
  const sched = await page.request.post(`/v1/apps/${app.id}/workflow-schedules`, {
    headers,
    data: { workflow: "nudge", cron: "0 9 * * MON", timezone: "UTC", sendTo: { recipients: ["ann"] } },
  });
  expect(sched.status(), await sched.text()).toBe(201);
  return { app, scheduleId: ((await sched.json()) as { scheduleId: string }).scheduleId };
}

test("workflows: rename, duplicate, archive and delete from the list; a scheduled one is not deleted; cancel a running test run", async ({ page }) => {
  const { app, scheduleId } = await setup(page);
  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/workflows`);
  const list = page.getByRole("region", { name: "Workflows" });
  await expect(list.getByRole("row", { name: /Nudge/ })).toContainText("v1");

  // Rename: the name changes, the identifier stays.
  await list.getByRole("button", { name: "Rename Nudge" }).click();
  let dialog = page.getByRole("dialog", { name: "Rename Nudge" });
  await dialog.getByLabel("Name").fill("Gentle nudge");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(list.getByRole("row", { name: /Gentle nudge/ })).toContainText("nudge");

  // Duplicate: proposed as nudge-copy, opened in the designer as a draft.
  await list.getByRole("button", { name: "Duplicate Gentle nudge" }).click();
  dialog = page.getByRole("dialog", { name: "Duplicate Gentle nudge" });
  await expect(dialog.getByLabel("Identifier")).toHaveValue("nudge-copy");
  await expect(dialog.getByLabel("Name")).toHaveValue("Gentle nudge (copy)");
  await dialog.getByRole("button", { name: "Duplicate" }).click();
  await expect(page.getByRole("heading", { name: "Gentle nudge (copy)" })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "not published" })).toBeVisible();
  await page.getByRole("link", { name: "Workflows" }).first().click();
  await expect(list.getByRole("row")).toHaveCount(3); // the header and two workflows
  await shoot(page, "workflows-manage");

  // Delete a workflow a schedule sends: refused, and the dialog says which schedule.
  expectFailedRequests(1);
  await list.getByRole("button", { name: "Delete Gentle nudge", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Delete Gentle nudge?" });
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await expect(dialog.getByRole("alert")).toContainText(`is used by flow schedule(s) ${scheduleId}; delete them first`);
  await shoot(page, "workflows-delete-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(list.getByRole("row", { name: /Gentle nudge/ }).first()).toBeVisible();

  // Archive the copy: hidden, shown with "Show archived workflows", then unarchived.
  await list.getByRole("button", { name: "Archive Gentle nudge (copy)" }).click();
  await expect(list.getByRole("row", { name: /Gentle nudge \(copy\)/ })).toHaveCount(0);
  await page.getByLabel("Show archived workflows").check();
  await expect(list.getByRole("row", { name: /Gentle nudge \(copy\)/ })).toContainText("archived");
  await list.getByRole("button", { name: "Unarchive Gentle nudge (copy)" }).click();
  await expect(list.getByRole("button", { name: "Archive Gentle nudge (copy)" })).toBeVisible();

  // Marked critical from its row (its steps then ignore opt-outs): kept after a reload.
  const marked = page.waitForResponse((r) => r.request().method() === "PATCH" && r.url().includes("/workflows/"));
  await list.getByRole("checkbox", { name: "Critical: Gentle nudge (copy)" }).check();
  expect((await marked).ok()).toBeTruthy();
  await page.reload();
  await expect(list.getByRole("checkbox", { name: "Critical: Gentle nudge (copy)" })).toBeChecked();
  await expect(list.getByRole("checkbox", { name: "Critical: Gentle nudge", exact: true })).not.toBeChecked();

  // Delete the copy.
  await list.getByRole("button", { name: "Delete Gentle nudge (copy)" }).click();
  dialog = page.getByRole("dialog", { name: "Delete Gentle nudge (copy)?" });
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(list.getByRole("row", { name: /Gentle nudge \(copy\)/ })).toHaveCount(0);
  await expect(list.getByRole("row", { name: /Gentle nudge/ })).toHaveCount(1);

  // Cancel a running test run (waiting on its 1h delay) from the timeline.
  await list.getByRole("link", { name: "Gentle nudge" }).click();
  await page.getByRole("tab", { name: "Test run" }).click();
  const form = page.getByRole("form", { name: "Test run" });
  await form.getByLabel("User identifier").fill("ann");
  await form.getByRole("button", { name: "Start test run" }).click();
  const timeline = page.getByRole("region", { name: "Run timeline" });
  await expect(timeline.getByLabel("Run status: running")).toBeVisible();
  await timeline.getByRole("button", { name: "Cancel run" }).click();
  await expect(timeline.getByRole("status").filter({ hasText: "1 run cancelled." })).toBeVisible();
  await expect(timeline.getByLabel("Run status: cancelled")).toBeVisible();
  await expect(timeline.getByRole("button", { name: "Cancel run" })).toHaveCount(0);
  await shoot(page, "workflow-run-cancelled");
});
