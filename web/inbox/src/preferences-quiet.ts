// The quiet hours and time zone of the preferences panel (src/preferences-panel.ts, in the
// same lazily loaded chunk): a form for the daily window and the quiet days (PUT
// /v3/preferences/quiet-hours), and a time zone select saved on change (PATCH /v3/profile,
// the profile key timezone). Both are optimistic: the summary shows the change at once and
// goes back to what Herald stored when Herald refuses it; the refusal's problems are shown
// next to the fields they name.
import { html, nothing, type TemplateResult } from "lit";
import type { components } from "./api.gen.js";
import type { HeraldClient } from "./client.js";
import { panelStrings } from "./preferences-strings.js";

export type QuietHours = components["schemas"]["QuietHours"];
type Day = NonNullable<QuietHours["days"]>[number];

/** The days in the order a week shows them (Monday first), as the API names them. */
export const days: Day[] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

/** Errors by field: start, end, window (both ends), days, timezone, or "" for the form. */
export type FieldErrors = Record<string, string[]>;

/**
 * fieldErrors sorts a refusal's problems (the API's messages, joined by "; ") by the field
 * they name: "start and end go together…" is the window's (both ends).
 */
export function fieldErrors(message: string): FieldErrors {
  const out: FieldErrors = {};
  for (const m of message.split("; ").filter(Boolean)) {
    const k = /^start and end/.test(m) ? "window" : (/^(start|end|days)\b/.exec(m)?.[1] ?? (/timezone/.test(m) ? "timezone" : ""));
    (out[k] ??= []).push(m);
  }
  return out;
}

/** dayName is a day in the user's language ("Saturday"). */
function dayName(d: Day, locale: string): string {
  // 2023-01-02 was a Monday.
  return new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" }).format(Date.UTC(2023, 0, 2 + days.indexOf(d)));
}

/** zones are the IANA time zones the browser knows, with the user's own first when missing. */
function zones(current: string): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const all = intl.supportedValuesOf?.("timeZone") ?? [];
  const list = all.includes("UTC") ? all : ["UTC", ...all];
  return list.includes(current) ? list : [current, ...list];
}

/** The form's inputs, as the user left them. */
type Draft = { enabled: boolean; start: string; end: string; days: Day[] };

const draftOf = (q: QuietHours): Draft => ({ enabled: q.enabled, start: q.start ?? "", end: q.end ?? "", days: [...(q.days ?? [])] });

/** The quiet hours and time zone part of the panel. */
export class QuietHoursForm {
  quiet?: QuietHours;
  private draft: Draft = { enabled: false, start: "", end: "", days: [] };
  private errors: FieldErrors = {};
  private saved = "";

  constructor(
    private client: () => HeraldClient | undefined,
    private update: () => void,
    private locale: () => string,
  ) {}

  /** set takes what Herald stored (loading, or after a save). */
  set(q: QuietHours): void {
    this.quiet = q;
    this.draft = draftOf(q);
    this.errors = {};
  }

  private async save(e: Event): Promise<void> {
    e.preventDefault();
    const before = this.quiet!;
    const d = this.draft;
    const body: components["schemas"]["QuietHoursUpdate"] = !d.enabled
      ? { enabled: false }
      : { ...(d.start || d.end ? { start: d.start, end: d.end } : {}), days: d.days };
    // Optimistic: the summary says what was asked for until Herald answers.
    this.quiet = { ...before, enabled: d.enabled, start: d.enabled ? d.start || undefined : undefined, end: d.enabled ? d.end || undefined : undefined, days: d.enabled ? d.days : [] };
    this.errors = {};
    this.saved = "";
    this.update();
    try {
      this.set(await this.client()!.request<QuietHours>("PUT", "/preferences/quiet-hours", body));
      this.saved = panelStrings(this.locale()).saved;
    } catch (err) {
      this.quiet = before;
      this.errors = fieldErrors(err instanceof Error ? err.message : String(err));
    }
    this.update();
  }

