// Schedules: the app's scheduled notifications (sends with sendAt) — list, inspect, cancel —
// and its recurring workflow schedules — create (cron in a time zone, previewed in words
// with its next five runs), pause, resume and delete.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { useOutletContext } from "react-router-dom";
import type { components } from "../../api/client";
import { keys } from "../../api/keys";
import { Button, Empty, ErrorState, Loading, useToast } from "../../ui/kit";
import type { App } from "../queries";
import { Confirm } from "../../ui/confirm";
import { opsApi, useScheduled } from "./api";
import { Recurring } from "./Recurring";

type Scheduled = components["schemas"]["ScheduledNotificationEntity"];
const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "—");
const errs = (e: unknown) => (e ? [(e as Error).message] : undefined);

/** Schedules shows scheduled sends and recurring workflow schedules. */
export default function Schedules() {
  const app = useOutletContext<App>();
  useEffect(() => {
    document.title = `Schedules · ${app.name} · Herald`;
  }, [app.name]);
  return (
    <>
      <h1>Schedules</h1>
      <ScheduledSends appId={app.id!} />
      <Recurring appId={app.id!} />
    </>
  );
}

function ScheduledSends({ appId }: { appId: number }) {
  const [all, setAll] = useState(false);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const qc = useQueryClient();
  const list = useScheduled(appId, all, page, pageSize);
  const cancel = useMutation({
    mutationFn: (id: number) => opsApi.cancelScheduled(appId, id),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.ops.scheduled(appId) }),
  });
  const toast = useToast();
  return (
    <section className="card" aria-labelledby="sched-h">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h2 id="sched-h">Scheduled sends</h2>
        <label className="row small">
          <input type="checkbox" checked={all} onChange={(e) => (setAll(e.target.checked), setPage(1))} /> Show sent and cancelled
        </label>
      </div>
      {list.isPending ? (
        <Loading label="Loading the scheduled sends" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 && page === 1 ? (
        <Empty title={all ? "No scheduled sends" : "Nothing waiting to go out"}>
          <p className="muted">A send with <code>sendAt</code> in the future waits here until its time; you can cancel it before then.</p>
        </Empty>
      ) : (
        <table className="table" aria-label="Scheduled sends">
          <thead>
            <tr>
              <th scope="col">Goes out</th>
              <th scope="col">Title or workflow</th>
              <th scope="col">Recipients</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((s) => (
              <ScheduledRow
                key={s.id}
                s={s}
                open={open === s.id}
                toggle={() => setOpen(open === s.id ? null : s.id!)}
                cancel={
                  s.status === "scheduled" ? (
                    <Confirm
                      trigger="Cancel"
                      triggerLabel={`Cancel the send ${label(s)}`}
                      title={`Cancel “${label(s)}”?`}
                      confirm="Cancel the send"
                      busy={cancel.isPending}
                      error={errs(cancel.error)}
                      onOpenChange={() => cancel.reset()}
                      onConfirm={() => cancel.mutateAsync(s.id!).then(() => toast("Send cancelled"))}
                    >
                      It was to go out {when(s.sendAt)} to {s.recipientCount} recipient(s). Nobody receives it once cancelled.
                    </Confirm>
                  ) : null
                }
              />
            ))}
          </tbody>
        </table>
      )}
      {(page > 1 || (list.data?.length ?? 0) === pageSize) && (
        <nav className="pager" aria-label="Pages of scheduled sends">
          <Button variant="secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous page
          </Button>
          <span aria-live="polite">Page {page}</span>
          <Button variant="secondary" disabled={(list.data?.length ?? 0) < pageSize} onClick={() => setPage(page + 1)}>
            Next page
          </Button>
        </nav>
      )}
    </section>
  );
}

const pageSize = 50;

function label(s: Scheduled): string {
  const n = s.notification as { title?: unknown; workflow?: { identifier?: unknown } | string; template?: unknown } | undefined;
  if (typeof n?.title === "string" && n.title) return n.title;
  const wf = typeof n?.workflow === "string" ? n.workflow : n?.workflow?.identifier;
  if (typeof wf === "string") return `workflow ${wf}`;
  if (typeof n?.template === "string") return `template ${n.template}`;
  return `#${s.id}`;
}

function ScheduledRow({ s, open, toggle, cancel }: { s: Scheduled; open: boolean; toggle: () => void; cancel: React.ReactNode }) {
  const detailId = useId();
  return (
    <>
      <tr>
        <td>{when(s.sendAt)}</td>
        <td>
          <button type="button" className="btn btn-ghost" aria-expanded={open} aria-controls={detailId} onClick={toggle}>
            {label(s)}
          </button>
        </td>
        <td>{s.recipientCount}</td>
        <td>
          <span className={`badge badge-${s.status === "cancelled" ? "failed" : s.status === "sent" ? "sent" : ""}`}>{s.status}</span>
        </td>
        <td>{cancel}</td>
      </tr>
      {open && (
        <tr id={detailId}>
          <td colSpan={5}>
            <dl className="kv" aria-label={`Details of ${label(s)}`}>
              <dt>Request</dt>
              <dd>
                <code>{s.requestId}</code>
              </dd>
              <dt>Created</dt>
              <dd>{when(s.createdAt)}</dd>
              <dt>Goes out</dt>
              <dd>{when(s.sendAt)}</dd>
              {s.sentAt && (
                <>
                  <dt>Sent</dt>
                  <dd>{when(s.sentAt)}</dd>
                </>
              )}
              {s.cancelledAt && (
                <>
                  <dt>Cancelled</dt>
                  <dd>{when(s.cancelledAt)}</dd>
                </>
              )}
            </dl>
            <pre className="code" aria-label="Notification as it goes out">{JSON.stringify(s.notification, null, 2)}</pre>
          </td>
        </tr>
      )}
    </>
  );
}
