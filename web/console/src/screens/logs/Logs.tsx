// Message logs: every recipient × channel of the app's sends with its outcome and reason,
// filtered by date, user, channel, provider and event (kept in the URL), newest first,
// paged by cursor; each row links to its run in the Temporal Web UI when one is configured.
import { channels } from "../../api/channels";
import { useEffect, type FormEvent } from "react";
import { Link, useOutletContext, useSearchParams } from "react-router-dom";
import { Button, Empty, ErrorState, Field, Loading } from "../../ui/kit";
import { Select } from "../../ui/select";
import type { App } from "../queries";
import { useProviders } from "../channels/api";
import { useLogs } from "./api";

const events = ["queued", "held", "sent", "delivered", "failed", "skipped", "bounced", "opened", "clicked"];

const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "");

export default function Logs() {
  const app = useOutletContext<App>();
  const [params, setParams] = useSearchParams();
  const f = {
    fromDate: params.get("fromDate") ?? "",
    toDate: params.get("toDate") ?? "",
    user: params.get("user") ?? "",
    channel: params.get("channel") ?? "",
    provider: params.get("provider") ?? "",
    event: params.get("event") ?? "",
  };
  const catalogue = useProviders();
  const providers = [...new Set((catalogue.data ?? []).map((p) => p.identifier!).filter(Boolean))].sort();
  if (f.provider && !providers.includes(f.provider)) providers.unshift(f.provider);
  useEffect(() => {
    document.title = `Message logs · ${app.name} · Herald`;
  }, [app.name]);
  const logs = useLogs(app.id!, f);
  const rows = logs.data?.pages.flatMap((p) => p.data ?? []) ?? [];

  return (
    <>
      <h1>Message logs</h1>
      <form
        className="card filters"
        aria-label="Filters"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const next = new URLSearchParams();
          for (const [k, v] of new FormData(e.currentTarget).entries()) if (String(v).trim()) next.set(k, String(v).trim());
          setParams(next);
        }}
      >
        <Field label="From" name="fromDate" type="date" defaultValue={f.fromDate} />
        <Field label="To" name="toDate" type="date" defaultValue={f.toDate} />
        <Field label="User" name="user" defaultValue={f.user} placeholder="user identifier" />
        <Select label="Channel" name="channel" options={channels} value={f.channel} />
        <Select key={providers.length} label="Provider" name="provider" options={providers} value={f.provider} />
        <Select label="Event" name="event" options={events} value={f.event} />
        <Button type="submit">Apply filters</Button>
      </form>
      {logs.isPending ? (
        <Loading label="Loading the logs" />
      ) : logs.isError ? (
        <ErrorState error={logs.error} retry={() => logs.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="No messages match">
          <p className="muted">Sends of this app appear here, one row per recipient and channel. Widen the dates or clear the filters.</p>
        </Empty>
      ) : (
        <section className="card" aria-label="Messages">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">User</th>
                <th scope="col">Channel</th>
                <th scope="col">Outcome</th>
                <th scope="col">Provider</th>
                <th scope="col">Attempts</th>
                <th scope="col">Request</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{when(r.createdAt)}</td>
                  <td>{r.userIdentifier}</td>
                  <td>{r.channel}</td>
                  <td>
                    <span className={`badge badge-${r.status}`}>{r.status}</span>
                    {(r.reason || r.error) && <div className="muted small">{[r.reason, r.error].filter(Boolean).join(": ")}</div>}
                    {r.providerResponse && <div className="muted small">{r.providerResponse}</div>}
                  </td>
                  <td>{r.providerIdentifier ?? "—"}</td>
                  <td>{r.attempts}</td>
                  <td>
                    <Link to={`../activity/${r.requestId}`} relative="path" aria-label={`Request ${r.requestId?.slice(0, 8)}: what it did`}>
                      <code className="small" title={r.workflowId}>
                        {r.requestId?.slice(0, 8)}
                      </code>
                    </Link>
                    {r.temporalUrl && (
                      <div>
                        <a href={r.temporalUrl} target="_blank" rel="noreferrer" className="small" aria-label={`Run ${r.requestId?.slice(0, 8)} in Temporal (new tab)`}>
                          Run in Temporal ↗
                        </a>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {logs.hasNextPage && (
            <Button variant="secondary" busy={logs.isFetchingNextPage} onClick={() => logs.fetchNextPage()}>
              Load more
            </Button>
          )}
        </section>
      )}
    </>
  );
}
