// The "send your first notification" snippets: the curl command run through bash (with
// curl replaced by a function that records its arguments), and the SDK programs' text.
// integration/sdk/snippets_test.go runs every snippet against a real stack.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { goModule, snippetLanguages, snippets } from "../../src/screens/snippets.ts";

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
  const curl = snippets("http://127.0.0.1:8080", "key123", "hs_abc-DEF_9").curl.code;
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
  const curl = snippets("http://h", "k", "$HERALD_API_SECRET").curl.code;
  assert.equal(headersOf(curlArgs(curl, { HERALD_API_SECRET: "hs_from_env" }))["X-SERVICE-API-SECRET"], "hs_from_env");
});

const sdk = (...parts: string[]) => readFileSync(path.join(import.meta.dirname, "..", "..", "..", "..", "sdk", ...parts), "utf8");

test("the install commands name the SDKs' real module and package names", () => {
  const all = snippets("http://h", "k", "s");
  assert.equal(goModule, sdk("go", "go.mod").match(/^module (\S+)$/m)?.[1]);
  assert.ok(all.go.install!.endsWith(`go get ${goModule}`));
  assert.equal(all.node.install, `npm install ${JSON.parse(sdk("node", "package.json")).name}`);
  assert.equal(all.python.install, `pip install ${sdk("python", "pyproject.toml").match(/^name = "([^"]+)"$/m)?.[1]}`);
  assert.match(all.python.code, /^import herald$/m);
  assert.deepEqual(snippetLanguages, ["curl", "go", "node", "python"]);
});

test("each program carries the key and the secret it is shown with", () => {
  const all = snippets("https://herald.example.com", "key123", "hs_abc-DEF_9");
  for (const lang of ["go", "node", "python"] as const) {
    const { code } = all[lang];
    assert.ok(code.includes('"https://herald.example.com"'), lang);
    assert.ok(code.includes('"key123"'), lang);
    assert.ok(code.includes('"hs_abc-DEF_9"'), lang);
    assert.ok(code.includes('"first-user"'), lang);
  }
});

test("without the secret, each program leaves it to the SDK, which reads HERALD_API_SECRET", () => {
  const all = snippets("http://h", "k", "$HERALD_API_SECRET");
  for (const lang of ["go", "node", "python"] as const) {
    const { code } = all[lang];
    assert.ok(!code.includes("$HERALD_API_SECRET"), `${lang} holds the shell placeholder`);
    assert.doesNotMatch(code, /WithAPISecret|apiSecret|api_secret/, lang);
    assert.match(code, /The API secret: from HERALD_API_SECRET\./, lang);
  }
});

test("strings are quoted for the languages, not pasted raw", () => {
  const all = snippets('http://h"x', "k\\y", "s");
  assert.ok(all.go.code.includes('herald.WithBaseURL("http://h\\"x")'));
  assert.ok(all.node.code.includes('apiKey: "k\\\\y"'));
});
