// Which links the widget follows: the rules of Herald's Go package internal/platform/safeurl,
// which the server applies to every url it accepts or renders. The widget checks again
// because an inbox row may predate those checks, or be written by other means.
//
// The scheme is read as browsers read it (WHATWG URL parser): leading and trailing C0
// controls and spaces are ignored, ASCII tab, LF and CR are removed anywhere, the scheme is
// the letters, digits, "+", "-" and "." before the first ":" (starting with a letter), in
// any case. Allowed: http, https, references without a scheme ("/a", "a/b", "?x", "#y",
// "//host/…") and app schemes for deep links ("myapp://…"). Refused: schemes that run
// script or read local or in-memory content, browser internals, any scheme containing
// "script", and control characters other than tab/LF/CR. The URL is also judged with
// numeric and a few named HTML character references and percent-escapes decoded, for
// pages that write it into HTML.

const REFUSED = new Set([
  "javascript", "vbscript", "livescript", "mocha", "ecmascript", "jscript",
  "data", "file", "blob", "filesystem", "mhtml", "jar", "res",
  "about", "view-source", "chrome", "chrome-extension", "chrome-untrusted",
  "devtools", "edge", "opera", "brave", "vivaldi", "resource",
  "moz-extension", "ms-browser-extension", "safari-extension", "webkit-extension",
  "intent", "ws", "wss", "ftp",
]);

/** The scheme a browser reads in raw, lower-cased; "" for a reference without one. */
export function urlScheme(raw: string): string {
  const s = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ":") return i === 0 ? "" : s.slice(0, i).toLowerCase();
    if (/[A-Za-z]/.test(c)) continue;
    if (i > 0 && /[0-9+.\-]/.test(c)) continue;
    return "";
  }
  return "";
}

function schemeAllowed(s: string): boolean {
  return s === "" || s === "http" || s === "https" || !(REFUSED.has(s) || s.includes("script"));
}

const NAMED: Record<string, string> = { colon: ":", Tab: "\t", NewLine: "\n", amp: "&", sol: "/", num: "#", quest: "?" };

function decodeOnce(s: string): string {
  let out = s.replace(/&#(?:[xX]([0-9a-fA-F]+)|([0-9]+));?|&([A-Za-z]+);/g, (m, hex, dec, name) => {
    if (name !== undefined) return NAMED[name] ?? m;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec, 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
  try {
    out = decodeURIComponent(out);
  } catch {
    /* a stray "%": keep the HTML-decoded form */
  }
  return out;
}

/** Whether raw may be followed as a link (an empty string is no link, and allowed). */
export function isSafeUrl(raw: string): boolean {
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(raw)) return false;
  if (!schemeAllowed(urlScheme(raw))) return false;
  let decoded = raw;
  for (let i = 0; i < 4; i++) {
    const next = decodeOnce(decoded);
    if (next === decoded) break;
    decoded = next;
    if (!schemeAllowed(urlScheme(decoded))) return false;
  }
  return true;
}
