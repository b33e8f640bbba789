// The payload schema helpers: completion paths, sample data, inference and the builder's rows.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fieldsFromSchema, inferSchema, sampleFromSchema, schemaFromFields, schemaPaths } from "../../src/screens/workflows/payloadSchema.ts";

const schema = {
  type: "object",
  required: ["order"],
  properties: {
    order: { type: "object", required: ["id"], properties: { id: { type: "string" }, total: { type: "number" } } },
    items: { type: "array", items: { type: "object", properties: { sku: { type: "string" }, qty: { type: "integer" } } } },
    email: { type: "string", format: "email" },
    vip: { type: "boolean", description: "kept" },
  },
};

test("schemaPaths: every data path, nested objects and array items", () => {
  assert.deepEqual(schemaPaths(schema), ["data.order", "data.order.id", "data.order.total", "data.items", "data.items.[0].sku", "data.items.[0].qty", "data.email", "data.vip"]);
  assert.deepEqual(schemaPaths(null), []);
});

test("sampleFromSchema: a value of each type, examples first", () => {
  assert.deepEqual(sampleFromSchema(schema), { order: { id: "sample id", total: 9.99 }, items: [{ sku: "sample sku", qty: 1 }], email: "ada@example.com", vip: true });
  assert.deepEqual(sampleFromSchema({ type: "object", properties: { n: { type: "string", examples: ["Ada"] } } }), { n: "Ada" });
});

test("inferSchema: types from a sample, members required", () => {
  assert.deepEqual(inferSchema({ id: "A-1", n: 2, x: 1.5, ok: false, tags: ["a"], o: { k: "v" } }), {
    type: "object",
    required: ["id", "n", "x", "ok", "tags", "o"],
    properties: {
      id: { type: "string" },
      n: { type: "integer" },
      x: { type: "number" },
      ok: { type: "boolean" },
      tags: { type: "array", items: { type: "string" } },
      o: { type: "object", properties: { k: { type: "string" } }, required: ["k"] },
    },
  });
});

test("the builder's rows round-trip and keep what they do not show", () => {
  const fields = fieldsFromSchema(schema);
  assert.deepEqual(
    fields.map((f) => [f.name, f.type, f.required, f.itemType, f.fields?.map((x) => x.name)]),
    [
      ["order", "object", true, undefined, ["id", "total"]],
      ["items", "array", false, "object", ["sku", "qty"]],
      ["email", "string", false, undefined, undefined],
      ["vip", "boolean", false, undefined, undefined],
    ],
  );
  assert.deepEqual(schemaFromFields(fields, schema), schema);
  const renamed = schemaFromFields([{ name: "total", type: "number", required: true }], schema);
  assert.deepEqual(renamed.properties, { total: { type: "number" } });
  assert.deepEqual(renamed.required, ["total"]);
});
