// Usage and billing: the team's notifications this month against its plan's quota, per app
// and the months before; the plan, payment method and invoices when a billing provider is
// configured (and a plain "billing is off" otherwise); the licence of a self-hosted install.
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useOutletContext } from "react-router-dom";
import { api, data } from "../../api/client";
import { Empty, ErrorState, Loading } from "../../ui/kit";
import { atLeast, useClients, type App } from "../queries";

const when = (s?: string | null) => (s ? new Date(s).toLocaleDateString() : "—");
const money = (minor: number | undefined, currency: string | undefined) =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: (currency || "usd").toUpperCase() }).format((minor ?? 0) / 100);

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
  const usage = useQuery({
    queryKey: ["clients", clientId, "usage"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/usage", { params: { path: { clientId } } })),
  });
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

function Billing({ clientId, admin }: { clientId: number; admin: boolean }) {
  const sub = useQuery({
    queryKey: ["clients", clientId, "subscription"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/subscription", { params: { path: { clientId } } })),
  });
  const on = sub.data !== undefined && sub.data.provider !== "none" && !!sub.data.provider;
  const methods = useQuery({
    queryKey: ["clients", clientId, "paymentMethods"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/paymentMethods", { params: { path: { clientId } } })),
    enabled: on && admin,
  });
  const invoices = useQuery({
    queryKey: ["clients", clientId, "invoices"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/invoices", { params: { path: { clientId } } })),
    enabled: on && admin,
  });
  return (
    <section className="card" aria-labelledby="bill-h">
      <h2 id="bill-h">Billing</h2>
      {sub.isPending ? (
        <Loading label="Loading the plan" />
      ) : sub.isError ? (
        <ErrorState error={sub.error} retry={() => sub.refetch()} />
      ) : !on ? (
        <div className="notice" role="status">
          <strong>Billing is off</strong> on this installation: there is nothing to pay. The team is on the {sub.data.plan?.name ?? "free"} plan
          {sub.data.source === "license" ? " granted by its licence" : ""}.
        </div>
      ) : (
        <>
          <dl className="kv">
            <dt>Plan</dt>
            <dd>
              {sub.data.plan?.name} · {money(sub.data.plan?.price, sub.data.plan?.currency)} a {sub.data.plan?.interval ?? "month"}
            </dd>
            <dt>Status</dt>
            <dd>
              {sub.data.status}
              {sub.data.cancelAtPeriodEnd ? " (ends at the period's end)" : ""}
            </dd>
            <dt>Period ends</dt>
            <dd>{when(sub.data.currentPeriodEnd)}</dd>
          </dl>
          {!admin ? (
            <p className="muted small">Admins of the team see the payment method and invoices.</p>
          ) : (
            <>
              <h3>Payment method</h3>
              {methods.isPending ? (
                <Loading label="Loading the payment methods" />
              ) : methods.isError ? (
                <ErrorState error={methods.error} retry={() => methods.refetch()} />
              ) : methods.data.defaultPaymentMethod ? (
                <p>
                  {methods.data.defaultPaymentMethod.brand} ending {methods.data.defaultPaymentMethod.last4}, expires {methods.data.defaultPaymentMethod.expMonth}/
                  {methods.data.defaultPaymentMethod.expYear}
                </p>
              ) : (
                <Empty title="No payment method saved" />
              )}
              <h3>Invoices</h3>
              {invoices.isPending ? (
                <Loading label="Loading the invoices" />
              ) : invoices.isError ? (
                <ErrorState error={invoices.error} retry={() => invoices.refetch()} />
              ) : !invoices.data.invoices?.length ? (
                <Empty title="No invoices yet" />
              ) : (
                <table className="table" aria-label="Invoices">
                  <thead>
                    <tr>
                      <th scope="col">Number</th>
                      <th scope="col">Date</th>
                      <th scope="col">Amount</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {invoices.data.invoices.map((i) => (
                      <tr key={i.id}>
                        <th scope="row">{i.hostedInvoiceUrl ? <a href={i.hostedInvoiceUrl} target="_blank" rel="noreferrer">{i.number || i.id}</a> : i.number || i.id}</th>
                        <td>{when(i.createdAt)}</td>
                        <td>{money(i.amountDue, i.currency)}</td>
                        <td>{i.status}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}

function Licence({ clientId }: { clientId: number }) {
  const lic = useQuery({
    queryKey: ["clients", clientId, "license"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/license", { params: { path: { clientId } } })),
  });
  return (
    <section className="card" aria-labelledby="lic-h">
      <h2 id="lic-h">Licence</h2>
      {lic.isPending ? (
        <Loading label="Loading the licence" />
      ) : lic.isError ? (
        <ErrorState error={lic.error} retry={() => lic.refetch()} />
      ) : lic.data.status === "none" || !lic.data.license ? (
        <p role="status">
          No licence: the team runs on the {lic.data.entitlement?.plan?.name ?? "free"} plan
          {lic.data.entitlement?.plan?.monthlyQuota != null ? ` (${lic.data.entitlement.plan.monthlyQuota} notifications a month)` : ""}.
        </p>
      ) : (
        <dl className="kv" aria-label="Licence">
          <dt>Status</dt>
          <dd>
            <span className={`badge ${lic.data.status === "valid" ? "badge-ok" : "badge-failed"}`}>{lic.data.status}</span>
          </dd>
          <dt>Plan</dt>
          <dd>{lic.data.license.plan}</dd>
          <dt>Issued</dt>
          <dd>{when(lic.data.license.issuedAt)}</dd>
          <dt>Expires</dt>
          <dd>{when(lic.data.license.expiresAt)}</dd>
          <dt>Monthly limit</dt>
          <dd>{lic.data.license.limits?.monthlyNotifications ?? "unlimited"}</dd>
        </dl>
      )}
    </section>
  );
}
