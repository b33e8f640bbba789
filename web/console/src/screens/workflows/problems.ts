// What the server said about a draft, kept with the draft it was said about (pure: unit-tested
// in test/unit/workflowProblems.test.ts). A report is shown only while the draft on screen is
// the one that was sent and the stored draft is the one that was stored then: typing a fixed
// value back, undoing, opening a version or saving something else makes it stale, and a stale
// report is never shown, counted or used to offer or refuse Publish.
import { ApiError } from "../../api/errors";
import { problemsByStep, type Definition } from "./graph";

/** Report is the server's answer to one attempt to save or publish a draft. */
export type Report = {
  /** draft: the draft that was sent (its pretty JSON). */
  draft: string;
  /** saved: the stored draft at the time (its pretty JSON). */
  saved: string;
  /** byStep: a 400's problems by the step they name ("" for the rest); empty otherwise. */
  byStep: Record<string, string[]>;
  /** message: the error of any other failure; "" for a 400. */
  message: string;
};

/** reportOf files a failed save or publish of def (whose pretty JSON is draft) under that draft. */
export function reportOf(err: unknown, def: Definition, draft: string, saved: string): Report {
  if (err instanceof ApiError && err.status === 400) return { draft, saved, byStep: problemsByStep(err.messages, def), message: "" };
  return { draft, saved, byStep: {}, message: err instanceof Error ? err.message : String(err) };
}

/** current is the report about the draft on screen, or undefined when there is none or it is stale. */
export function current(report: Report | undefined, draft: string, saved: string): Report | undefined {
  return report && report.draft === draft && report.saved === saved ? report : undefined;
}

/** problemCount is the number of problems a report lists (0 for none). */
export const problemCount = (r: Report | undefined) => (r ? Object.values(r.byStep).flat().length : 0);

/** banner is what the designer's error banner says about a report (nothing for none). */
export function banner(r: Report | undefined): string[] {
  if (!r) return [];
  const n = problemCount(r);
  if (!n) return [r.message];
  return [`The draft has ${n} problem${n === 1 ? "" : "s"}: see the marked steps`, ...(r.byStep[""] ?? [])];
}
