// The payload schema journey: declare the JSON Schema of a workflow's data in the designer's
// Payload tab (the form builder, the raw JSON in sync, inferred from a sample), publish, see
// sample data made from it prefilled in the test run, and a send whose data breaks it
// refused with a 422 listing every problem (through the developer API, as a backend would).
import { expect, expectFailedRequests, password, shoot, signIn, test } from "./fixtures";

test("payload schema: declared in the designer, prefills the test run, a violating send gets a 422", async ({ page }) => {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const headers = { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Payload ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number; apiKey: string; apiSecret: string };
  const definition = { steps: [{ id: "hello", type: "inApp", content: { title: "Order {{data.order.id}}" } }] };
  const wf = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "order", name: "Order", definition } });
  expect(wf.status(), await wf.text()).toBe(201);

  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/workflows/order`);
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(page.getByText("No payload schema: any data object is accepted.")).toBeVisible();

  // Inferred from a sample: the fields appear in the builder and the raw JSON.
  await page.getByLabel("Sample data (JSON)").fill('{"order": {"id": "A-1", "total": 12.5}, "customer": "Ada"}');
  await page.getByRole("button", { name: "Infer from sample" }).click();
  const fields = page.getByRole("list", { name: "Payload fields" });
  await expect(fields.getByRole("group", { name: "Field order", exact: true })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Schema JSON" })).toHaveValue(/"customer"/);

  // The builder: customer becomes optional, a nested field is added to order.
  const customer = fields.getByRole("group", { name: "Field customer", exact: true });
  await customer.getByLabel("Required").uncheck();
  const order = fields.getByRole("group", { name: "Field order", exact: true });
  await order.getByRole("button", { name: "Add field to order" }).click();
  const added = order.getByRole("group", { name: "Field order.field3", exact: true });
  await added.getByLabel("Name").fill("count");
  await order.getByRole("group", { name: "Field order.count", exact: true }).getByLabel("Type").selectOption("integer");
  await expect(page.getByRole("textbox", { name: "Schema JSON" })).toHaveValue(/"count": \{\s*"type": "integer"/);
  await expect(page.getByRole("textbox", { name: "Schema JSON" })).toHaveValue(/"required": \[\s*"order"\s*\]/);

  // The raw JSON drives the builder too; a problem the server finds shows by its field.
  const raw = page.getByRole("textbox", { name: "Schema JSON" });
  const good = await raw.inputValue();
  await raw.fill(good.replace(/("customer": \{\s*"type": )"string"/, '$1"strin"'));
  expectFailedRequests(1);
  await page.getByRole("button", { name: "Save draft" }).click();
  await expect(fields.getByRole("group", { name: "Field customer", exact: true }).getByRole("alert")).toContainText("type: value must be one of");
  await expect(page.getByRole("button", { name: "Publish" })).toBeDisabled();
  await shoot(page, "workflow-payload-problem");
  await raw.fill(good);
  await expect(fields.getByRole("group", { name: "Field customer", exact: true }).getByRole("alert")).toHaveCount(0);
  await shoot(page, "workflow-payload");
  await page.getByRole("button", { name: "Publish" }).click();
  await expect(page.getByText("published v1")).toBeVisible();

  // The test run starts with sample data made from the schema.
  await page.getByRole("tab", { name: "Test run" }).click();
  const data = page.getByRole("form", { name: "Test run" }).getByLabel("Data (JSON)");
  await expect(data).toHaveValue(/"order": \{\s*"id": "sample id",\s*"total": 9.99,\s*"count": 1\s*\}/);
  await shoot(page, "workflow-payload-test-run");

  // Opening a published version as the draft brings back that version's payload schema too.
  await page.getByRole("tab", { name: "Payload" }).click();
  await page.getByRole("textbox", { name: "Schema JSON" }).fill('{"type": "object"}');
  await expect(page.getByRole("textbox", { name: "Schema JSON" })).not.toHaveValue(/"customer"/);
  await page.getByRole("tab", { name: "Versions" }).click();
  await page.getByRole("button", { name: "Open v1 as the draft" }).click();
  await page.getByRole("tab", { name: "Payload" }).click();
  await expect(page.getByRole("textbox", { name: "Schema JSON" })).toHaveValue(/"customer"/);

  // A send whose data breaks the schema: 422, every problem with its pointer, nothing stored.
  const api = { "X-SERVICE-API-KEY": app.apiKey, "X-SERVICE-API-SECRET": app.apiSecret };
  expectFailedRequests(1);
  const refused = await page.evaluate(
    async ({ api }) => {
      const res = await fetch("/v3/notifications", {
        method: "POST",
        headers: { ...api, "Content-Type": "application/json" },
        body: JSON.stringify({ notification: { workflow: { identifier: "order" } }, sendTo: { recipients: ["ann"] }, data: { order: { total: "lots", count: 1.5 } } }),
      });
      return { status: res.status, body: await res.json() };
    },
    { api },
  );
  expect(refused.status).toBe(422);
  expect((refused.body.problems as { pointer: string }[]).map((p) => p.pointer)).toEqual(["/data/order", "/data/order/count", "/data/order/total"]);
  const accepted = await page.request.post("/v3/notifications", {
    headers: api,
    data: { notification: { workflow: { identifier: "order" } }, sendTo: { recipients: ["ann"] }, data: { order: { id: "A-1", total: 3, count: 2 } } },
  });
  expect(accepted.status(), await accepted.text()).toBe(202);
});

test("payload schema: a step's content editor completes {{data.…}} and previews with sample data made from it", async ({ page }) => {
  const auth = await page.request.post("/v1/auth?redirect=%2F", { data: { email: process.env.OWNER_EMAIL, password } });
  expect(auth.status(), await auth.text()).toBe(200);
  const headers = { Authorization: `Bearer ${(await auth.json()).accessToken as string}` };
  const clients = (await (await page.request.get("/v1/clients", { headers })).json()) as { id: number; name: string }[];
  const client = clients.find((c) => c.name === "Acme")!;
  const made = await page.request.post(`/v1/clients/${client.id}/apps`, { headers, data: { name: `Payload steps ${Date.now()}` } });
  expect(made.status()).toBe(201);
  const app = (await made.json()) as { id: number };
  const payloadSchema = {
    type: "object",
    properties: { order: { type: "object", properties: { id: { type: "string", examples: ["A-17"] }, total: { type: "number" } }, required: ["id"] } },
    required: ["order"],
  };
  const definition = { steps: [{ id: "hello", type: "inApp", content: { title: "Order" } }] };
  const wf = await page.request.post(`/v1/apps/${app.id}/workflows`, { headers, data: { identifier: "order", name: "Order", definition, payloadSchema } });
  expect(wf.status(), await wf.text()).toBe(201);

  await signIn(page, process.env.OWNER_EMAIL!);
  await page.goto(`/apps/${app.id}/workflows/order`);
  await page.getByLabel("Workflow canvas").locator('.react-flow__node[data-id="hello"]').click();
  const panel = page.getByRole("complementary", { name: "Selected step" });
  // The preview's sample data starts from the schema (its example for order.id).
  await expect(panel.getByLabel("Sample data (JSON)")).toHaveValue(/"id": "A-17"/);
  // The schema's paths are offered after {{, and the preview renders them.
  const title = panel.getByRole("textbox", { name: "In-app title", exact: true });
  await title.click();
  await page.keyboard.press("End");
  await title.pressSequentially(" {{data.order.t");
  await expect(page.getByRole("option", { name: "data.order.total" })).toBeVisible();
  await page.keyboard.press("Escape");
  await title.fill("Order {{data.order.id}}");
  await expect(panel.getByRole("region", { name: "Live preview" })).toContainText("Order A-17");
});
