// API errors shown next to the fields they name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError, fieldErrors } from "../../src/api/errors.ts";

test("messages go under the field they start with; the rest under the form", () => {
  const err = new ApiError(400, [
    "email must be an email address",
    "password must be at least 8 characters",
    "allowedOrigins[0] must be an origin",
    "emailVerified is read-only",
    "too many requests",
  ]);
  assert.deepEqual(fieldErrors(err, ["email", "password", "allowedOrigins"]), {
    email: ["email must be an email address"],
    password: ["password must be at least 8 characters"],
    allowedOrigins: ["allowedOrigins[0] must be an origin"],
    "": ["emailVerified is read-only", "too many requests"],
  });
});

test("an error without messages still shows its status; no error shows nothing", () => {
  assert.deepEqual(fieldErrors(new ApiError(503, []), ["email"]), { "": ["request failed (503)"] });
  assert.deepEqual(fieldErrors(null, ["email"]), {});
  assert.deepEqual(fieldErrors(new Error("network down"), []), { "": ["network down"] });
});
