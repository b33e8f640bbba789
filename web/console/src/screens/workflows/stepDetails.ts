// What the run timeline shows of one recorded step besides its outcome (pure;
// test/unit/workflowStepDetails.test.ts): the input it saw, a branch's comparisons, what
// released a waitForRead, and the message a channel step rendered with the provider's answer
// (WorkflowRunStep in api/v1/openapi.json).
import type { components } from "../../api/client";

export type StepRecord = components["schemas"]["WorkflowRunStep"];
export type Comparison = NonNullable<NonNullable<components["schemas"]["WorkflowStepEvaluation"]["branch"]>["conditions"][number]["comparisons"]>[number];
export type Wait = NonNullable<components["schemas"]["WorkflowStepEvaluation"]["wait"]>;

/** hasDetails: the step recorded anything to show when expanded. */
export const hasDetails = (s: StepRecord) => Boolean(s.input || s.evaluation || s.message);

const show = (v: unknown) => (v === undefined ? "(missing)" : JSON.stringify(v));

/** comparisonText reads one leaf of a condition with the value it found: `data.total (120) gt 100 → true`. */
export function comparisonText(c: Comparison): string {
  const result = c.result ? "true" : "false";
  const not = c.negated ? "not " : "";
  if (c.step) {
    const st = c.state;
    const known = st ? Object.entries(st).filter(([, v]) => v).map(([k]) => k).join(", ") || "no state yet" : "unknown";
    return `${not}${c.step} is ${c.is ?? ""} (known: ${known}) → ${result}`;
  }
  const actual = c.found ? show(c.actual) : "missing";
  const value = c.value === undefined ? "" : ` ${show(c.value)}`;
  return `${not}${c.field ?? ""} (${actual}) ${c.op ?? ""}${value} → ${result}`;
}

const released: Record<Wait["released"], string> = {
  inboxEvent: "released by an inbox event",
  alreadyInState: "the notification was already in that state",
  stateAtTimeout: "no event came; the state read at the timeout had it",
  timedOut: "timed out",
  noNotification: "the step it waits on wrote no notification",
};

/** waitText reads what released a waitForRead: `read at 10:02:03: released by an inbox event`. */
export function waitText(w: Wait, time: (iso: string) => string): string {
  const how = released[w.released] ?? w.released;
  if (w.released === "timedOut" || w.released === "noNotification") return `${how} at ${time(w.at)} (waited for ${w.state} of ${w.step}, timeout ${w.timeout})`;
  return `${w.state} at ${time(w.at)}: ${how}`;
}

/** emailDocument is an email's HTML for a sandboxed frame (sandbox="", no scripts) under a
 * policy that loads nothing from outside (no tracking pixel fires when it is looked at). */
export function emailDocument(html: string): string {
  const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:">`;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (h) => h + csp) : csp + html;
}
