// The timeline of a test run as the designer shows it (pure; test/unit/workflowTimeline.test.ts):
// the steps a run recorded, and, while it runs, the step it is on now, with the time left
// when that step is a delay of a fixed duration.
import { startOf, type Definition, type Step } from "./graph";

/** RecordedStep is one step outcome of a run (WorkflowRunTimeline.runs[].steps[]). */
export type RecordedStep = { stepId: string; stepType: string; outcome: string; detail: string; createdAt: string };
/** RunView is one recipient's run (WorkflowRunTimeline.runs[]). */
export type RunView = { userIdentifier: string; status: string; startedAt: string; finishedAt?: string | null; steps: RecordedStep[] };

/** Now is the step a running run is on: its id and, for a fixed delay, when it ends. */
export type Now = { step: Step; since: number; endsAt?: number };

/** nextAfter is the step a recorded outcome leads to ("" ends the run). */
export function nextAfter(step: Step, rec: RecordedStep): string {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  switch (step.type) {
    case "branch": {
      // detail: "condition 0 → mail" or "else → end"
      // ("end" when no step follows; a step may also be called end: the caller looks it up).
      return /→\s*(.*)$/.exec(rec.detail)?.[1]?.trim() ?? "";
    }
    case "waitForRead":
      return rec.detail === "timed out" ? str(step.timeoutNext) : str(step.next);
    case "fetch":
      return rec.outcome === "failed" ? str(step.onError) : str(step.next);
    case "digest":
    case "throttle":
      return rec.outcome === "digested" || rec.outcome === "throttled" ? "" : str(step.next);
    default:
      return str(step.next);
  }
}

/** durationMs reads a workflow duration (90s, 15m, 2h, 1d12h, 1.5s) in milliseconds, or undefined. */
export function durationMs(d: unknown): number | undefined {
  if (typeof d !== "string" || !/^\s*(\d+(\.\d+)?(d|h|ms|m|s|us|µs|ns)\s*)+$/.test(d)) return undefined;
  const unit: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };
  let total = 0;
  for (const m of d.matchAll(/(\d+(?:\.\d+)?)(d|h|ms|m|s|us|µs|ns)/g)) total += Number(m[1]) * unit[m[2]!]!;
  return total;
}

/**
 * current is the step a running run is on: after the last recorded step, its way out
 * (the branch taken, the wait's outcome), or the start step before any. Undefined when
 * the run finished or the definition does not know the step.
 */
export function current(run: RunView, def: Definition): Now | undefined {
  if (run.status !== "running") return undefined;
  const byId = new Map(def.steps.map((s) => [s.id, s]));
  const last = run.steps[run.steps.length - 1];
  let id: string;
  let since: number;
  if (!last) {
    id = startOf(def);
    since = Date.parse(run.startedAt);
  } else {
    const s = byId.get(last.stepId);
    if (!s) return undefined;
    id = nextAfter(s, last);
    since = Date.parse(last.createdAt);
  }
  const step = byId.get(id);
  if (!step) return undefined;
  const ms = step.type === "delay" ? durationMs(step.duration) : undefined;
  return { step, since, ...(ms !== undefined ? { endsAt: since + ms } : {}) };
}

/** remaining is the whole seconds left until endsAt (never below 0). */
export const remaining = (endsAt: number, now: number) => Math.max(0, Math.ceil((endsAt - now) / 1000));

/** finished: every run of the request ended (and there is at least one). */
export const finished = (runs: RunView[]) => runs.length > 0 && runs.every((r) => r.status !== "running");
