// Analytics: sent, delivered, read, clicked and failed per day, per channel and per
// template over a date range (UTC days), as charts and as tables of the same numbers.
// The counts are the message logs' events (internal/ops/analytics).
import { lazy, Suspense, useEffect, type FormEvent } from "react";
import { Link, useOutletContext, useSearchParams } from "react-router-dom";
import { fieldErrors } from "../../api/client";
import { Button, Empty, ErrorState, Field, FormError, Loading } from "../../ui/kit";
import type { App } from "../queries";
import { useAnalytics } from "./api";

const DaysChart = lazy(() => import("./Chart").then((m) => ({ default: m.DaysChart })));
const TotalsChart = lazy(() => import("./Chart").then((m) => ({ default: m.TotalsChart })));

type Counts = { sent?: number; delivered?: number; read?: number; clicked?: number; failed?: number };
const cols: { key: keyof Counts; label: string }[] = [
  { key: "sent", label: "Sent" },
  { key: "delivered", label: "Delivered" },
  { key: "read", label: "Read" },
  { key: "clicked", label: "Clicked" },
  { key: "failed", label: "Failed" },
];
const day = (d: Date) => d.toISOString().slice(0, 10);

/** Analytics is the app's delivery dashboard. */
export default function Analytics() {
  const app = useOutletContext<App>();
  const appId = app.id!;
  useEffect(() => {
    document.title = `Analytics · ${app.name} · Herald`;
  }, [app.name]);
  const [params, setParams] = useSearchParams();
  const today = new Date();
  const to = params.get("to") ?? day(today);
  const from = params.get("from") ?? day(new Date(today.getTime() - 29 * 86400_000));
  const { days, channels, templates } = useAnalytics(appId, from, to);
  const fe = fieldErrors(days.error, ["fromDate", "toDate"]);
  const rangeError = days.isError && (fe.fromDate || fe.toDate);
  const totals = (days.data ?? []).reduce<Required<Counts>>(
    (t, d) => ({ sent: t.sent + (d.sent ?? 0), delivered: t.delivered + (d.delivered ?? 0), read: t.read + (d.read ?? 0), clicked: t.clicked + (d.clicked ?? 0), failed: t.failed + (d.failed ?? 0) }),
    { sent: 0, delivered: 0, read: 0, clicked: 0, failed: 0 },
  );
  const tplRows = [
    ...(templates.data?.templates ?? []).map((t) => ({ name: t.name || t.identifier || "deleted template", ...t.totals })),
    ...(templates.data?.withoutTemplate?.totals && Object.values(templates.data.withoutTemplate.totals).some((v) => v) ? [{ name: "without a template", ...templates.data.withoutTemplate.totals }] : []),
  ];
  const chRows = (channels.data ?? []).map((c) => ({ name: c.channel ?? "", ...c.totals }));

  return (
    <>
      <h1>Analytics</h1>
      <form
        className="card filters"
        aria-label="Date range"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          setParams({ from: String(f.get("from")), to: String(f.get("to")) });
        }}
      >
        <Field key={`f${from}`} label="From" name="from" type="date" defaultValue={from} errors={fe.fromDate} />
        <Field key={`t${to}`} label="To" name="to" type="date" defaultValue={to} errors={fe.toDate} />
        <Button type="submit">Show</Button>
        <p className="small muted" style={{ margin: 0 }}>
          Days are UTC. Each count is a message log event: see <Link to="../logs">Message logs</Link>.
        </p>
      </form>
      {days.isPending ? (
        <Loading label="Loading the analytics" />
      ) : days.isError ? (
        rangeError ? <FormError errors={fe[""]} /> : <ErrorState error={days.error} retry={() => days.refetch()} />
      ) : (
        <>
          <section className="card" aria-labelledby="tot-h">
            <h2 id="tot-h">
              From {from} to {to}
            </h2>
            <dl className="stat-grid" aria-label="Totals">
              {cols.map((c) => (
                <div className="stat" key={c.key}>
                  <dt>{c.label}</dt>
                  <dd aria-label={c.label}>{totals[c.key]}</dd>
                </div>
              ))}
            </dl>
            {totals.sent + totals.failed + totals.delivered === 0 ? (
              <Empty title="No messages in this range">
                <p className="muted">Counts appear once notifications are sent. Pick another range, or send one from Get started.</p>
              </Empty>
            ) : (
              <Suspense fallback={<Loading label="Drawing the chart" />}>
                <DaysChart days={days.data} title={`Messages per day from ${from} to ${to}`} />
              </Suspense>
            )}
          </section>
          <Breakdown title="Per channel" label="Channels" q={channels} rows={chRows} head="Channel" />
          <Breakdown title="Per template" label="Templates" q={templates} rows={tplRows} head="Template" />
        </>
      )}
    </>
  );
}

function Breakdown({
  title,
  label,
  q,
  rows,
  head,
}: {
  title: string;
  label: string;
  q: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  rows: ({ name: string } & Counts)[];
  head: string;
}) {
  return (
    <section className="card" aria-label={title}>
      <h2>{title}</h2>
      {q.isPending ? (
        <Loading label={`Loading ${title.toLowerCase()}`} />
      ) : q.isError ? (
        <ErrorState error={q.error} retry={() => q.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="Nothing in this range" />
      ) : (
        <>
          <Suspense fallback={<Loading label="Drawing the chart" />}>
            <TotalsChart rows={rows} title={`${title}: totals`} />
          </Suspense>
          <table className="table" aria-label={label}>
            <thead>
              <tr>
                <th scope="col">{head}</th>
                {cols.map((c) => (
                  <th scope="col" key={c.key}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.name}>
                  <th scope="row">{r.name}</th>
                  {cols.map((c) => (
                    <td key={c.key}>{r[c.key] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
