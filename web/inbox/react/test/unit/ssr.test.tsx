// Server rendering: react-dom/server renders every component and hook without touching
// window, document, the network or a socket (Node has no window or document: any access
// would throw), and renders what hydration starts from (the empty, connecting inbox).
import { test } from "node:test";
import assert from "node:assert/strict";
import { StrictMode } from "react";
import { renderToString } from "react-dom/server";
import { strings } from "@heraldhq/inbox/i18n";
import { Bell, HeraldProvider, Inbox, useHeraldEvent, useNotifications, usePreferences, useUnreadCount, type Notification, type UsePreferencesResult } from "../../src/index.js";

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

test("the parts <Inbox/> loads on demand import and render without browser APIs", async () => {
  // React.lazy imports them in the browser only, but a server bundle may evaluate them.
  const { default: SnoozeMenu, presets } = await import("../../src/SnoozeMenu.js");
  const { default: PreferencesPanel } = await import("../../src/PreferencesPanel.js");
  const t = strings("en");
  const n = { id: 7, title: "Call the bank", message: "m", createdAt: new Date().toISOString() } as Notification;
  const menu = renderToString(<SnoozeMenu notification={n} t={t} locale="en" onSnooze={() => {}} onClose={() => {}} />);
  assert.match(menu, /role="menu" aria-label="Snooze: Call the bank"/);
  assert.equal(menu.match(/role="menuitem"/g)?.length, 4);
  const [hour, tomorrow, week] = presets(new Date(2026, 10, 23, 15, 30)); // a Monday
  assert.equal(hour!.at.getHours(), 16);
  assert.deepEqual([tomorrow!.at.getDate(), tomorrow!.at.getHours()], [24, 9]);
  assert.deepEqual([week!.at.getDate(), week!.at.getDay()], [30, 1]);
  const loading = { preferences: undefined, loading: true, error: null, workflows: undefined, channels: undefined, quietHours: undefined } as unknown as UsePreferencesResult;
  const prefs = renderToString(<PreferencesPanel t={t} locale="en" usePreferences={() => loading} />);
  assert.match(prefs, /role="status">Loading…/);
});

test("the hooks need a provider", () => {
  assert.throws(() => renderToString(<Probe />), /HeraldProvider/);
});
