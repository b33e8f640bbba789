// DeliveryLog: an endpoint's delivery log, each attempt's status, latency and answer, a resend
// per event and a replay since a time.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { fieldErrors } from "../../api/client";
import { keys } from "../../api/keys";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { useDeliveries, webhooksApi } from "./api";
import { when, type Delivery, type Endpoint } from "./shared";

/** DeliveryLog pages through an endpoint's deliveries, with a replay since a time for developers. */
export function DeliveryLog({ appId, ep, dev }: { appId: number; ep: Endpoint; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [before, setBefore] = useState<number[]>([]);
  const cursor = before[before.length - 1] ?? 0;
  const log = useDeliveries(appId, ep.id, cursor);
  const [since, setSince] = useState("");
  const replay = useMutation({
    mutationFn: () => webhooksApi.replay(appId, ep.id, new Date(since).toISOString()),
    onSuccess: (r) => {
      toast(`${r.queued} events queued again`);
      qc.invalidateQueries({ queryKey: keys.webhooks.deliveries(appId, ep.id) });
    },
  });
  return (
    <section className="card" aria-labelledby="log-h">
      <h2 id="log-h">Delivery log</h2>
      {dev && (
        <form
          className="inline-form"
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            replay.mutate();
          }}
        >
          <FormError errors={replay.isError ? fieldErrors(replay.error, [])[""] : undefined} />
          <Field label="Replay events since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} required />
          <Button type="submit" variant="secondary" busy={replay.isPending} disabled={!since}>
            Replay
          </Button>
        </form>
      )}
      {log.isPending ? (
        <Loading label="Loading the delivery log" />
      ) : log.isError ? (
        <ErrorState error={log.error} retry={() => log.refetch()} />
      ) : log.data.data.length === 0 ? (
        <Empty title="No deliveries yet">
          <p className="muted">Events this endpoint subscribes to appear here as they happen.</p>
        </Empty>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Latency</th>
                  <th scope="col">Happened</th>
                  {dev && (
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {log.data.data.map((d) => (
                  <DeliveryRow key={d.id} appId={appId} ep={ep} d={d} dev={dev} />
                ))}
              </tbody>
            </table>
          </div>
          <div className="row">
            {before.length > 0 && (
              <Button variant="ghost" onClick={() => setBefore(before.slice(0, -1))}>
                Newer
              </Button>
            )}
            {log.data.nextBefore > 0 && (
              <Button variant="ghost" onClick={() => setBefore([...before, log.data.nextBefore])}>
                Older
              </Button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function DeliveryRow({ appId, ep, d, dev }: { appId: number; ep: Endpoint; d: Delivery; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const resend = useMutation({
    mutationFn: () => webhooksApi.resend(appId, ep.id, d.id),
    onSuccess: () => {
      toast(`${d.eventType} queued again`);
      qc.invalidateQueries({ queryKey: keys.webhooks.deliveries(appId, ep.id) });
    },
  });
  const answer = d.lastStatus ? `HTTP ${d.lastStatus}` : d.lastError || "—";
  return (
    <tr>
      <td>
        <code>{d.eventType}</code>
        <div className="small muted mono">{d.messageId}</div>
      </td>
      <td>
        <span className={`badge badge-${d.status === "succeeded" ? "ok" : d.status === "failed" ? "failed" : "skipped"}`}>{d.status}</span>
        {d.status === "pending" && d.nextAttemptAt && <div className="small muted">next {when(d.nextAttemptAt)}</div>}
      </td>
      <td>{d.attempts}</td>
      <td>
        <details>
          <summary>{answer}</summary>
          {d.lastError && d.lastStatus ? <p className="small">{d.lastError}</p> : null}
          {d.lastResponse && (
            <pre className="code small" aria-label={`Answer to ${d.messageId}`}>
              {d.lastResponse}
            </pre>
          )}
          <ol className="small">
            {(d.attemptLog ?? []).map((a, i) => (
              <li key={i}>
                {when(a.at)}: {a.status ? `HTTP ${a.status}` : a.error} in {a.latencyMs} ms
              </li>
            ))}
          </ol>
        </details>
      </td>
      <td>{d.lastLatencyMs != null ? `${d.lastLatencyMs} ms` : ""}</td>
      <td>{when(d.createdAt)}</td>
      {dev && (
        <td className="actions">
          <Button variant="ghost" busy={resend.isPending} onClick={() => resend.mutate()} aria-label={`Resend ${d.eventType} ${d.messageId}`}>
            Resend
          </Button>
        </td>
      )}
    </tr>
  );
}
