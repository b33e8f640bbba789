// Billing and licence: the plan, payment method and invoices when a billing provider is
// configured (and a plain "billing is off" otherwise); the licence of a self-hosted install.
import { Empty, ErrorState, Loading } from "../../ui/kit";
import { useInvoices, useLicense, usePaymentMethods, useSubscription } from "./api";

const when = (s?: string | null) => (s ? new Date(s).toLocaleDateString() : "—");
const money = (minor: number | undefined, currency: string | undefined) =>
  new Intl.NumberFormat(undefined, { style: "currency", currency: (currency || "usd").toUpperCase() }).format((minor ?? 0) / 100);

/** Billing shows the team's plan, payment methods and invoices. */
export function Billing({ clientId, admin }: { clientId: number; admin: boolean }) {
  const sub = useSubscription(clientId);
  const on = sub.data !== undefined && sub.data.provider !== "none" && !!sub.data.provider;
  const methods = usePaymentMethods(clientId, on && admin);
  const invoices = useInvoices(clientId, on && admin);
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

export function Licence({ clientId }: { clientId: number }) {
  const lic = useLicense(clientId);
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
