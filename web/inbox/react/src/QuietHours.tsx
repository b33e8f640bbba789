// The quiet hours and time zone of the preferences view (PreferencesPanel.tsx, in the same
// lazily loaded chunk), as the widget's src/preferences-quiet.ts: a form for the daily window
// and the quiet days (usePreferences' setQuietHours), and a time zone select saved on change
// (setTimezone). Both are optimistic (the summary shows the change at once and goes back to
// what Herald holds when refused); a refusal's problems are shown next to the fields they name.
import { useId, useState } from "react";
import type { QuietHours as Quiet, QuietHoursUpdate } from "@heraldhq/inbox/client";
import { panelStrings } from "@heraldhq/inbox/preferences-strings";

const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

type Day = NonNullable<Quiet["days"]>[number];
/** The days in the order a week shows them (Monday first), as the API names them. */
const days: Day[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** Errors by field: start, end, window (both ends), days, timezone, or "" for the form. */
export type FieldErrors = Record<string, string[]>;

/** fieldErrors sorts a refusal's problems (joined by "; ") by the field they name. */
export function fieldErrors(message: string): FieldErrors {
  const out: FieldErrors = {};
  for (const m of message.split("; ").filter(Boolean)) {
    const k = /^start and end/.test(m) ? "window" : (/^(start|end|days)\b/.exec(m)?.[1] ?? (/timezone/.test(m) ? "timezone" : ""));
    (out[k] ??= []).push(m);
  }
  return out;
}

const dayName = (d: Day, locale: string) => new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2023, 0, 2 + days.indexOf(d)));

/** The IANA time zones the browser knows, with the user's own first when missing. */
function zones(current: string): string[] {
  const all = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  const list = all.includes("UTC") ? all : ["UTC", ...all];
  return list.includes(current) ? list : [current, ...list];
}

interface Draft {
  enabled: boolean;
  start: string;
  end: string;
  days: Day[];
}
const draftOf = (q: Quiet): Draft => ({ enabled: q.enabled, start: q.start ?? "", end: q.end ?? "", days: [...(q.days ?? [])] });

/** Props of QuietHours: what usePreferences holds and its setters. */
export interface QuietHoursProps {
  quiet: Quiet;
  locale: string;
  setQuietHours(update: QuietHoursUpdate): Promise<void>;
  setTimezone(timezone: string): Promise<void>;
}

export function QuietHours({ quiet: q, locale, setQuietHours, setTimezone }: QuietHoursProps) {
  const ps = panelStrings(locale);
  const id = useId();
  const [d, setDraft] = useState<Draft>(() => draftOf(q));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState("");
  // The draft is the user's: a refusal leaves it as typed (only the summary goes back).
  const set = (change: Partial<Draft>) => setDraft((x) => ({ ...x, ...change }));

  const save = async () => {
    const body: QuietHoursUpdate = !d.enabled ? { enabled: false } : { ...(d.start || d.end ? { start: d.start, end: d.end } : {}), days: d.days };
    setErrors({});
    setSaved("");
    try {
      await setQuietHours(body);
      setSaved(ps.saved);
    } catch (e) {
      setErrors(fieldErrors(why(e)));
    }
  };
  const setZone = async (zone: string) => {
    setErrors(({ timezone: _, ...rest }) => rest);
    setSaved("");
    try {
      await setTimezone(zone);
      setSaved(ps.zoneSaved);
    } catch (e) {
      setErrors((es) => ({ ...es, timezone: fieldErrors(why(e)).timezone ?? [why(e)] }));
    }
  };

  const errId = (k: string) => `${id}-${k || "form"}-err`;
  const err = (k: string) =>
    errors[k]?.length ? (
      <p className="herald-error" id={errId(k)} role="alert">
        {errors[k]!.join(" ")}
      </p>
    ) : null;
  const described = (...ks: string[]) => ks.filter((k) => errors[k]?.length).map(errId).join(" ") || undefined;
  const window = q.start && q.end ? `${q.start}–${q.end}` : "";
  const summary = q.enabled ? ps.quietSummary(window, (q.days ?? []).map((x) => dayName(x, locale)).join(", "), q.timezone) : ps.noQuiet;
  const time = (k: "start" | "end", label: string) => (
    <label className="herald-field">
      <span>{label}</span>
      <input type="time" step={/:\d\d:\d\d/.test(d[k]) ? 1 : 60} name={k} value={d[k]} disabled={!d.enabled} aria-invalid={!!described(k, "window")} aria-describedby={described(k, "window")} onChange={(e) => set({ [k]: e.currentTarget.value })} />
    </label>
  );

  return (
    <>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <fieldset>
          <legend>{ps.quietHours}</legend>
          <p className="herald-help">{ps.quietHelp}</p>
          <p className="herald-summary" role="status">
            {summary}
          </p>
          <label className="herald-switch">
            <span>{ps.useQuiet}</span>
            <input type="checkbox" role="switch" aria-label={ps.useQuiet} checked={d.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          </label>
          <div className="herald-window">
            {time("start", ps.from)}
            {time("end", ps.until)}
          </div>
          {err("start")}
          {err("end")}
          {err("window")}
          <fieldset className="herald-days" aria-describedby={described("days")}>
            <legend>{ps.quietDays}</legend>
            {days.map((day) => (
              <label className="herald-day" key={day}>
                <input type="checkbox" name="days" value={day} checked={d.days.includes(day)} disabled={!d.enabled} onChange={(e) => set({ days: e.currentTarget.checked ? [...d.days, day] : d.days.filter((x) => x !== day) })} />
                <span>{dayName(day, locale)}</span>
              </label>
            ))}
          </fieldset>
          {err("days")}
          {err("")}
          <button type="submit" className="herald-save">
            {ps.save}
          </button>
        </fieldset>
      </form>
      <fieldset>
        <legend>{ps.zone}</legend>
        <label className="herald-field">
          <span>{ps.yourZone}</span>
          <select name="timezone" value={q.timezone} aria-invalid={!!errors.timezone} aria-describedby={described("timezone") ?? `${id}-zone-help`} onChange={(e) => void setZone(e.currentTarget.value)}>
            {zones(q.timezone).map((z) => (
              <option key={z} value={z}>
                {z.replaceAll("_", " ")}
              </option>
            ))}
          </select>
        </label>
        <p className="herald-help" id={`${id}-zone-help`}>
          {ps.zoneHelp}
        </p>
        {err("timezone")}
      </fieldset>
      {saved && (
        <p className="herald-saved" role="status">
          {saved}
        </p>
      )}
    </>
  );
}
