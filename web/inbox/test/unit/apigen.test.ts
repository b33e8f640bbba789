// src/api.gen.ts is generated from Herald's /v3/openapi.json (npm run gen:api): it must
// match what the generator makes from the committed document.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

test("src/api.gen.ts is up to date with api/v3/openapi.json", () => {
  const out = join(mkdtempSync(join(tmpdir(), "herald-apigen-")), "api.gen.ts");
  execFileSync("npx", ["openapi-typescript", "../../api/v3/openapi.json", "-o", out], { stdio: "pipe" });
  assert.ok(readFileSync(out, "utf8") === readFileSync("src/api.gen.ts", "utf8"), "src/api.gen.ts is stale: run `npm run gen:api` in web/inbox and commit it");
});
