// A test run of the published version: send the workflow to one user with some data, then
// follow each run step by step (polling its timeline): the steps done, the one in progress
// with a delay's time left, the branch taken, each delivery's outcome.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { fieldErrors } from "../../api/client";
import { Button, ErrorState, Field, FormError, Loading } from "../../ui/kit";
import type { Definition } from "./graph";
import { cancelledText, running } from "./manage";
import { StepRow } from "./StepDetails";
import type { StepRecord } from "./stepDetails";
import { sampleFromSchema, type JsonSchema } from "./payloadSchema";
import { current, finished, remaining, type RunView } from "./timeline";
import { keys } from "../../api/keys";
import { useUserPicker, useVersions, workflowsApi } from "./api";

export function TestRun({
  appId,
  identifier,
  published,
  dirty,
  payloadSchema,
}: {
  appId: number;
  identifier: string;
  published: number | null;
  dirty: boolean;
  payloadSchema?: JsonSchema | null;
}) {
  const [user, setUser] = useState("");
  const [email, setEmail] = useState("");
  // Sample data made from the payload schema, until the user writes their own.
  const sample = payloadSchema ? JSON.stringify(sampleFromSchema(payloadSchema), null, 2) : "{}";
  const [dataText, setDataText] = useState(sample);
  const [touched, setTouched] = useState(false);
  useEffect(() => {
    if (!touched) setDataText(sample);
  }, [sample, touched]);
  const [dataError, setDataError] = useState("");
  const [requestId, setRequestId] = useState<string | null>(null);
  const users = useUserPicker(appId);
  const send = useMutation({
    mutationFn: (payload: Record<string, unknown>) =>
      workflowsApi.send(appId, {
        notification: { workflow: { identifier } },
        sendTo: { recipients: [email.trim() ? { identifier: user.trim(), email: email.trim() } : user.trim()] },
        data: payload,
      }),
    onSuccess: (res) => setRequestId((res as { requestId?: string }).requestId ?? null),
  });
  const errs = fieldErrors(send.error, ["sendTo", "data", "notification"]);
  const known = ((users.data as { data?: { identifier?: string }[] } | undefined)?.data ?? []).map((u) => u.identifier ?? "");
  return (
    <div className="test-run">
      <form
        className="card"
        aria-label="Test run"
        onSubmit={(e) => {
          e.preventDefault();
          let payload: Record<string, unknown>;
          try {
            payload = JSON.parse(dataText || "{}");
            if (!payload || typeof payload !== "object" || Array.isArray(payload)) throw new Error();
          } catch {
            return setDataError("data must be a JSON object");
          }
          setDataError("");
          setRequestId(null);
          send.mutate(payload);
        }}
      >
        {published === null ? (
          <p className="notice">Publish the workflow first: a test run sends the published version.</p>
        ) : dirty ? (
          <p className="notice">The draft has changes that are not published: the test run sends v{published}.</p>
        ) : (
          <p className="muted">Sends v{published} to one user, as your backend would.</p>
        )}
        <Field label="User identifier" value={user} onChange={(e) => setUser(e.target.value)} list="test-run-users" required hint="an existing user, or a new one the send creates" errors={errs.sendTo} />
        <datalist id="test-run-users">
          {known.map((u) => <option key={u} value={u} />)}
        </datalist>
        <Field label="Email address (optional)" type="email" value={email} onChange={(e) => setEmail(e.target.value)} hint="sets the user's email address for this send" />
        <div className="field">
          <label htmlFor="test-run-data">Data (JSON)</label>
          {payloadSchema && <p className="muted small">Prefilled with sample data made from the payload schema.</p>}
          <textarea id="test-run-data" className="mono" rows={payloadSchema ? 8 : 4} value={dataText} onChange={(e) => (setDataText(e.target.value), setTouched(true))} aria-invalid={dataError || errs.data ? true : undefined} />
          {(dataError || errs.data) && <p className="field-error" role="alert">{dataError || errs.data?.join(". ")}</p>}
        </div>
        <FormError errors={[...(errs[""] ?? []), ...(errs.notification ?? [])]} />
        <Button type="submit" busy={send.isPending} disabled={published === null || !user.trim()}>
          Start test run
        </Button>
      </form>
      {requestId && <Timeline appId={appId} identifier={identifier} requestId={requestId} />}
    </div>
  );
}

function Timeline({ appId, identifier, requestId }: { appId: number; identifier: string; requestId: string }) {
  const run = useQuery({
    queryKey: keys.workflows.run(appId, identifier, requestId),
    queryFn: () => workflowsApi.run({ appId, identifier, requestId }),
    refetchInterval: (q) => (q.state.data && finished(q.state.data.runs as RunView[]) ? false : 1000),
  });
  // The definition the runs follow: the published version they recorded.
  const versions = useVersions(appId, identifier);
  const qc = useQueryClient();
  // Cancel stops every recipient's running run of this request (as /v3's cancel by key).
  const cancel = useMutation({
    mutationFn: () => workflowsApi.cancelRun({ appId, identifier, requestId }),
    onSettled: () => qc.invalidateQueries({ queryKey: keys.workflows.run(appId, identifier, requestId) }),
  });
  const [now, setNow] = useState(() => Date.now());
  const done = run.data ? finished(run.data.runs as RunView[]) : false;
  useEffect(() => {
    if (done) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [done]);
  if (run.isError) return <ErrorState error={run.error} retry={() => run.refetch()} />;
  if (!run.data) return <Loading label="Starting the run" />;
  const runs = run.data.runs as (RunView & { workflowId: string; temporalUrl?: string })[];
  return (
    <section className="card" aria-label="Run timeline">
      <h2>Timeline</h2>
      <p className="muted small">
        Request <code>{requestId}</code>
      </p>
      {running(runs) > 0 && (
        <div className="toolbar">
          <Button variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel run
          </Button>
          <FormError errors={cancel.error ? [(cancel.error as Error).message] : undefined} />
        </div>
      )}
      {cancel.data && <p role="status">{cancelledText(cancel.data)}</p>}
      {runs.length === 0 && <Loading label="Waiting for the send to reach the user" />}
      {runs.map((r) => {
        const version = r.steps[0] ? (r.steps[0] as { version?: number }).version : undefined;
        const def = (versions.data?.find((v) => v.version === version) ?? versions.data?.[0])?.definition as Definition | undefined;
        const at = def ? current(r, def) : undefined;
        return (
          <div key={r.workflowId} className="run">
            <h3>
              {r.userIdentifier} <span className={`badge badge-${r.status === "completed" ? "ok" : r.status}`} aria-label={`Run status: ${r.status}`}>{r.status}</span>
              {r.temporalUrl && (
                <>
                  {" "}
                  <a href={r.temporalUrl} target="_blank" rel="noreferrer">
                    Open in Temporal
                  </a>
                </>
              )}
            </h3>
            <ol className="timeline" aria-label={`Steps of ${r.userIdentifier}'s run`}>
              {(r.steps as StepRecord[]).map((s, i) => (
                <StepRow key={i} step={s} user={r.userIdentifier} />
              ))}
              {at && (
                <li className="timeline-step current" aria-current="step">
                  <strong>{at.step.id}</strong> <span className="muted">({at.step.type})</span>{" "}
                  {at.endsAt !== undefined ? <span role="timer">waiting, {remaining(at.endsAt, now)} s left</span> : <span>in progress…</span>}
                </li>
              )}
            </ol>
          </div>
        );
      })}
      {done && <p role="status">All runs finished.</p>}
    </section>
  );
}
