// Activity: the app's send requests (the API's and workflow schedules'), newest first, paged
// by cursor and filtered by user, workflow and status (kept in the URL). Each row expands to
// what the request did (RequestDetail) and links to its workflow in the Temporal Web UI when
// one is configured.
import { useEffect, useState, type FormEvent } from "react";
import { Link, useOutletContext, useSearchParams } from "react-router-dom";
import type { components } from "../../api/client";
import { Button, Empty, ErrorState, Field, Loading } from "../../ui/kit";
import type { App } from "../queries";
import { Select } from "../../ui/select";
import { useWorkflows } from "../workflows/api";
import { useRequests } from "./api";
import RequestDetail from "./RequestDetail";
import { audience, shortId, what } from "./requests";

type Request = components["schemas"]["NotificationRequest"];

const requestStatuses = ["accepted", "scheduled", "started", "completed", "failed", "cancelled"];

const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "");

export default function Activity() {
  const app = useOutletContext<App>();
  const [params, setParams] = useSearchParams();
  const f = { user: params.get("user") ?? "", workflow: params.get("workflow") ?? "", status: params.get("status") ?? "" };
  const [open, setOpen] = useState<string>();
  useEffect(() => {
    document.title = `Activity · ${app.name} · Herald`;
  }, [app.name]);
  const workflows = useWorkflows(app.id!);
  const flowIds = (workflows.data ?? []).map((w) => w.identifier!).filter(Boolean);
  if (f.workflow && !flowIds.includes(f.workflow)) flowIds.unshift(f.workflow);
  const requests = useRequests(app.id!, f);
  const rows = requests.data?.pages.flatMap((p) => p.data) ?? [];

  return (
    <>
      <h1>Activity</h1>
      <p className="muted">Every send of this app, newest first: open one to see its recipients, channels, workflow steps and outcomes.</p>
      <form
        className="card filters"
        aria-label="Filters"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const next = new URLSearchParams();
          for (const [k, v] of new FormData(e.currentTarget).entries()) if (String(v).trim()) next.set(k, String(v).trim());
          setOpen(undefined);
          setParams(next);
        }}
      >
        <Field label="User" name="user" defaultValue={f.user} placeholder="user identifier" />
        <Select key={`w${flowIds.length}`} label="Workflow" name="workflow" options={flowIds} value={f.workflow} />
        <Select label="Status" name="status" options={requestStatuses} value={f.status} />
        <Button type="submit">Apply filters</Button>
      </form>
      {requests.isPending ? (
        <Loading label="Loading the activity" />
      ) : requests.isError ? (
        <ErrorState error={requests.error} retry={() => requests.refetch()} />
      ) : rows.length === 0 ? (
        <Empty title="No requests match">
          <p className="muted">Each send accepted by POST /v3/notifications or a workflow schedule appears here. Clear the filters to see them all.</p>
        </Empty>
      ) : (
        <section className="card" aria-label="Requests">
          <table className="table activity">
            <thead>
              <tr>
                <th scope="col">Request</th>
                <th scope="col">Time</th>
                <th scope="col">Recipients</th>
                <th scope="col">Status</th>
                <th scope="col">Delivered</th>
                <th scope="col">Run</th>
              </tr>
            </thead>
            {rows.map((r) => (
              <RequestRows key={r.id} appId={app.id!} r={r} open={open === r.id} toggle={() => setOpen(open === r.id ? undefined : r.id)} />
            ))}
          </table>
          {requests.hasNextPage && (
            <Button variant="secondary" busy={requests.isFetchingNextPage} onClick={() => requests.fetchNextPage()}>
              Load more
            </Button>
          )}
        </section>
      )}
    </>
  );
}

/** RequestRows is one request's row and, when open, the row below it with what it did. */
function RequestRows({ appId, r, open, toggle }: { appId: number; r: Request; open: boolean; toggle: () => void }) {
  const short = shortId(r.id);
  const panel = `request-${r.id}`;
  return (
    <tbody>
      <tr>
        <td>
          <button type="button" className="disclosure" aria-expanded={open} aria-controls={panel} onClick={toggle}>
            <span aria-hidden="true">{open ? "▾" : "▸"}</span> <code>{short}</code> {what(r)}
          </button>
        </td>
        <td>{when(r.createdAt)}</td>
        <td>{audience(r)}</td>
        <td>
          <span className={`badge badge-${r.status}`}>{r.status}</span>
          {r.error && <div className="muted small">{r.error}</div>}
        </td>
        <td>
          {r.deliveredCount} of {r.recipientCount}
        </td>
        <td>
          {r.temporalUrl ? (
            <a href={r.temporalUrl} target="_blank" rel="noreferrer" className="small nowrap" aria-label={`Run of request ${short} in Temporal (new tab)`}>
              Run in Temporal ↗
            </a>
          ) : (
            <span className="muted small">{r.workflowId ? r.workflowId : "not started"}</span>
          )}
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={6} id={panel}>
            <p className="small">
              <Link to={r.id} aria-label={`Request ${shortId(r.id)} on its own page`}>
                Open on its own page
              </Link>
            </p>
            <RequestDetail appId={appId} requestId={r.id} />
          </td>
        </tr>
      )}
    </tbody>
  );
}
