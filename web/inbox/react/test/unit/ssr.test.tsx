// Server rendering: react-dom/server renders every component and hook without touching
// window, document, the network or a socket (Node has no window or document: any access
// would throw), and renders what hydration starts from (the empty, connecting inbox).
import { test } from "node:test";
import assert from "node:assert/strict";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { Bell, HeraldProvider, Inbox, useHeraldEvent, useNotifications, usePreferences, useUnreadCount } from "../../src/index.js";

function Probe() {
  const n = useNotifications({ filter: "unread" });
  const count = useUnreadCount();
  const prefs = usePreferences();
  useHeraldEvent("notification", () => {
    throw new Error("no event on the server");
  });
  return (
    <output aria-label="probe">
      {`count=${count} loaded=${n.loaded} items=${n.notifications.length} connection=${n.connection} prefs=${prefs.preferences === undefined} loading=${prefs.loading} settings=${[prefs.workflows, prefs.channels, prefs.quietHours].every((v) => v === undefined)}`}
    </output>
  );
}

test("the components and hooks render on the server without browser APIs, requests or sockets", async () => {
  assert.equal(typeof (globalThis as Record<string, unknown>).window, "undefined");
  assert.equal(typeof (globalThis as Record<string, unknown>).document, "undefined");
  const calls: string[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (u: string | URL | Request) => {
    calls.push(String(u));
    throw new Error("no request on the server");
  }) as typeof fetch;
  try {
    const html = renderToString(
      <StrictMode>
        <HeraldProvider apiKey="pk_test" userId="alice" baseUrl="https://herald.example.com">
          <Bell theme="auto" />
          <Inbox theme="dark" variables={{ accent: "#0f766e" }} renderItem={(n) => <b>{n.title}</b>} />
          <Probe />
        </HeraldProvider>
      </StrictMode>,
    );
    assert.match(html, /<button[^>]*aria-label="Notifications"/);
    assert.match(html, /aria-haspopup="dialog"/);
    assert.match(html, /aria-expanded="false"/);
    assert.match(html, /data-theme="dark"/);
    assert.match(html, /data-theme="auto"/);
    assert.match(html, /--herald-accent:#0f766e/);
    // The stylesheet is sent as written (not HTML-escaped) so it applies before hydration.
    assert.match(html, /<style data-herald="">\.herald-root\{/);
    assert.ok(!html.includes("&quot;Segoe UI&quot;"), "the stylesheet must not be escaped");
    assert.match(html, /count=0 loaded=false items=0 connection=connecting prefs=true loading=true settings=true/);
    assert.doesNotMatch(html, /role="dialog"/, "the popover is closed on the server");
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(calls, [], "no request may start on the server");
  } finally {
    globalThis.fetch = realFetch;
  }
});

test("the hooks need a provider", () => {
  assert.throws(() => renderToString(<Probe />), /HeraldProvider/);
});
