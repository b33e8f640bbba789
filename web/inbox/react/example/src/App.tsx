// Acme's app with Herald's inbox: the <Inbox/> popover in the top bar (optionally with a
// custom item renderer), the unread count and an activity feed built with the hooks. No
// browser API at render: prerender.tsx renders it on the server too.
import { useState, version } from "react";
import { HeraldProvider, Inbox, useHeraldEvent, useNotifications, usePreferences, useUnreadCount, type ItemHelpers, type Notification } from "@heraldhq/inbox-react";

/** The app's settings (from the query string in main.tsx). */
export interface Config {
  apiKey: string;
  user: string;
  herald: string;
  theme: "light" | "dark";
  custom: boolean;
  pos: "left" | "right";
}

/** A custom item: a card with the title, an "Open" button and a "Done" button. */
function Card(n: Notification, h: ItemHelpers) {
  return (
    <article className="card" aria-label={n.title || n.message}>
      <button className="card-open" onClick={h.open} aria-label={`Open ${n.title}`}>
        <strong>{n.title}</strong>
        <span>{n.message}</span>
        <small>{h.unread ? `New · ${h.time}` : h.time}</small>
      </button>
      {h.unread && (
        <button className="card-done" onClick={() => void h.markRead().catch(() => {})} aria-label={`Mark ${n.title} as done`}>
          Done
        </button>
      )}
    </article>
  );
}

function UnreadSummary() {
  const count = useUnreadCount();
  return (
    <p className="summary" role="status" aria-label="Unread notifications">
      {count === 0 ? "No unread notifications" : `${count} unread`}
    </p>
  );
}

/** A feed of unread notifications, built with useNotifications alone. */
function Activity() {
  const { notifications, connection, loaded, markRead, markAllSeen, hasMore, loadMore, loadingMore } = useNotifications();
  const [latest, setLatest] = useState<string>("");
  useHeraldEvent("notification", (n) => setLatest(n.title || n.message));
  return (
    <section aria-labelledby="activity">
      <h2 id="activity">Activity</h2>
      <p>
        Realtime: <span aria-label="Realtime connection">{connection}</span>
        {latest && <span className="latest"> · Latest: {latest}</span>}
      </p>
      {!loaded ? (
        <p role="status">Loading…</p>
      ) : (
        <ul aria-label="Recent activity" className="activity">
          {notifications.slice(0, 5).map((n) => (
            <li key={n.id}>
              <span>{n.title}</span>
              {n.readAt ? <em> read</em> : <button onClick={() => void markRead(n.id).catch(() => {})}>Mark “{n.title}” read</button>}
            </li>
          ))}
        </ul>
      )}
      <div className="row">
        <button onClick={() => void markAllSeen().catch(() => {})}>Clear the badge</button>
        {hasMore && (
          <button onClick={() => void loadMore().catch(() => {})} disabled={loadingMore}>
            {loadingMore ? "Loading…" : "Load more"}
          </button>
        )}
      </div>
    </section>
  );
}

/** How many categories the user can configure (usePreferences). */
function PreferencesSummary() {
  const { preferences, loading } = usePreferences();
  return <p className="muted">{loading ? "Loading preferences…" : `${preferences?.length ?? 0} notification categories`}</p>;
}

export function App({ config: c }: { config: Config }) {
  // What <Inbox/>'s callbacks report (the widget's herald-snooze and herald-state events).
  const [event, setEvent] = useState("");
  const inbox = (
    <Inbox
      theme={c.theme}
      locale="en"
      renderItem={c.custom ? Card : undefined}
      onSnooze={(n, until) => setEvent(`Snoozed “${n.title}” until ${until.toISOString()}`)}
      onStateChange={(n, state) => setEvent(`“${n.title}” is ${state}`)}
    />
  );
  return (
    <HeraldProvider apiKey={c.apiKey} userId={c.user} baseUrl={c.herald}>
      <header className={c.pos === "left" ? "bar left" : "bar"}>
        {c.pos === "left" && inbox}
        <strong>Acme</strong>
        {c.pos !== "left" && inbox}
      </header>
      <main>
        <h1>Dashboard</h1>
        <UnreadSummary />
        <p className="muted" role="status" aria-label="Inbox event">
          {event}
        </p>
        <Activity />
        <PreferencesSummary />
        <footer className="muted">React {version}</footer>
      </main>
    </HeraldProvider>
  );
}
