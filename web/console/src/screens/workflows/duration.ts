// A duration as an amount and a unit (pure: unit-tested in test/unit/workflowDuration.test.ts).
// WorkflowDuration takes Go durations plus d for days ("90s", "1d12h"); the form shows the
// common ones, one number and one unit, as an amount box and a unit menu, and still reads
// "8s" typed whole.

/** units are the units of the menu, as WorkflowDuration writes them. */
export const units = [
  { unit: "s", label: "seconds" },
  { unit: "m", label: "minutes" },
  { unit: "h", label: "hours" },
  { unit: "d", label: "days" },
] as const;

export type Unit = (typeof units)[number]["unit"];

/** splitDuration reads "8s" as 8 seconds; undefined for anything else ("1d12h", "soon", ""). */
export function splitDuration(v: unknown): { amount: string; unit: Unit } | undefined {
  if (typeof v !== "string") return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/.exec(v);
  return m ? { amount: m[1]!, unit: m[2] as Unit } : undefined;
}

/**
 * typed is the duration a text typed in the amount box stands for, with the unit of the menu:
 * a bare number takes that unit, "8s" is itself, anything else is kept as typed (the form's
 * check names it when it is not a duration); "" is unset.
 */
export function typed(text: string, unit: Unit): string {
  const t = text.trim();
  if (t === "") return "";
  if (/^\d+(\.\d+)?$/.test(t)) return `${t}${unit}`;
  const s = splitDuration(t);
  return s ? `${s.amount}${s.unit}` : text;
}
