// WebhookDetail: one endpoint (by id): edit its URL, events, filter and ordering; enable or
// disable it; rotate its signing secret (shown once); delete it; and its delivery log with
// each attempt's status, latency and answer, a resend per event and a replay since a time.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useOutletContext, useParams } from "react-router-dom";
import { api, data, fieldErrors, type components } from "../../api/client";
import { ConfirmButton } from "../../ui/confirm";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { bodyOf, draftOf, EndpointFields, SecretOnce, when, type Delivery, type Endpoint, type EndpointDraft } from "./shared";

/** WebhookDetail shows and manages one endpoint. */
export default function WebhookDetail() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const webhookId = Number(useParams().webhookId);
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const ep = useQuery({
    queryKey: ["apps", appId, "webhooks", webhookId],
    queryFn: () => data(api.GET("/v1/apps/{appId}/webhooks/{webhookId}", { params: { path: { appId, webhookId } } })),
  });
  useEffect(() => {
    document.title = `${ep.data?.url ?? "Endpoint"} · Webhooks · ${app.name} · Herald`;
  }, [app.name, ep.data?.url]);
  return (
    <>
      <p>
        <Link to=".." relative="path">
          ← All endpoints
        </Link>
      </p>
      {ep.isPending ? (
        <Loading label="Loading the endpoint" />
      ) : ep.isError ? (
        <ErrorState error={ep.error} retry={() => ep.refetch()} />
      ) : (
        <>
          <h1>{ep.data.url}</h1>
          {ep.data.disabledReason === "failures" && (
            <div className="notice" role="alert">
              Herald disabled this endpoint {when(ep.data.disabledAt)} after {ep.data.consecutiveFailures} failed attempts in a row. Enable it
              once it answers again.
            </div>
          )}
          {dev ? <Manage appId={appId} ep={ep.data} /> : <Summary ep={ep.data} />}
          <DeliveryLog appId={appId} ep={ep.data} dev={dev} />
        </>
      )}
    </>
  );
}

function Summary({ ep }: { ep: Endpoint }) {
  return (
    <section className="card" aria-label="Endpoint">
      <dl className="kv">
        <dt>Status</dt>
        <dd>{ep.enabled ? "Enabled" : "Disabled"}</dd>
        <dt>Events</dt>
        <dd>{ep.eventTypes.join(", ")}</dd>
        <dt>Order</dt>
        <dd>{ep.ordered ? "one at a time, in order" : "in parallel"}</dd>
      </dl>
    </section>
  );
}

function Manage({ appId, ep }: { appId: number; ep: Endpoint }) {
  const qc = useQueryClient();
  const toast = useToast();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<EndpointDraft>(() => draftOf(ep));
  const [secret, setSecret] = useState<string | null>(null);
  const path = { params: { path: { appId, webhookId: ep.id } } };
  const refresh = () => qc.invalidateQueries({ queryKey: ["apps", appId, "webhooks"] });
  const save = useMutation({
    mutationFn: (body: components["schemas"]["WebhookEndpointUpdate"]) => data(api.PATCH("/v1/apps/{appId}/webhooks/{webhookId}", { ...path, body })),
    onSuccess: (e) => {
      refresh();
      setDraft(draftOf(e));
      toast("Endpoint saved");
    },
  });
  const errs = save.isError ? fieldErrors(save.error, ["url", "description", "eventTypes", "filter.categories", "filter.workflows", "filter.channels"]) : {};
  return (
    <>
      <section className="card" aria-labelledby="state-h">
        <h2 id="state-h">Status</h2>
        <p>
          {ep.enabled ? "Enabled: events are recorded and sent." : "Disabled: events are neither recorded nor sent."}{" "}
          {ep.previousSecretUntil && <span className="muted">The previous secret signs too until {when(ep.previousSecretUntil)}.</span>}
        </p>
        <div className="row">
          <Button variant="secondary" busy={save.isPending} onClick={() => save.mutate({ enabled: !ep.enabled })}>
            {ep.enabled ? "Disable endpoint" : "Enable endpoint"}
          </Button>
          <ConfirmButton
            label="Rotate the signing secret"
            title="Rotate the signing secret?"
            description="A new secret signs every request from now on; the current one keeps signing next to it for 24 hours, so you can deploy the new one."
            action="Rotate"
            onConfirm={async () => {
              const r = await data(api.POST("/v1/apps/{appId}/webhooks/{webhookId}/rotate-secret", path));
              setSecret(r.secret);
              refresh();
            }}
          >
            Rotate secret
          </ConfirmButton>
          <ConfirmButton
            label="Delete the endpoint"
            title="Delete this endpoint?"
            description="Herald stops sending to it at once and forgets its delivery log."
            action="Delete"
            onConfirm={async () => {
              await data(api.DELETE("/v1/apps/{appId}/webhooks/{webhookId}", path));
              refresh();
              navigate("..", { relative: "path" });
            }}
          >
            Delete
          </ConfirmButton>
        </div>
        {secret && <SecretOnce secret={secret} onDone={() => setSecret(null)} />}
      </section>
      <section className="card" aria-labelledby="edit-h">
        <h2 id="edit-h">Settings</h2>
        <form
          noValidate
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            save.mutate(bodyOf(draft));
          }}
        >
          <FormError errors={errs[""]} />
          <EndpointFields draft={draft} set={setDraft} errs={errs} />
          <Button type="submit" busy={save.isPending}>
            Save endpoint
          </Button>
        </form>
      </section>
    </>
  );
}

function DeliveryLog({ appId, ep, dev }: { appId: number; ep: Endpoint; dev: boolean }) {
  const qc = useQueryClient();
  const toast = useToast();
  const [before, setBefore] = useState<number[]>([]);
  const cursor = before[before.length - 1] ?? 0;
  const path = { appId, webhookId: ep.id };
  const log = useQuery({
    queryKey: ["apps", appId, "webhooks", ep.id, "deliveries", cursor],
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
    queryFn: () =>
      data(api.GET("/v1/apps/{appId}/webhooks/{webhookId}/deliveries", { params: { path, query: { before: cursor || undefined, limit: 25 } } })),
  });
  const [since, setSince] = useState("");
  const replay = useMutation({
    mutationFn: () =>
      data(api.POST("/v1/apps/{appId}/webhooks/{webhookId}/replay", { params: { path }, body: { since: new Date(since).toISOString() } })),
    onSuccess: (r) => {
      toast(`${r.queued} events queued again`);
      qc.invalidateQueries({ queryKey: ["apps", appId, "webhooks", ep.id, "deliveries"] });
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
    mutationFn: () =>
      data(api.POST("/v1/apps/{appId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend", { params: { path: { appId, webhookId: ep.id, deliveryId: d.id } } })),
    onSuccess: () => {
      toast(`${d.eventType} queued again`);
      qc.invalidateQueries({ queryKey: ["apps", appId, "webhooks", ep.id, "deliveries"] });
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
