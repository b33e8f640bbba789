// Usage and billing: the team's notifications this month against its plan's quota, per app
// and the months before; the plan, payment method and invoices when a billing provider is
// configured (and a plain "billing is off" otherwise); the licence of a self-hosted install.
import { useEffect } from "react";
import { useOutletContext } from "react-router-dom";
import { Empty, ErrorState, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";
import { useUsage } from "./api";
import { Billing, Licence } from "./Billing";

const when = (s?: string | null) => (s ? new Date(s).toLocaleDateString() : "—");

/** Usage shows usage, billing and licence of the app's team. */
export default function Usage() {
  const app = useOutletContext<App>();
  const clientId = app.clientId!;
  useEffect(() => {
    document.title = `Usage and billing · ${app.name} · Herald`;
  }, [app.name]);
  const clients = useClients();
  const admin = atLeast(clients.data?.find((c) => c.id === clientId)?.role, "admin");
  return (
    <>
      <h1>Usage and billing</h1>
      <UsageCard clientId={clientId} />
      <Billing clientId={clientId} admin={admin} />
      <Licence clientId={clientId} />
    </>
  );
}

function UsageCard({ clientId }: { clientId: number }) {
  const usage = useUsage(clientId);
  if (usage.isPending) return <Loading label="Loading the usage" />;
  if (usage.isError) return <ErrorState error={usage.error} retry={() => usage.refetch()} />;
  const u = usage.data;
  const used = u.notifications ?? 0;
  const pct = u.quota ? Math.min(100, Math.round((used / u.quota) * 100)) : 0;
  return (
    <section className="card" aria-labelledby="use-h">
      <h2 id="use-h">This month ({u.month})</h2>
      <dl className="kv">
        <dt>Plan</dt>
        <dd>{u.planName || u.plan}</dd>
        <dt>Notifications</dt>
        <dd>
          {used}
          {u.quota != null ? ` of ${u.quota}` : " (no quota)"}
          {u.remaining != null && <span className="muted"> · {u.remaining} left</span>}
        </dd>
        <dt>Recipients</dt>
        <dd>{u.recipients ?? 0}</dd>
        <dt>Resets</dt>
        <dd>{when(u.resetsAt)}</dd>
        <dt>Quota</dt>
        <dd>{u.enforcement === "enforce" ? "enforced: sends over the quota are refused" : u.enforcement === "report" ? "reported only" : "not checked"}</dd>
      </dl>
      {u.quota != null && (
        <div
          className={`meter ${u.overQuota ? "meter-over" : ""}`}
          role="meter"
          aria-label="Notifications used this month"
          aria-valuemin={0}
          aria-valuemax={u.quota}
          aria-valuenow={used}
          aria-valuetext={`${used} of ${u.quota} (${pct}%)`}
        >
          <span style={{ width: `${pct}%` }} />
        </div>
      )}
      {u.overQuota && (
        <p className="field-error" role="alert">
          Over the quota of the plan{u.enforcement === "enforce" ? ": new sends are refused until the month resets or the plan changes." : "."}
        </p>
      )}
      <h3>Per app</h3>
      {u.apps?.length ? (
        <table className="table" aria-label="Usage per app">
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Notifications</th>
              <th scope="col">Recipients</th>
            </tr>
          </thead>
          <tbody>
            {u.apps.map((a) => (
              <tr key={a.appId}>
                <th scope="row">{a.name}</th>
                <td>{a.notifications}</td>
                <td>{a.recipients}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <Empty title="No sends this month" />
      )}
      {!!u.history?.length && (
        <>
          <h3>Last 12 months</h3>
          <table className="table" aria-label="Usage per month">
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col">Notifications</th>
                <th scope="col">Recipients</th>
              </tr>
            </thead>
            <tbody>
              {u.history.map((h) => (
                <tr key={h.month}>
                  <th scope="row">{h.month}</th>
                  <td>{h.notifications}</td>
                  <td>{h.recipients}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
