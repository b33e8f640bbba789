// A cron expression in words and its next run times, for the recurring schedule form.
// cron-parser (next times in a time zone) and cronstrue (words) load only when the
// schedules screen first describes an expression.

export type CronPreview = { words: string; next: Date[] } | { error: string; field: "cron" | "timezone" };

/** describeCron explains a 5-field cron expression and lists its next `count` runs in tz. */
export async function describeCron(expr: string, tz: string, count = 5, from = new Date()): Promise<CronPreview> {
  const e = expr.trim();
  if (e.split(/\s+/).length !== 5) return { error: "cron must have 5 fields (minute hour day-of-month month day-of-week)", field: "cron" };
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: tz || "UTC" });
  } catch {
    return { error: `unknown time zone "${tz}" (use an IANA name such as Europe/Berlin)`, field: "timezone" };
  }
  const [{ CronExpressionParser }, cronstrue] = await Promise.all([import("cron-parser"), import("cronstrue")]);
  try {
    const it = CronExpressionParser.parse(e, { tz: tz || "UTC", currentDate: from });
    const next = it.take(count).map((d) => d.toDate());
    const words = cronstrue.default.toString(e, { use24HourTimeFormat: true, verbose: false });
    return { words, next };
  } catch (err) {
    return { error: err instanceof Error ? err.message : String(err), field: "cron" };
  }
}

/** inZone formats an instant as a wall-clock time of tz (falls back to UTC). */
export function inZone(d: Date, tz: string): string {
  try {
    return d.toLocaleString(undefined, { timeZone: tz || "UTC", weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  } catch {
    return d.toISOString();
  }
}
