// Topics: the app's topics with how many users each has subscribed (one small page request
// per topic reads its total; the list API carries no counts), and a topic's detail with its
// subscribers, paged (the page is kept in the URL).
import { useQueries } from "@tanstack/react-query";
import { channelName } from "../../api/channels";
import { useEffect } from "react";
import { Link, useOutletContext, useParams, useSearchParams } from "react-router-dom";
import { Empty, ErrorState, Loading, Pager } from "../../ui/kit";
import type { App } from "../queries";
import { subscriberCountQuery, useSubscribers, useTopicList } from "./api";

const pageSize = 20;
const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "");

/** useTopics reads the app's topics (shared by the list and the detail). */
function useTopics(app: App) {
  return useTopicList(app.id!);
}

/** Topics lists the app's topics with their subscriber counts. */
export default function Topics() {
  const app = useOutletContext<App>();
  useEffect(() => {
    document.title = `Topics · ${app.name} · Herald`;
  }, [app.name]);
  const topics = useTopics(app);
  const counts = useQueries({
    queries: (topics.data ?? []).map((t) => subscriberCountQuery(t.id!)),
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
                    <td>
                      <Link to={encodeURIComponent(t.identifier!)}>{t.name || t.identifier}</Link>
                    </td>
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

/** TopicDetail shows one topic (by its identifier, the topic key) and its subscribers, paged. */
export function TopicDetail() {
  const app = useOutletContext<App>();
  const key = useParams().topicKey ?? "";
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const topics = useTopics(app);
  const topic = topics.data?.find((t) => t.identifier === key);
  useEffect(() => {
    document.title = `${topic?.name || key} · Topics · ${app.name} · Herald`;
  }, [app.name, key, topic?.name]);
  const subs = useSubscribers(topic?.id, page, pageSize);
  const rows = subs.data?.data ?? [];
  const total = subs.data?.pagination?.totalCount ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const go = (p: number) => setParams(p > 1 ? { page: String(p) } : {});

  return (
    <>
      <p>
        <Link to=".." relative="path">
          ← All topics
        </Link>
      </p>
      {topics.isPending ? (
        <Loading label="Loading the topic" />
      ) : topics.isError ? (
        <ErrorState error={topics.error} retry={() => topics.refetch()} />
      ) : topic === undefined ? (
        <>
          <h1>Topic not found</h1>
          <Empty title="No such topic">
            <p className="muted">
              This app has no topic with the identifier <code>{key}</code>: it may have been deleted, or the link is wrong.
            </p>
          </Empty>
        </>
      ) : (
        <>
          <h1>{topic.name || topic.identifier}</h1>
          <p className="muted">
            Identifier <code>{topic.identifier}</code>
          </p>
          <section className="card" aria-labelledby="subs-h">
            <h2 id="subs-h">Subscribers</h2>
            {subs.isPending ? (
              <Loading label="Loading the subscribers" />
            ) : subs.isError ? (
              <ErrorState error={subs.error} retry={() => subs.refetch()} />
            ) : rows.length === 0 ? (
              <Empty title={page > 1 ? "No subscribers on this page" : "No subscribers yet"}>
                <p className="muted">
                  {page > 1 ? (
                    <Link to="?">Go to the first page</Link>
                  ) : (
                    "Your backend subscribes users to this topic through the developer API; a send to the topic reaches them."
                  )}
                </p>
              </Empty>
            ) : (
              <>
                <p className="muted small">
                  {total} {total === 1 ? "subscriber" : "subscribers"}
                </p>
                <table className="table" aria-label="Subscribers">
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Channels</th>
                      <th scope="col">Subscribed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((s) => (
                      <tr key={s.id}>
                        <td>
                          <Link to={`../../users/${encodeURIComponent(s.identifier!)}`} relative="path">
                            {s.identifier}
                          </Link>
                        </td>
                        <td>{s.channels?.length ? s.channels.map(channelName).join(", ") : "All channels"}</td>
                        <td>{when(s.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
                <Pager label="Pages of subscribers" page={page} pages={pages} onPage={go} />
              </>
            )}
          </section>
        </>
      )}
    </>
  );
}
