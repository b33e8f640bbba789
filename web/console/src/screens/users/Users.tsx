// Users: search the app's users by identifier prefix (kept in the URL), paged; a user's
// detail with the profile, the preference matrix (category × channel, editable by
// developers), the user's devices and their inbox, as tabs.
import { useEffect, type FormEvent } from "react";
import { Link, useOutletContext, useSearchParams } from "react-router-dom";
import { Button, Empty, ErrorState, Field, Loading, Pager } from "../../ui/kit";
import type { App } from "../queries";
import { useUsersPage } from "./api";
import { text } from "./UserDetail";

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
  const users = useUsersPage(app.id!, q, page, pageSize);
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
