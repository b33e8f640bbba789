import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { isSafeUrl, urlScheme } from "../../src/safeurl.ts";

// The same table as internal/platform/safeurl's TestCheck.
const allowed = [
  "", "https://example.com/a?b=c#d", "http://example.com", "HTTPS://EXAMPLE.COM", " https://x.example ",
  "/inbox/42", "a/b", "?x=1", "#y", "//cdn.example/x", "\\\\evil.example", "./a:b", "mailto-ish",
  "myapp://orders/42", "com.example.app://x", "fb123:/path", "web+herald:x", "tel:+15551234",
  "mailto:a@example.com", "sms:+15551234", "https://example.com/?next=javascript:alert(1)",
  "/redirect?to=javascript%3Aalert(1)", "&#x6A;", "java script:alert(1)", "ｊavascript:alert(1)",
  "https://example.com/a&amp;b", "https://example.com/%zz", "\thttps://example.com\n",
  "https://例え.jp/パス", "1javascript:alert(1)", ":javascript:alert(1)",
];
const refused = [
  "javascript:alert(1)", "JAVASCRIPT:alert(1)", " jaVa\tscript:alert(1)", "java\nscript:alert(1)",
  "java\rscript:alert(1)", "\x01javascript:alert(1)", "\x00javascript:alert(1)", " \x1f javascript:x",
  "javascript:alert(1)\x00", "\njavascript:alert(1)", "javascript\t:alert(1)", "j\ta\nv\ra\tscript:x",
  "&#x6A;avascript:alert(1)", "&#106;avascript:alert(1)", "&#0000106avascript:alert(1)",
  "javascript&colon;alert(1)", "java&Tab;script:alert(1)", "&amp;#x6A;avascript:alert(1)",
  "%6Aavascript:alert(1)", "javascript%3Aalert(1)", "%256Aavascript:alert(1)",
  "vbscript:msgbox(1)", "VBScript:x", "livescript:x", "mocha:x", "ecmascript:x", "x-javascript:x",
  "data:text/html,<script>alert(1)</script>", "DATA:text/html;base64,PHNjcmlwdD4=", " data:x",
  "file:///etc/passwd", "blob:https://example.com/uuid", "filesystem:https://example.com/x",
  "about:blank", "view-source:https://x", "chrome://settings", "chrome-extension://id/x",
  "intent://scan/#Intent;scheme=zxing;end", "ws://example.com", "wss://example.com", "ftp://example.com",
  "jar:file:x!/y", "https://example.com/\x01", "https://exa\x7fmple.com", "a\x0bb",
];

test("links the widget follows", () => {
  for (const u of allowed) assert.ok(isSafeUrl(u), `allowed: ${JSON.stringify(u)}`);
});

test("links the widget refuses", () => {
  for (const u of refused) assert.ok(!isSafeUrl(u), `refused: ${JSON.stringify(u)}`);
});

test("the scheme as browsers read it", () => {
  const cases: [string, string][] = [
    ["HTTPS://x", "https"], [" jaVa\tscript:", "javascript"], ["a+b-c.d:x", "a+b-c.d"], ["/a:b", ""],
    ["1a:b", ""], ["a b:c", ""], [":x", ""], ["x", ""], ["\x00\x1f data:,", "data"], ["//h:1/", ""],
  ];
  for (const [raw, want] of cases) assert.equal(urlScheme(raw), want, JSON.stringify(raw));
});

test("the scheme agrees with the browser's URL parser", () => {
  for (const u of [...allowed, ...refused]) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      continue; // no scheme: relative (or not a URL at all)
    }
    const s = urlScheme(u);
    if (s !== "") assert.equal(parsed.protocol, s + ":", JSON.stringify(u));
  }
});

test("the service worker opens only the same links", () => {
  const src = readFileSync(new URL("../../src/herald-sw.js", import.meta.url), "utf8");
  const body = src.slice(src.indexOf("// safeurl:begin"), src.indexOf("// safeurl:end"));
  const swAllowed = new Function(body + "\nreturn heraldSafeUrl;")() as (u: string) => boolean;
  for (const u of allowed) assert.ok(swAllowed(u), `sw allowed: ${JSON.stringify(u)}`);
  for (const u of refused) assert.ok(!swAllowed(u), `sw refused: ${JSON.stringify(u)}`);
});