  private async setZone(zone: string, select: HTMLSelectElement): Promise<void> {
    const before = this.quiet!;
    this.quiet = { ...before, timezone: zone };
    delete this.errors.timezone;
    this.saved = "";
    this.update();
    try {
      await this.client()!.request("PATCH", "/profile", { timezone: zone });
      this.saved = panelStrings(this.locale()).zoneSaved;
    } catch (err) {
      this.quiet = before;
      select.value = before.timezone;
      this.errors = { ...this.errors, timezone: fieldErrors(err instanceof Error ? err.message : String(err)).timezone ?? [String(err)] };
    }
    this.update();
  }

  /** summary is what Herald holds (or is being asked to hold) in one line. */
  private summary(): string {
    const q = this.quiet!;
    const ps = panelStrings(this.locale());
    if (!q.enabled) return ps.noQuiet;
    const window = q.start && q.end ? `${q.start}–${q.end}` : "";
    return ps.quietSummary(window, (q.days ?? []).map((d) => dayName(d, this.locale())).join(", "), q.timezone);
  }

  render(): TemplateResult {
    const q = this.quiet;
    if (!q) return html``;
    const d = this.draft;
    const ps = panelStrings(this.locale());
    const err = (k: string) =>
      this.errors[k]?.length ? html`<p class="error" id=${`qh-${k || "form"}-err`} role="alert">${this.errors[k]!.join(" ")}</p>` : nothing;
    const described = (...ks: string[]) => ks.filter((k) => this.errors[k]?.length).map((k) => `qh-${k}-err`).join(" ") || undefined;
    const input = (k: "start" | "end", label: string) => html`<label class="field">
      <span>${label}</span>
      <input type="time" step=${/:\d\d:\d\d/.test(d[k]) ? 1 : 60} name=${k} .value=${d[k]} ?disabled=${!d.enabled} aria-invalid=${described(k, "window") ? "true" : "false"}
        aria-describedby=${described(k, "window") ?? nothing} @input=${(e: Event) => (d[k] = (e.target as HTMLInputElement).value)} />
    </label>`;
    return html`<form class="quiet" part="quiet-hours" @submit=${(e: Event) => this.save(e)} novalidate>
        <fieldset>
          <legend>${ps.quietHours}</legend>
          <p class="help">${ps.quietHelp}</p>
          <p class="summary" role="status">${this.summary()}</p>
          <label class="switch"><span>${ps.useQuiet}</span>
            <input type="checkbox" role="switch" aria-label=${ps.useQuiet} .checked=${d.enabled}
              @change=${(e: Event) => ((d.enabled = (e.target as HTMLInputElement).checked), this.update())} />
          </label>
          <div class="window">${input("start", ps.from)}${input("end", ps.until)}</div>
          ${err("start")}${err("end")}${err("window")}
          <fieldset class="days" aria-describedby=${described("days") ?? nothing}>
            <legend>${ps.quietDays}</legend>
            ${days.map(
              (day) => html`<label class="day"><input type="checkbox" name="days" value=${day} .checked=${d.days.includes(day)} ?disabled=${!d.enabled}
                  @change=${(e: Event) => {
                    d.days = (e.target as HTMLInputElement).checked ? [...d.days, day] : d.days.filter((x) => x !== day);
                  }} /><span>${dayName(day, this.locale())}</span></label>`,
            )}
          </fieldset>
          ${err("days")}${err("")}
          <button type="submit" class="save">${ps.save}</button>
        </fieldset>
      </form>
      <fieldset class="zone" part="timezone">
        <legend>${ps.zone}</legend>
        <label class="field"><span>${ps.yourZone}</span>
          <select name="timezone" aria-invalid=${this.errors.timezone ? "true" : "false"} aria-describedby=${described("timezone") ?? "qh-zone-help"}
            @change=${(e: Event) => this.setZone((e.target as HTMLSelectElement).value, e.target as HTMLSelectElement)}>
            ${zones(q.timezone).map((z) => html`<option value=${z} ?selected=${z === q.timezone}>${z.replaceAll("_", " ")}</option>`)}
          </select>
        </label>
        <p class="help" id="qh-zone-help">${ps.zoneHelp}</p>
        ${err("timezone")}
      </fieldset>
      ${this.saved ? html`<p class="saved" role="status">${this.saved}</p>` : nothing}`;
  }
}
