// The package as published: the generated types are fresh, both builds load, and the main
// entry imports nothing but web standards (edge runtimes).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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

  it("has types a Node project without the DOM lib can compile, from ESM and from CommonJS", () => {
    const dir = mkdtempSync(join(tmpdir(), "herald-consumer-"));
    try {
      mkdirSync(join(dir, "node_modules", "@heraldhq"), { recursive: true });
      mkdirSync(join(dir, "node_modules", "@types"), { recursive: true });
      symlinkSync(root, join(dir, "node_modules", "@heraldhq", "node"), "dir");
      symlinkSync(join(root, "node_modules", "@types", "node"), join(dir, "node_modules", "@types", "node"), "dir");
      symlinkSync(join(root, "node_modules", "undici-types"), join(dir, "node_modules", "undici-types"), "dir");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", type: "module", private: true }));
      writeFileSync(
        join(dir, "a.ts"),
        `import { Herald, APIError, signUserToken, verifyWebhook, importPrivateKey, type SigningKey } from "@heraldhq/node";
const h = new Herald({ apiKey: "k", signingKey: await importPrivateKey("pem") });
const r = await h.send({ notification: { title: "x" }, sendTo: { recipients: ["a", { identifier: "b", email: "e" }] }, sendAt: new Date() });
const k: SigningKey = "pem";
for await (const n of h.asUser("a").notifications()) console.log(n.title, r.requestId, k);
console.log(APIError, signUserToken, verifyWebhook);
`,
      );
      writeFileSync(
        join(dir, "b.cts"),
        `import herald = require("@heraldhq/node");
void new herald.Herald({ apiKey: "k" }).listTopics().then((t) => t.map((x) => x.identifier));
`,
      );
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: { target: "ES2022", lib: ["ES2022"], module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: ["node"], skipLibCheck: false },
          files: ["a.ts", "b.cts"],
        }),
      );
      const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
      const r = spawnSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8" });
      assert.equal(r.status, 0, r.stdout + r.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds WebCrypto in node:crypto where globalThis.crypto is missing (Node 18), from both builds", () => {
    const script = (load: string) => `
      delete globalThis.crypto; // as on Node 18, where it needs a flag
      if (typeof globalThis.crypto !== "undefined") throw new Error("globalThis.crypto is defined");
      const h = ${load};
      const keys = [];
      const c = new h.Herald({ baseUrl: "http://x.invalid", apiKey: "k", fetch: async (_u, init) => {
        keys.push(init.headers["Idempotency-Key"]);
        return new Response('{"requestId":"r"}', { status: 202 });
      } });
      await c.send({ notification: { title: "x" } });
      if (!/^[0-9a-f-]{36}$/.test(keys[0])) throw new Error("key " + keys[0]);
      const sig = await h.userSignature("s", "u");
      if (sig !== "o52/CaCrCWc5mv80NXsxT9K4JJJRf0Xej2EgqWOxSmc=") throw new Error("signature " + sig);
      console.log("ok");`;
    for (const load of ['await import("@heraldhq/node")', 'require("@heraldhq/node")']) {
      const wrapped = load.startsWith("require") ? `(async () => {${script(load)}})().catch((e) => { console.error(e); process.exit(1); })` : script(load);
      const r = spawnSync(process.execPath, [...(load.startsWith("require") ? ["-e"] : ["--input-type=module", "-e"]), wrapped], {
        cwd: root,
        encoding: "utf8",
      });
      assert.equal(r.status, 0, `${load}: ${r.stdout}${r.stderr}`);
      assert.equal(r.stdout.trim(), "ok");
    }
  });

  it("has no runtime dependencies", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    assert.equal(pkg.dependencies, undefined);
    assert.equal(pkg.version, esm.version);
  });
});
