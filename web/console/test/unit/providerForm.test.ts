// The instance form generated from a provider's configuration schema.
import { test } from "node:test";
import assert from "node:assert/strict";
import { configBody, destinationNote, fieldHint, formFields } from "../../src/api/providerForm.ts";

const schema = {
  type: "object",
  required: ["host", "from"],
  properties: {
    host: { type: "string", title: "Host", "x-destination": "host" },
    port: { type: "integer", title: "Port", default: 587, "x-destination": "setting" },
    password: { type: "string", "x-secret": true, title: "Password", default: "never" },
    security: { type: "string", enum: ["starttls", "none"], default: "starttls" },
    from: { type: "string", format: "email", title: "From address" },
    debug: { type: ["boolean", "null"] },
  },
};

test("fields: required first, kinds, secrets without defaults", () => {
  const f = formFields(schema);
  assert.deepEqual(f.map((x) => x.key), ["host", "from", "port", "password", "security", "debug"]);
  assert.deepEqual(f.map((x) => x.kind), ["text", "text", "number", "text", "enum", "boolean"]);
  assert.deepEqual(f.filter((x) => x.required).map((x) => x.title), ["Host", "From address"]);
  assert.equal(f.find((x) => x.key === "password")!.secret, true);
  assert.equal(f.find((x) => x.key === "password")!.default, undefined);
  assert.equal(f.find((x) => x.key === "port")!.default, "587");
  assert.deepEqual(f.filter((x) => x.destination).map((x) => x.key), ["host", "port"]);
  assert.deepEqual(f.find((x) => x.key === "security")!.options, ["starttls", "none"]);
  assert.equal(f.find((x) => x.key === "security")!.title, "security");
  assert.deepEqual(formFields(undefined), []);
});

test("body: numbers and booleans converted, empty fields left out, bad numbers kept for the API to name", () => {
  const f = formFields(schema);
  assert.deepEqual(configBody(f, { host: " mail.example.com ", port: "2525", password: " p w ", security: "", from: "", debug: "true" }), {
    host: "mail.example.com",
    port: 2525,
    password: " p w ",
    debug: true,
  });
  assert.deepEqual(configBody(f, { host: "h", port: "abc" }), { host: "h", port: "abc" });
});

test("hints: secrets write-only, destinations say who may change them", () => {
  const f = formFields({
    properties: {
      password: { type: "string", "x-secret": true, description: "never shown" },
      baseUrl: { type: "string", description: "API base URL", "x-destination": "url" },
      webhookUrl: { type: "string", "x-secret": true, "x-destination": "url" },
      fromName: { type: "string", description: "sender name" },
      helo: { type: "string" },
    },
  });
  const hint = (k: string) => fieldHint(f.find((x) => x.key === k)!);
  assert.equal(hint("password"), "Secret: write-only");
  assert.equal(hint("baseUrl"), "API base URL " + destinationNote);
  assert.equal(hint("webhookUrl"), "Secret: write-only. " + destinationNote);
  assert.equal(hint("fromName"), "sender name");
  assert.equal(hint("helo"), undefined);
});
