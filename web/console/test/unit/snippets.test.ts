// The "send your first notification" snippets, run for real: the curl command through
// bash (with curl replaced by a function that records its arguments), the Node.js program
// through node against a local HTTP server that records the request.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { snippets } from "../../src/screens/snippets.ts";

/** curlArgs runs the command in bash and returns the arguments curl would get. */
function curlArgs(command: string, env: Record<string, string> = {}): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\n${command}\n`;
  const out = execFileSync("bash", ["-c", script], { env: { PATH: process.env.PATH ?? "", ...env }, encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

function headersOf(args: string[]): Record<string, string> {
  const h: Record<string, string> = {};
  args.forEach((a, i) => {
    if (a === "-H") {
      const [k, ...v] = args[i + 1]!.split(": ");
      h[k!] = v.join(": ");
    }
  });
  return h;
}

test("the curl command sends the key, the secret and a valid body", () => {
  const { curl } = snippets("http://127.0.0.1:8080", "key123", "hs_abc-DEF_9");
  const args = curlArgs(curl);
  assert.deepEqual(args.slice(0, 3), ["-X", "POST", "http://127.0.0.1:8080/v3/notifications"]);
  const h = headersOf(args);
  assert.equal(h["X-SERVICE-API-KEY"], "key123");
  assert.equal(h["X-SERVICE-API-SECRET"], "hs_abc-DEF_9");
  assert.equal(h["Content-Type"], "application/json");
  const body = JSON.parse(args[args.indexOf("-d") + 1]!);
  assert.deepEqual(body.sendTo, { recipients: ["first-user"] });
  assert.equal(typeof body.notification.title, "string");
});

test("the curl command expands the secret placeholder for roles that cannot see it", () => {
  const { curl } = snippets("http://h", "k", "$HERALD_API_SECRET");
  assert.equal(headersOf(curlArgs(curl, { HERALD_API_SECRET: "hs_from_env" }))["X-SERVICE-API-SECRET"], "hs_from_env");
});

async function runNode(program: string, env: Record<string, string> = {}) {
  let seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string } = {};
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.writeHead(202, { "Content-Type": "application/json" }).end('{"requestId":"r1"}');
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  const dir = mkdtempSync(path.join(tmpdir(), "snippet-"));
  const file = path.join(dir, "send.mjs");
  writeFileSync(file, program.replaceAll("http://ORIGIN", `http://127.0.0.1:${port}`));
  const out = await new Promise<string>((resolve, reject) => {
    const p = spawn(process.execPath, [file], { env: { ...process.env, ...env } });
    let o = "";
    p.stdout.on("data", (c) => (o += c));
    p.stderr.on("data", (c) => (o += c));
    p.on("exit", (code) => (code === 0 ? resolve(o) : reject(new Error(o))));
  });
  server.close();
  return { seen, out };
}

test("the Node.js program sends the same request", async () => {
  const { node } = snippets("http://ORIGIN", "key123", "hs_abc");
  const { seen, out } = await runNode(node);
  assert.equal(seen.method, "POST");
  assert.equal(seen.url, "/v3/notifications");
  assert.equal(seen.headers?.["x-service-api-key"], "key123");
  assert.equal(seen.headers?.["x-service-api-secret"], "hs_abc");
  assert.deepEqual(JSON.parse(seen.body!).sendTo, { recipients: ["first-user"] });
  assert.match(out, /202/);
});

test("the Node.js program reads the secret from HERALD_API_SECRET when it is not shown", async () => {
  const { node } = snippets("http://ORIGIN", "k", "$HERALD_API_SECRET");
  const { seen } = await runNode(node, { HERALD_API_SECRET: "hs_env" });
  assert.equal(seen.headers?.["x-service-api-secret"], "hs_env");
});
