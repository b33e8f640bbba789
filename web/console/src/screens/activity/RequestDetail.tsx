// What one send request did: its messages (recipient × channel, and workflow step) with
// their outcomes, and for a workflow send each recipient's run with the steps it recorded,
// each linked to its run in the Temporal Web UI when one is configured.
import type { components } from "../../api/client";
import { ErrorState, Loading } from "../../ui/kit";
import { StepRow } from "../workflows/StepDetails";
import { useRequest } from "./api";
import { shortId } from "./requests";

type Detail = components["schemas"]["NotificationRequestDetail"];
type Run = Detail["runs"][number];

const time = (s?: string | null) => (s ? new Date(s).toLocaleTimeString() : "");

export default function RequestDetail({ appId, requestId }: { appId: number; requestId: string }) {
  const detail = useRequest(appId, requestId);
  if (detail.isPending) return <Loading label="Loading the request" />;
  if (detail.isError) return <ErrorState error={detail.error} retry={() => detail.refetch()} />;
  const d = detail.data;
  const short = shortId(requestId);
  return (
    <div className="request-detail" role="region" aria-label={`Request ${short}`}>
      <p className="muted small">
        Request <code>{d.id}</code>
        {d.workflowId && (
          <>
            {" "}
            · carried by <code>{d.workflowId}</code>
          </>
        )}
        {d.sendAt && <> · scheduled for {new Date(d.sendAt).toLocaleString()}</>}
      </p>
      {d.messages.length === 0 && d.runs.length === 0 ? (
        <p className="muted">Nothing delivered yet: the request has not reached its recipients.</p>
      ) : null}
      {d.messages.length > 0 && (
        <table className="table" aria-label={`Messages of request ${short}`}>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Channel</th>
              <th scope="col">Step</th>
              <th scope="col">Outcome</th>
              <th scope="col">Provider</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {d.messages.map((m) => (
              <tr key={m.id}>
                <td>{m.userIdentifier}</td>
                <td>{m.channel}</td>
                <td>{m.stepKey || "—"}</td>
                <td>
                  <span className={`badge badge-${m.status}`}>{m.status}</span>
                  {(m.reason || m.error) && <div className="muted small">{[m.reason, m.error].filter(Boolean).join(": ")}</div>}
                </td>
                <td>{m.providerIdentifier ?? "—"}</td>
                <td>{time(m.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {d.runs.map((r) => (
        <RunSteps key={r.workflowId} run={r} />
      ))}
      {d.truncated && <p className="muted small">Only the first messages and runs are listed: the message logs have them all.</p>}
    </div>
  );
}

function RunSteps({ run: r }: { run: Run }) {
  return (
    <div className="run">
      <h3>
        {r.userIdentifier}’s run of {r.workflow}{" "}
        <span className={`badge badge-${r.status === "completed" ? "ok" : r.status}`} aria-label={`Run status: ${r.status}`}>
          {r.status}
        </span>
        {r.temporalUrl && (
          <>
            {" "}
            <a href={r.temporalUrl} target="_blank" rel="noreferrer" className="small" aria-label={`${r.userIdentifier}’s run in Temporal (new tab)`}>
              Open in Temporal ↗
            </a>
          </>
        )}
      </h3>
      {r.steps.length === 0 ? (
        <p className="muted small">No step recorded yet.</p>
      ) : (
        <ol className="timeline" aria-label={`Steps of ${r.userIdentifier}’s run`}>
          {r.steps.map((s, i) => (
            <StepRow key={i} step={s} user={r.userIdentifier} />
          ))}
        </ol>
      )}
    </div>
  );
}
