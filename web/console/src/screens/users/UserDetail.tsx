// UserDetail: one user of the app: profile and preferences, devices and inbox as tabs, and
// the export and erasure of their data.
import * as Tabs from "@radix-ui/react-tabs";
import { useEffect, useState } from "react";
import { Link, useOutletContext, useParams, useSearchParams } from "react-router-dom";
import { Empty, ErrorState, Loading, Pager } from "../../ui/kit";
import { Preferences } from "../preferences/Preferences";
import { atLeast, useClients, type App } from "../queries";
import { useDevices, useInbox, useProfile } from "./api";
import { ErasedSummary, UserData } from "./UserData";

const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "");

const inboxPage = 20;

/** text shows a profile value (JSON for anything but a string, a dash for none). */
export function text(v: unknown): string {
  if (v === undefined || v === null || v === "") return "—";
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** UserDetail shows one user: profile and preferences (editable by developers), devices
 * and inbox, as tabs. */
export function UserDetail() {
  const app = useOutletContext<App>();
  const identifier = useParams().identifier ?? "";
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") ?? "profile";
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const [erased, setErased] = useState<Parameters<typeof ErasedSummary>[0]["erased"] | null>(null);
  useEffect(() => {
    document.title = `${identifier} · Users · ${app.name} · Herald`;
  }, [app.name, identifier]);
  if (erased) {
    return (
      <>
        <h1>{identifier}</h1>
        <ErasedSummary identifier={identifier} erased={erased} />
      </>
    );
  }
  return (
    <>
      <p>
        <Link to=".." relative="path">← All users</Link>
      </p>
      <h1>{identifier}</h1>
      <Tabs.Root value={tab} onValueChange={(v) => setParams(v === "profile" ? {} : { tab: v }, { replace: true })} className="tabs">
        <Tabs.List aria-label="About this user" className="tab-list">
          <Tabs.Trigger value="profile" className="tab">
            Profile and preferences
          </Tabs.Trigger>
          <Tabs.Trigger value="devices" className="tab">
            Devices
          </Tabs.Trigger>
          <Tabs.Trigger value="inbox" className="tab">
            Inbox
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" className="tab-panel">
          <ProfileAndPreferences app={app} identifier={identifier} />
          {dev && <UserData app={app} identifier={identifier} onErased={setErased} />}
        </Tabs.Content>
        <Tabs.Content value="devices" className="tab-panel">
          <Devices app={app} identifier={identifier} />
        </Tabs.Content>
        <Tabs.Content value="inbox" className="tab-panel">
          <Inbox app={app} identifier={identifier} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}

export function ProfileAndPreferences({ app, identifier }: { app: App; identifier: string }) {
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const profile = useProfile(app.id!, identifier);
  const entries = Object.entries(profile.data ?? {});

  return (
    <>
      <section className="card" aria-labelledby="profile-h">
        <h2 id="profile-h">Profile</h2>
        {profile.isPending ? (
          <Loading label="Loading the profile" />
        ) : profile.isError ? (
          <ErrorState error={profile.error} retry={() => profile.refetch()} />
        ) : entries.length === 0 ? (
          <p className="muted">This user has no profile fields.</p>
        ) : (
          <dl className="profile" aria-label="Profile fields">
            {entries.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{text(v)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <Preferences appId={app.id!} identifier={identifier} dev={dev} />
    </>
  );
}

export function Devices({ app, identifier }: { app: App; identifier: string }) {
  const devices = useDevices(app.id!, identifier);
  return (
    <section className="card" aria-labelledby="devices-h">
      <h2 id="devices-h">Devices</h2>
      {devices.isPending ? (
        <Loading label="Loading the devices" />
      ) : devices.isError ? (
        <ErrorState error={devices.error} retry={() => devices.refetch()} />
      ) : devices.data.length === 0 ? (
        <Empty title="No devices">
          <p className="muted">A device appears once the user's app or browser connects with a device id (SDK device connect).</p>
        </Empty>
      ) : (
        <table className="table" aria-label="Devices">
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Type</th>
              <th scope="col">Push token</th>
              <th scope="col">Browser push</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {devices.data.map((d) => (
              <tr key={d.deviceId}>
                <td>
                  <code>{d.deviceId}</code>
                </td>
                <td>{d.deviceType}</td>
                <td>{d.pushToken ? <code title="first characters only">{d.pushToken}</code> : "—"}</td>
                <td>{d.webPushSubscriptions ? `${d.webPushSubscriptions} subscription${d.webPushSubscriptions === 1 ? "" : "s"}` : "—"}</td>
                <td>{when(d.lastSeenAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function Inbox({ app, identifier }: { app: App; identifier: string }) {
  const [page, setPage] = useState(1);
  const inbox = useInbox(app.id!, identifier, page, inboxPage);
  const total = inbox.data?.pagination?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / inboxPage));
  return (
    <section className="card" aria-labelledby="inbox-h">
      <h2 id="inbox-h">Inbox</h2>
      {inbox.isPending ? (
        <Loading label="Loading the inbox" />
      ) : inbox.isError ? (
        <ErrorState error={inbox.error} retry={() => inbox.refetch()} />
      ) : (inbox.data.data ?? []).length === 0 ? (
        <Empty title="The inbox is empty">
          <p className="muted">In-app notifications sent to this user appear here.</p>
        </Empty>
      ) : (
        <>
          <p className="muted small">
            {total} {total === 1 ? "notification" : "notifications"}, {inbox.data.unreadCount ?? 0} unread
          </p>
          <table className="table" aria-label="In-app notifications">
            <thead>
              <tr>
                <th scope="col">Sent</th>
                <th scope="col">Title</th>
                <th scope="col">Message</th>
                <th scope="col">Category</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {inbox.data.data!.map((n) => (
                <tr key={n.id}>
                  <td>{when(n.createdAt)}</td>
                  <td>{n.title || "—"}</td>
                  <td>{n.message || "—"}</td>
                  <td>{n.category ? n.category.name || n.category.identifier : "—"}</td>
                  <td>
                    <span className={n.readAt ? "badge badge-delivered" : "badge"}>{n.readAt ? "Read" : n.seenAt ? "Seen" : "Unread"}</span>
                    {n.state && <div className="muted small">{n.state}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="Pages of the inbox" page={page} pages={pages} onPage={setPage} />
        </>
      )}
    </section>
  );
}
