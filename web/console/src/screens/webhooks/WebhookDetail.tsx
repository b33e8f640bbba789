// WebhookDetail: one endpoint (by id): edit its URL, events, filter and ordering; enable or
// disable it; rotate its signing secret (shown once); delete it; and its delivery log with
// each attempt's status, latency and answer, a resend per event and a replay since a time.
import { useEffect } from "react";
import { Link, useOutletContext, useParams } from "react-router-dom";
import { ErrorState, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { useEndpoint } from "./api";
import { DeliveryLog } from "./DeliveryLog";
import { Manage } from "./ManageEndpoint";
import { when, type Endpoint } from "./shared";

/** WebhookDetail shows and manages one endpoint. */
export default function WebhookDetail() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  const webhookId = Number(useParams().webhookId);
  const clients = useClients();
  const dev = atLeast(clients.data?.find((c) => c.id === app.clientId)?.role, "developer");
  const ep = useEndpoint(appId, webhookId);
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
