// Users: search the app's users by identifier prefix (kept in the URL), paged; a user's
// detail with the profile, the preference matrix (category × channel, editable by
// developers), the user's devices and their inbox, as tabs.
import * as Tabs from "@radix-ui/react-tabs";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useOutletContext, useParams, useSearchParams } from "react-router-dom";
import { api, data } from "../api/client";
import { Button, Empty, ErrorState, Field, Loading, Pager } from "../ui/kit";
import { Preferences } from "./preferences/Preferences";
import { atLeast, useClients, type App } from "./queries";
import { ErasedSummary, UserData } from "./UserData";


const pageSize = 20;
const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "");

/** Users lists the app's users, searched by identifier prefix. */
export default function Users() {
  const app = useOutletContext<App>();
  const [params, setParams] = useSearchParams();
  const q = params.get("q") ?? "";
  const page = Math.max(1, Number(params.get("page")) || 1);
  useEffect(() => {
    document.title = `Users · ${app.name} · Herald`;
  }, [app.name]);
  const users = useQuery({
    queryKey: ["apps", app.id, "users", q, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      data(
        api.GET("/v1/apps/{appId}/users", {
          params: { path: { appId: app.id! }, query: { limit: pageSize, pageNo: page, ...(q ? { identifier: q } : {}) } },
        }),
      ),
  });
  const rows = users.data?.data ?? [];
  const total = users.data?.pagination?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const go = (p: number) => {
    const next = new URLSearchParams(params);
    if (p > 1) next.set("page", String(p));
    else next.delete("page");
    setParams(next);
  };

  return (
    <>
      <h1>Users</h1>
      <form
        className="card filters"
        role="search"
        aria-label="Search users"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const v = String(new FormData(e.currentTarget).get("q") ?? "").trim();
          // The same search again asks again (users appear as sends are delivered).
          if (v === q && page === 1) void users.refetch();
          else setParams(v ? { q: v } : {});
        }}
      >
        <Field key={q} label="Identifier starts with" name="q" defaultValue={q} placeholder="user identifier" />
        <Button type="submit">Search</Button>
      </form>
      {users.isPending ? (
        <Loading label="Loading the users" />
      ) : users.isError ? (
        <ErrorState error={users.error} retry={() => users.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title={q ? "No user matches" : "No users yet"}>
          <p className="muted">
            {q
              ? `No user's identifier starts with “${q}”. Identifiers are matched from their start and case matters.`
              : "A user appears here once a notification is sent to them or your backend creates them."}
          </p>
        </Empty>
      ) : (
        <section className="card" aria-label="Users">
          <p className="muted small">
            {total} {total === 1 ? "user" : "users"}
            {q ? ` whose identifier starts with “${q}”` : ""}
          </p>
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Identifier</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((u) => (
                <tr key={u.id}>
                  <td>
                    <Link to={encodeURIComponent(u.identifier!)}>{u.identifier}</Link>
                  </td>
                  <td>{text(u.profile?.name)}</td>
                  <td>{text(u.profile?.email)}</td>
                  <td>{when(u.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager label="Pages of users" page={page} pages={pages} onPage={go} />
        </section>
      )}
    </>
  );
}

function text(v: unknown): string {
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

function ProfileAndPreferences({ app, identifier }: { app: App; identifier: string }) {
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const path = { appId: app.id!, identifier };
  const profile = useQuery({
    queryKey: ["apps", app.id, "users", identifier, "profile"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/users/{identifier}/profile", { params: { path } })),
  });
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

function Devices({ app, identifier }: { app: App; identifier: string }) {
  const devices = useQuery({
    queryKey: ["apps", app.id, "users", identifier, "devices"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/users/{identifier}/devices", { params: { path: { appId: app.id!, identifier } } })),
  });
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

const inboxPage = 20;

function Inbox({ app, identifier }: { app: App; identifier: string }) {
  const [page, setPage] = useState(1);
  const inbox = useQuery({
    queryKey: ["apps", app.id, "users", identifier, "inbox", page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      data(
        api.GET("/v1/apps/{appId}/users/{identifier}/notifications", {
          params: { path: { appId: app.id!, identifier }, query: { pageNo: page, limit: inboxPage } },
        }),
      ),
  });
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
