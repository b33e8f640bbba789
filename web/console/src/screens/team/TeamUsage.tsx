// TeamUsage: the team's notifications this month against its plan's quota, per app.
import { ErrorState, Loading } from "../../ui/kit";
import { useUsage } from "../ops/api";

const num = (n?: number | null) => (n ?? 0).toLocaleString();

/** Usage: this month's notifications of the team against its plan's quota, per app. */
export function Usage({ clientId }: { clientId: number }) {
  const usage = useUsage(clientId);
  const u = usage.data;
  const quota = u?.quota ?? null;
  return (
    <section className="card" aria-labelledby="usage-h">
      <h2 id="usage-h">Usage</h2>
      {usage.isPending ? (
        <Loading label="Loading the usage" />
      ) : usage.isError ? (
        <ErrorState error={usage.error} retry={() => usage.refetch()} />
      ) : (
        <>
          <p>
            <strong>{num(u!.notifications)}</strong> notifications to <strong>{num(u!.recipients)}</strong> recipients in {u!.month} (UTC)
            {quota !== null ? (
              <>
                {" "}
                of <strong>{num(quota)}</strong> on the {u!.planName || u!.plan} plan; {num(u!.remaining)} left
              </>
            ) : (
              <> on the {u!.planName || u!.plan || "current"} plan, without a monthly quota</>
            )}
            .
          </p>
          {quota !== null && (
            <meter className="meter" aria-label="Share of the monthly quota used" min={0} max={quota} value={Math.min(u!.notifications ?? 0, quota)} high={quota * 0.8} optimum={0} />
          )}
          {u!.overQuota && (
            <p className="form-error" role="alert">
              {u!.enforcement === "enforce"
                ? "The quota is used up: new sends are refused until it resets."
                : "The quota is used up; sends still go through while enforcement is off."}
            </p>
          )}
          {u!.resetsAt && <p className="muted small">Resets on {new Date(u!.resetsAt).toLocaleDateString()}.</p>}
          {(u!.apps ?? []).length > 0 && (
            <table className="table" aria-label="Usage per app this month">
              <thead>
                <tr>
                  <th scope="col">App</th>
                  <th scope="col">Notifications</th>
                  <th scope="col">Recipients</th>
                </tr>
              </thead>
              <tbody>
                {u!.apps!.map((a) => (
                  <tr key={a.appId}>
                    <td>{a.name}</td>
                    <td>{num(a.notifications)}</td>
                    <td>{num(a.recipients)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
