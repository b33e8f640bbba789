// A line diff of two texts (pure; test/unit/workflowTimeline.test.ts): the version history
// compares two definitions as pretty JSON.

/** Line is one line of a diff: kept (" "), removed ("-") or added ("+"). */
export type Line = { op: " " | "-" | "+"; text: string };

/** diffLines is the shortest edit between two texts by lines (longest common subsequence). */
export function diffLines(a: string, b: string): Line[] {
  const x = a.split("\n");
  const y = b.split("\n");
  const n = x.length;
  const m = y.length;
  // lcs[i][j]: the longest common subsequence of x[i:] and y[j:].
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: Line[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) (out.push({ op: " ", text: x[i]! }), i++, j++);
    else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: "-", text: x[i++]! });
    else out.push({ op: "+", text: y[j++]! });
  }
  while (i < n) out.push({ op: "-", text: x[i++]! });
  while (j < m) out.push({ op: "+", text: y[j++]! });
  return out;
}

/** pretty is the JSON form the diff and the JSON view use. */
export const pretty = (v: unknown) => JSON.stringify(v, null, 2);

const first = ["id", "type", "start", "steps"];

/**
 * canonical orders every object's keys (id, type, start, steps first, then by name) so two
 * definitions differ in the diff only where their content does: the API stores them as
 * jsonb, which keeps its own key order.
 */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (!v || typeof v !== "object") return v;
  const rank = (k: string) => (first.includes(k) ? first.indexOf(k) : first.length);
  const keys = Object.keys(v).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
}
