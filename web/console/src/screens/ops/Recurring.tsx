// Recurring: the app's recurring workflow schedules: create one (cron in a time zone,
// previewed in words with its next five runs), pause, resume and delete.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState, type FormEvent } from "react";
import { fieldErrors, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { Button, Empty, ErrorState, Field, FormError, Loading, useToast } from "../../ui/kit";
import { Confirm } from "../../ui/confirm";
import { opsApi, useFlowSchedules, usePublishableWorkflows } from "./api";
import { describeCron, inZone, type CronPreview } from "./cron";

const errs = (e: unknown) => (e ? [(e as Error).message] : undefined);

/** Recurring lists, creates, pauses and deletes the app's workflow schedules. */
export function Recurring({ appId }: { appId: number }) {
  const qc = useQueryClient();
  const toast = useToast();
  const list = useFlowSchedules(appId);
  const refresh = () => qc.invalidateQueries({ queryKey: keys.ops.flowSchedules(appId) });
  const pause = useMutation({
    mutationFn: (v: { id: number; paused: boolean }) => opsApi.pauseFlowSchedule(appId, v.id, v.paused),
    onSuccess: (_, v) => toast(v.paused ? "Schedule paused" : "Schedule resumed"),
    onSettled: refresh,
  });
  const del = useMutation({
    mutationFn: (id: number) => opsApi.deleteFlowSchedule(appId, id),
    onSettled: refresh,
  });
  return (
    <section className="card" aria-labelledby="rec-h">
      <h2 id="rec-h">Recurring workflow schedules</h2>
      {list.isPending ? (
        <Loading label="Loading the recurring schedules" />
      ) : list.isError ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <Empty title="No recurring schedules">
          <p className="muted">A recurring schedule sends a published workflow to an audience on every tick of a cron expression.</p>
        </Empty>
      ) : (
        <table className="table" aria-label="Recurring schedules">
          <thead>
            <tr>
              <th scope="col">Workflow</th>
              <th scope="col">When</th>
              <th scope="col">Audience</th>
              <th scope="col">State</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((s) => (
              <tr key={s.id}>
                <td>
                  <code>{s.workflow}</code>
                </td>
                <td>
                  <CronWords cron={s.cron} tz={s.timezone} paused={s.paused} />
                </td>
                <td className="small">{audience(s.sendTo)}</td>
                <td>
                  <span className={`badge ${s.paused ? "" : "badge-ok"}`}>{s.paused ? "paused" : "active"}</span>
                </td>
                <td className="row">
                  <Button
                    variant="secondary"
                    busy={pause.isPending && pause.variables?.id === s.id}
                    aria-label={`${s.paused ? "Resume" : "Pause"} the schedule of ${s.workflow} (${s.cron})`}
                    onClick={() => pause.mutate({ id: s.id, paused: !s.paused })}
                  >
                    {s.paused ? "Resume" : "Pause"}
                  </Button>
                  <Confirm
                    trigger="Delete"
                    triggerLabel={`Delete the schedule of ${s.workflow} (${s.cron})`}
                    title={`Delete the schedule of ${s.workflow}?`}
                    confirm="Delete the schedule"
                    busy={del.isPending}
                    error={errs(del.error)}
                    onOpenChange={() => del.reset()}
                    onConfirm={() => del.mutateAsync(s.id).then(() => toast("Schedule deleted"))}
                  >
                    No more sends on “{s.cron}” ({s.timezone}). Runs already started go on.
                  </Confirm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pause.error && <FormError errors={errs(pause.error)} />}
      <NewSchedule appId={appId} onCreated={refresh} />
    </section>
  );
}

function audience(sendTo: unknown): string {
  const s = sendTo as { recipients?: unknown[]; topics?: unknown[] } | undefined;
  const parts: string[] = [];
  if (s?.recipients?.length) parts.push(`users: ${s.recipients.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join(", ")}`);
  if (s?.topics?.length) parts.push(`topics: ${s.topics.join(", ")}`);
  return parts.join("; ") || JSON.stringify(sendTo);
}

function CronWords({ cron, tz, paused }: { cron: string; tz: string; paused: boolean }) {
  const p = useCronPreview(cron, tz);
  return (
    <>
      <code>{cron}</code> <span className="muted small">({tz})</span>
      <br />
      <span className="small">{p && "words" in p ? p.words : ""}</span>
      {p && "next" in p && !paused && p.next[0] && <span className="small muted"> · next {inZone(p.next[0], tz)}</span>}
    </>
  );
}

function useCronPreview(cron: string, tz: string): CronPreview | null {
  const [p, setP] = useState<CronPreview | null>(null);
  useEffect(() => {
    let live = true;
    const t = setTimeout(() => describeCron(cron, tz).then((r) => live && setP(r)), 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [cron, tz]);
  return p;
}

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const splitList = (v: string) => v.split(/[\s,]+/).filter(Boolean);

function NewSchedule({ appId, onCreated }: { appId: number; onCreated: () => void }) {
  const toast = useToast();
  const [cron, setCron] = useState("0 9 * * MON-FRI");
  const [tz, setTz] = useState(localZone);
  const preview = useCronPreview(cron, tz);
  const workflows = usePublishableWorkflows(appId);
  const published = (workflows.data ?? []).filter((w) => w.publishedVersion != null);
  const create = useMutation({
    mutationFn: (body: components["schemas"]["CreateFlowScheduleDTO"]) => opsApi.createFlowSchedule(appId, body),
    onSuccess: () => {
      toast("Schedule created");
      onCreated();
    },
  });
  const fe = fieldErrors(create.error, ["workflow", "cron", "timezone", "sendTo", "data"]);
  const [dataErr, setDataErr] = useState<string[]>();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const recipients = splitList(String(f.get("recipients") ?? ""));
    const topics = splitList(String(f.get("topics") ?? ""));
    const raw = String(f.get("data") ?? "").trim();
    let d: Record<string, unknown> | undefined;
    if (raw) {
      try {
        d = JSON.parse(raw);
      } catch {
        setDataErr(["data must be a JSON object"]);
        return;
      }
    }
    setDataErr(undefined);
    create.mutate({
      workflow: String(f.get("workflow") ?? ""),
      cron,
      timezone: tz,
      sendTo: { ...(recipients.length ? { recipients } : {}), ...(topics.length ? { topics } : {}) },
      ...(d !== undefined ? { data: d } : {}),
    });
  };
  const wfId = useId();
  return (
    <form onSubmit={submit} aria-label="New recurring schedule" className="subform" style={{ marginTop: 16, maxWidth: 560 }}>
      <h3>New recurring schedule</h3>
      <div className="field">
        <label htmlFor={wfId}>Workflow</label>
        <select id={wfId} name="workflow" aria-invalid={fe.workflow ? true : undefined} aria-describedby={fe.workflow ? `${wfId}-err` : undefined}>
          {published.map((w) => (
            <option key={w.identifier} value={w.identifier}>
              {w.name} ({w.identifier})
            </option>
          ))}
        </select>
        {workflows.isPending && <p className="hint">Loading the workflows…</p>}
        {workflows.isError && <p className="field-error">Could not load the workflows: {(workflows.error as Error).message}</p>}
        {workflows.data && published.length === 0 && <p className="hint">No published workflow yet: publish one in Workflows first.</p>}
        {fe.workflow && (
          <p className="field-error" id={`${wfId}-err`} role="alert">
            {fe.workflow.join(". ")}
          </p>
        )}
      </div>
      <Field
        label="Cron expression"
        name="cron"
        value={cron}
        onChange={(e) => (setCron(e.target.value), create.reset())}
        errors={fe.cron ?? (preview && "error" in preview && preview.field === "cron" && cron.trim() ? [preview.error] : undefined)}
        hint="minute hour day-of-month month day-of-week, e.g. 0 9 * * MON-FRI"
        spellCheck={false}
        autoComplete="off"
      />
      <Field label="Time zone" name="timezone" value={tz} onChange={(e) => (setTz(e.target.value), create.reset())} errors={fe.timezone ?? (preview && "error" in preview && preview.field === "timezone" ? [preview.error] : undefined)} hint="an IANA name such as Europe/Berlin" autoComplete="off" />
      {preview && "next" in preview && (
        <div className="notice" aria-label="Schedule preview" role="group">
          <p style={{ margin: 0 }}>
            <strong>{preview.words}</strong> ({tz})
          </p>
          <p className="small" style={{ margin: "4px 0 0" }}>Next five runs:</p>
          <ol className="small" aria-label="Next five runs">
            {preview.next.map((d) => (
              <li key={d.toISOString()}>{inZone(d, tz)}</li>
            ))}
          </ol>
        </div>
      )}
      <Field label="Recipients" name="recipients" errors={fe.sendTo} hint="user identifiers, separated by commas" autoComplete="off" />
      <Field label="Topics" name="topics" hint="topic identifiers, separated by commas" autoComplete="off" />
      <Field label="Data (JSON, optional)" name="data" errors={dataErr ?? fe.data} placeholder='{"kind": "daily"}' autoComplete="off" spellCheck={false} />
      <FormError errors={fe[""]} />
      <Button type="submit" busy={create.isPending}>
        Create schedule
      </Button>
    </form>
  );
}
