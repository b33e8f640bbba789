// Herald web push service worker. Serve this file from your app's own origin (service
// workers must be same-origin), e.g. at /herald-sw.js, and pass its URL to
// client.enableWebPush(). It shows each push as a notification and opens its URL on click,
// when that URL is one a link may have (see heraldSafeUrl).
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : "" };
  }
  const n = data.notification || data;
  event.waitUntil(
    self.registration.showNotification(n.title || "Notification", {
      body: n.message || n.body || "",
      icon: n.icon || undefined,
      data: { url: n.url || "" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  if (url && heraldSafeUrl(url)) event.waitUntil(self.clients.openWindow(url));
});

// safeurl:begin — a copy of src/safeurl.ts's isSafeUrl (this file is served as written, not
// bundled); test/unit/safeurl.test.ts runs both on the same table.
function heraldSafeUrl(raw) {
  const refused = ["javascript", "vbscript", "livescript", "mocha", "ecmascript", "jscript", "data", "file", "blob",
    "filesystem", "mhtml", "jar", "res", "about", "view-source", "chrome", "chrome-extension", "chrome-untrusted",
    "devtools", "edge", "opera", "brave", "vivaldi", "resource", "moz-extension", "ms-browser-extension",
    "safari-extension", "webkit-extension", "intent", "ws", "wss", "ftp"];
  const scheme = (u) => {
    const s = u.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "").replace(/[\t\n\r]/g, "");
    const m = /^([A-Za-z][A-Za-z0-9+.\-]*):/.exec(s);
    return m ? m[1].toLowerCase() : "";
  };
  const ok = (s) => s === "" || s === "http" || s === "https" || !(refused.includes(s) || s.includes("script"));
  const named = { colon: ":", Tab: "\t", NewLine: "\n", amp: "&", sol: "/", num: "#", quest: "?" };
  const decode = (s) => {
    let out = s.replace(/&#(?:[xX]([0-9a-fA-F]+)|([0-9]+));?|&([A-Za-z]+);/g, (m, hex, dec, name) => {
      if (name !== undefined) return named[name] ?? m;
      const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec, 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    });
    try {
      out = decodeURIComponent(out);
    } catch {
      /* a stray "%" */
    }
    return out;
  };
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(raw) || !ok(scheme(raw))) return false;
  let decoded = raw;
  for (let i = 0; i < 4; i++) {
    const next = decode(decoded);
    if (next === decoded) break;
    decoded = next;
    if (!ok(scheme(decoded))) return false;
  }
  return true;
}
// safeurl:end
