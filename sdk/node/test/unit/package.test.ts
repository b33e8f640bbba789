// The package as published: the generated types are fresh, both builds load, and the main
// entry imports nothing but web standards (edge runtimes).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import * as esm from "@heraldhq/node";

const root = fileURLToPath(new URL("../../../", import.meta.url));

describe("package", () => {
  it("has fresh types: src/api.gen.ts is what openapi-typescript makes of api/v3/openapi.json (run npm run gen)", () => {
    const dir = mkdtempSync(join(tmpdir(), "herald-gen-"));
    try {
      const out = join(dir, "api.gen.ts");
      const cli = join(root, "node_modules", "openapi-typescript", "bin", "cli.js");
      const r = spawnSync(process.execPath, [cli, join(root, "..", "..", "api", "v3", "openapi.json"), "-o", out], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
      const fresh = readFileSync(out, "utf8");
      const committed = readFileSync(join(root, "src", "api.gen.ts"), "utf8");
      assert.ok(fresh === committed, "src/api.gen.ts is stale: run `npm run gen` in sdk/node (or `make sdk-node-types`)");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("loads as CommonJS with the same exports", () => {
    const require = createRequire(import.meta.url);
    const cjs = require("@heraldhq/node") as Record<string, unknown>;
    assert.deepEqual(Object.keys(cjs).sort(), Object.keys(esm).sort());
    assert.equal(typeof cjs.Herald, "function");
    assert.match(require.resolve("@heraldhq/node"), /dist[\\/]cjs[\\/]index\.js$/);
  });

  it("imports no Node module statically in either build", () => {
    for (const build of ["esm", "cjs"]) {
      const dir = join(root, "dist", build);
      for (const f of readdirSync(dir).filter((f) => f.endsWith(".js"))) {
        const src = readFileSync(join(dir, f), "utf8");
        assert.doesNotMatch(src, /from\s+["']node:|from\s+["'](fs|crypto|http|https|net|buffer|path)["']|require\(["'](?!\.)/, `${build}/${f}`);
        assert.doesNotMatch(src, /\bBuffer\b|\bprocess\.env\b/, `${build}/${f} uses a Node global`);
      }
    }
  });

  it("has no runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.version, esm.version);
  });
});
