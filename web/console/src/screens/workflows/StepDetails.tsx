// One recorded step of a run, as the test-run timeline and a request's page show it: a row
// with its time, id, type, outcome and detail that expands to what the step saw (its input),
// what it sent (the email in a sandboxed frame, the in-app card, the SMS text), the
// provider's answer, a branch's comparisons and what released a waitForRead.
import { useState, type ReactNode } from "react";
import "./stepDetails.css";
import { comparisonText, emailDocument, hasDetails, waitText, type StepRecord } from "./stepDetails";

const time = (s?: string | null) => (s ? new Date(s).toLocaleTimeString() : "");

export function StepRow({ step: s, user }: { step: StepRecord; user: string }) {
  const [open, setOpen] = useState(false);
  const id = `step-${user}-${s.stepId}-${s.createdAt}`.replace(/[^A-Za-z0-9_-]/g, "_");
  return (
    <li className={`timeline-step outcome-${s.outcome}`}>
      <span className="timeline-time">{time(s.createdAt)}</span> <strong>{s.stepId}</strong> <span className="muted">({s.stepType})</span>{" "}
      <span className={`badge badge-${s.outcome}`}>{s.outcome}</span> {s.detail && <span className="muted">{s.detail}</span>}{" "}
      <button type="button" className="link-button small" aria-expanded={open} aria-controls={id} onClick={() => setOpen(!open)} aria-label={`Details of step ${s.stepId}`}>
        {open ? "Hide details" : "Details"}
      </button>
      {open && (
        <div id={id} className="step-details" role="region" aria-label={`Step ${s.stepId} details`}>
          {hasDetails(s) ? <Details step={s} /> : <p className="muted small">Nothing more was recorded for this step (runs record their input and content since this version of Herald).</p>}
        </div>
      )}
    </li>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="step-section" aria-label={title}>
      <h4>{title}</h4>
      {children}
    </section>
  );
}

function Details({ step: s }: { step: StepRecord }) {
  const branch = s.evaluation?.branch;
  const wait = s.evaluation?.wait;
  const m = s.message;
  const c = m?.content;
  return (
    <>
      {branch && (
        <Section title="Branch evaluation">
          <p>
            {branch.matched >= 0 ? (
              <>
                Condition {branch.matched} matched → <strong>{branch.next}</strong>
              </>
            ) : (
              <>
                No condition matched: else → <strong>{branch.next}</strong>
              </>
            )}
          </p>
          <ol className="small" aria-label="Conditions evaluated">
            {branch.conditions.map((cond) => (
              <li key={cond.index}>
                Condition {cond.index} (→ {cond.next}): <span className={`badge badge-${cond.result ? "ok" : "failed"}`}>{cond.result ? "matched" : "not matched"}</span>
                <ul>
                  {cond.comparisons.map((cmp, i) => (
                    <li key={i} className="mono">
                      {comparisonText(cmp)}
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </Section>
      )}
      {wait && (
        <Section title="Wait">
          <p>{waitText(wait, time)}</p>
        </Section>
      )}
      {m && (
        <Section title="Sent content">
          {!c ? (
            <p className="muted small">Nothing was rendered{m.reason ? `: ${m.reason}` : ""}.</p>
          ) : (
            <>
              {c.to && (
                <p className="small">
                  To <code>{c.to}</code>
                </p>
              )}
              {c.subject && (
                <p>
                  Subject: <strong>{c.subject}</strong>
                </p>
              )}
              {c.html ? (
                <iframe title={`Email sent by step ${s.stepId}`} sandbox="" srcDoc={emailDocument(c.html)} className="email-frame" />
              ) : null}
              {m.channel === "inApp" ? (
                <div className="inapp-card" role="group" aria-label={`In-app card of step ${s.stepId}`}>
                  {c.title && <strong>{c.title}</strong>}
                  {c.body && <p>{c.body}</p>}
                  {c.url && <p className="small muted">opens {c.url}</p>}
                </div>
              ) : (
                !c.html && (c.body || c.text) && <pre className="mono sent-text" aria-label={`Text sent by step ${s.stepId}`}>{c.body || c.text}</pre>
              )}
              {c.truncated && <p className="notice small">The content was larger than 256 KB and is shown cut.</p>}
            </>
          )}
        </Section>
      )}
      {m && (
        <Section title={m.channel === "inApp" ? "Delivery" : "Provider answer"}>
          <dl className="small step-answer">
            <dt>Status</dt>
            <dd>
              <span className={`badge badge-${m.status}`}>{m.status}</span>
            </dd>
            <dt>Provider</dt>
            <dd>{m.providerIdentifier ?? "—"}</dd>
            <dt>Provider message id</dt>
            <dd>{m.providerMessageId ? <code>{m.providerMessageId}</code> : "—"}</dd>
            {m.error && (
              <>
                <dt>Error</dt>
                <dd>{m.error}</dd>
              </>
            )}
            {m.reason && (
              <>
                <dt>Reason</dt>
                <dd>{m.reason}</dd>
              </>
            )}
            {m.providerResponse && (
              <>
                <dt>Response</dt>
                <dd>
                  <code className="wrap">{m.providerResponse}</code>
                </dd>
              </>
            )}
          </dl>
        </Section>
      )}
      {s.input && (
        <Section title="Input">
          <p className="small">
            Recipient <code>{s.input.recipient.identifier}</code>
            {s.input.truncated && " · the data was larger than 64 KB and is not shown"}
          </p>
          <pre className="mono step-input" aria-label={`Input of step ${s.stepId}`}>
            {JSON.stringify(s.input.batch ? { data: s.input.data, batch: s.input.batch } : s.input.data, null, 2)}
          </pre>
        </Section>
      )}
    </>
  );
}
