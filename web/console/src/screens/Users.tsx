// Users: search the app's users by identifier prefix (kept in the URL), paged; a user's
// detail with the profile and the effective preference matrix (category × channel,
// read-only: the /v1 API has no route that writes a user's preferences).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, type FormEvent } from "react";
import { Link, useOutletContext, useParams, useSearchParams } from "react-router-dom";
import { api, data } from "../api/client";
import { Button, Empty, ErrorState, Field, Loading } from "../ui/kit";
import type { App } from "./queries";

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
          setParams(v ? { q: v } : {});
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
          {pages > 1 && (
            <nav className="pager" aria-label="Pages of users">
              <Button variant="secondary" disabled={page <= 1} onClick={() => go(page - 1)}>
                Previous page
              </Button>
              <span aria-live="polite">
                Page {page} of {pages}
              </span>
              <Button variant="secondary" disabled={page >= pages} onClick={() => go(page + 1)}>
                Next page
              </Button>
            </nav>
          )}
        </section>
      )}
    </>
  );
}

function text(v: unknown): string {
  if (v === undefined || v === null || v === "") return "—";
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** UserDetail shows one user's profile and preference matrix. */
export function UserDetail() {
  const app = useOutletContext<App>();
  const identifier = useParams().identifier ?? "";
  useEffect(() => {
    document.title = `${identifier} · Users · ${app.name} · Herald`;
  }, [app.name, identifier]);
  const path = { appId: app.id!, identifier };
  const profile = useQuery({
    queryKey: ["apps", app.id, "users", identifier, "profile"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/users/{identifier}/profile", { params: { path } })),
  });
  const prefs = useQuery({
    queryKey: ["apps", app.id, "users", identifier, "preferences"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/users/{identifier}/preferences", { params: { path } })),
  });
  const channels = [...new Set((prefs.data ?? []).flatMap((r) => (r.channelPreferences ?? []).map((c) => c.channel!)))];
  const entries = Object.entries(profile.data ?? {});

  return (
    <>
      <p>
        <Link to=".." relative="path">← All users</Link>
      </p>
      <h1>{identifier}</h1>
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
      <section className="card" aria-labelledby="prefs-h">
        <h2 id="prefs-h">Preferences</h2>
        <p className="muted small">What this user receives, per category and channel. The user changes these from the inbox widget.</p>
        {prefs.isPending ? (
          <Loading label="Loading the preferences" />
        ) : prefs.isError ? (
          <ErrorState error={prefs.error} retry={() => prefs.refetch()} />
        ) : channels.length === 0 ? (
          <p className="muted">No preferences are recorded for this user.</p>
        ) : (
          <table className="table" aria-label="Preferences by category and channel">
            <thead>
              <tr>
                <th scope="col">Category</th>
                {channels.map((c) => (
                  <th scope="col" key={c}>
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {prefs.data!.map((r) => (
                <tr key={r.category?.id ?? "none"}>
                  <th scope="row">{r.category ? r.category.name || r.category.identifier : "Without a category"}</th>
                  {channels.map((c) => {
                    const p = r.channelPreferences?.find((x) => x.channel === c);
                    return <td key={c}>{p === undefined ? "—" : p.enabled ? "On" : "Off"}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
