// Topics: the app's topics with how many users each has subscribed (one small page request
// per topic reads its total; the list API carries no counts).
import { useQueries, useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useOutletContext } from "react-router-dom";
import { api, data } from "../api/client";
import { Empty, ErrorState, Loading } from "../ui/kit";
import type { App } from "./queries";

/** Topics lists the app's topics with their subscriber counts. */
export default function Topics() {
  const app = useOutletContext<App>();
  useEffect(() => {
    document.title = `Topics · ${app.name} · Herald`;
  }, [app.name]);
  const topics = useQuery({
    queryKey: ["apps", app.id, "topics"],
    queryFn: () => data(api.GET("/v1/apps/{appId}/topics", { params: { path: { appId: app.id! } } })),
  });
  const counts = useQueries({
    queries: (topics.data ?? []).map((t) => ({
      queryKey: ["topics", t.id, "users", "count"],
      queryFn: () =>
        data(api.GET("/v1/topics/{topicId}/users", { params: { path: { topicId: t.id! }, query: { limit: 1 } } })).then(
          (p) => p.pagination?.totalCount ?? 0,
        ),
    })),
  });

  return (
    <>
      <h1>Topics</h1>
      {topics.isPending ? (
        <Loading label="Loading the topics" />
      ) : topics.isError ? (
        <ErrorState error={topics.error} retry={() => topics.refetch()} />
      ) : topics.data.length === 0 ? (
        <Empty title="No topics yet">
          <p className="muted">Your backend creates topics and subscribes users to them through the developer API; a send to a topic reaches its subscribers.</p>
        </Empty>
      ) : (
        <section className="card" aria-label="Topics">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Identifier</th>
                <th scope="col">Subscribers</th>
              </tr>
            </thead>
            <tbody>
              {topics.data.map((t, i) => {
                const c = counts[i];
                return (
                  <tr key={t.id}>
                    <td>{t.name}</td>
                    <td>
                      <code>{t.identifier}</code>
                    </td>
                    <td>{c?.isError ? "unavailable" : c?.data === undefined ? "…" : c.data}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
