// The preferences view of <Inbox/>, loaded on demand (React.lazy in Inbox.tsx: its own chunk,
// fetched the first time the user opens the preferences): the widget's panel
// (web/inbox/src/preferences-panel.ts) in React. The topics (category × channel switches),
// the notifications (a switch per workflow and per channel of it), the channels as a whole,
// and the quiet hours and time zone (QuietHours.tsx). Critical categories and workflows show
// locked, with the reason Herald gives (lockedReason), read with the switch. Every switch
// uses usePreferences' optimistic setters: it moves at once and back on a refusal, with the
// reason next to it (role="alert"). Its stylesheet comes with it (the entry's stays small).
import { useState, type ReactNode } from "react";
import type { Channel, FlowPreference } from "@heraldhq/inbox/client";
import type { Strings } from "@heraldhq/inbox/i18n";
import { panelStrings } from "@heraldhq/inbox/preferences-strings";
import type { UsePreferencesResult } from "./hooks.js";
import { QuietHours } from "./QuietHours.js";

const css = `.herald-prefs{padding:0 16px 16px}
.herald-help{font-size:13px;color:var(--herald-muted);margin:0 0 12px}
.herald-prefs fieldset{border:1px solid var(--herald-border);border-radius:8px;margin:0 0 12px;padding:4px 12px 8px}
.herald-prefs legend{font-weight:600;font-size:14px;padding:0 4px}
.herald-topic legend{text-transform:capitalize}
.herald-switch{display:flex;align-items:center;justify-content:space-between;padding:6px 0;font-size:13px}
.herald-switch input{appearance:none;width:34px;height:20px;border-radius:10px;background:var(--herald-border);position:relative;cursor:pointer;margin:0;transition:background .15s}
.herald-switch input::after{content:"";position:absolute;top:2px;left:2px;width:16px;height:16px;border-radius:50%;background:#fff;transition:transform .15s}
.herald-switch input:checked{background:var(--herald-accent)}
.herald-switch input:checked::after{transform:translateX(14px)}
@media (prefers-reduced-motion:reduce){.herald-switch input,.herald-switch input::after{transition:none}}
.herald-prefs h3{font-size:14px;margin:16px 0 8px}
.herald-switch.herald-whole{font-weight:600}
.herald-vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.herald-locked{font-size:12px;color:var(--herald-muted);margin:2px 0 6px}
.herald-prefs .herald-error{font-size:12px;color:#b91c1c;margin:4px 0}
.herald-root[data-theme=dark] .herald-error{color:#fca5a5}
@media (prefers-color-scheme:dark){.herald-root[data-theme=auto] .herald-error{color:#fca5a5}}
.herald-summary,.herald-saved{font-size:13px;margin:0 0 8px}
.herald-window{display:flex;gap:12px}
.herald-field{display:flex;flex-direction:column;gap:4px;font-size:13px;margin:6px 0}
.herald-field input,.herald-field select{font:inherit;padding:4px 6px;border:1px solid var(--herald-border);border-radius:6px;background:var(--herald-bg);color:var(--herald-fg);color-scheme:light dark}
.herald-days{display:flex;flex-wrap:wrap;gap:4px 12px}
.herald-day{display:inline-flex;align-items:center;gap:4px;font-size:13px}
.herald-root .herald-save{font-size:13px;font-weight:600;margin-top:8px;padding:6px 12px;border-radius:6px;background:var(--herald-accent);color:var(--herald-bg)}
.herald-prefs input:disabled{cursor:not-allowed;opacity:.6}`;

/** The reason of a refusal (Herald's message, listing every problem). */
const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Props of a switch. */
interface SwitchProps {
  label: string;
  visible: string;
  on: boolean;
  /** The id of the locked reason: the switch is disabled, on, and described by it. */
  locked?: string;
  whole?: boolean;
  onChange(on: boolean): void;
}

function Switch({ label, visible, on, locked, whole, onChange }: SwitchProps) {
  return (
    <label className={whole ? "herald-switch herald-whole" : "herald-switch"}>
      <span>{visible}</span>
      <input type="checkbox" role="switch" aria-label={label} checked={on || !!locked} disabled={!!locked} aria-describedby={locked} onChange={(e) => onChange(e.currentTarget.checked)} />
    </label>
  );
}

/** Props of PreferencesPanel. */
export interface PreferencesPanelProps {
  t: Strings;
  locale: string;
  /** usePreferences, handed in by Inbox: importing it here would split it into a chunk of its own. */
  usePreferences(): UsePreferencesResult;
}

/** The preferences view (the popover's header stays Inbox's). */
export default function PreferencesPanel({ t, locale, usePreferences }: PreferencesPanelProps) {
  const p = usePreferences();
  const ps = panelStrings(locale);
  // A refused change's reason, by the group it belongs to.
  const [errors, setErrors] = useState<Record<string, string>>({});
  const name = (ch: string) => t.channels[ch] ?? ch;
  const run = (group: string, call: () => Promise<void>) => {
    setErrors(({ [group]: _, ...rest }) => rest);
    call().catch((e) => setErrors((es) => ({ ...es, [group]: ps.notSaved(why(e)) })));
  };
  const alert = (group: string) =>
    errors[group] ? (
      <p className="herald-error" role="alert">
        {errors[group]}
      </p>
    ) : null;

  let body: ReactNode;
  if (p.preferences === undefined && !p.error) {
    body = (
      <div className="herald-empty" role="status">
        {t.loading}
      </div>
    );
  } else if (p.error || !p.preferences) {
    body = (
      <div className="herald-empty" role="status">
        {t.loadFailed}{" "}
        <button className="herald-link" onClick={() => void p.reload()}>
          {t.retry}
        </button>
      </div>
    );
  } else {
    const prefs = p.preferences;
    /** The channels a workflow's switches offer: those of the topics, and any set for it. */
    const flowChannels = (f: FlowPreference) => {
      const cols = new Set<string>(Object.keys(f.channels ?? {}));
      for (const x of prefs) for (const c of x.channelPreferences) cols.add(c.channel);
      if (!cols.size) ["inApp", "email"].forEach((c) => cols.add(c));
      return Object.keys(t.channels).filter((c) => cols.has(c));
    };
    body = (
      <>
        <h3 id="herald-prefs-topics">{ps.topics}</h3>
        <div role="group" aria-labelledby="herald-prefs-topics">
          {prefs.length === 0 ? (
            <p className="herald-help">{t.noCategories}</p>
          ) : (
            prefs.map((x) => {
              const lock = x.critical ? `herald-locked-category-${x.category.id}` : undefined;
              const group = `category-${x.category.id}`;
              return (
                <fieldset key={x.category.id} className="herald-topic" aria-describedby={lock}>
                  <legend>{x.category.name}</legend>
                  {lock && (
                    <p className="herald-locked" id={lock}>
                      {x.lockedReason}
                    </p>
                  )}
                  {x.channelPreferences.map((c) => (
                    <Switch key={c.channel} label={`${x.category.name}: ${name(c.channel)}`} visible={name(c.channel)} on={c.enabled} locked={lock} onChange={(on) => run(group, () => p.setPreference(x.category.id, c.channel, on))} />
                  ))}
                  {alert(group)}
                </fieldset>
              );
            })
          )}
        </div>
        {!!p.workflows?.length && (
          <>
            <h3 id="herald-prefs-flows">{ps.flows}</h3>
            <p className="herald-help">{ps.flowsHelp}</p>
            <div role="group" aria-labelledby="herald-prefs-flows">
              {p.workflows.map((f) => {
                const id = f.workflow.identifier;
                const label = f.workflow.name || id;
                const lock = f.critical ? `herald-locked-workflow-${id}` : undefined;
                const group = `workflow-${id}`;
                const channels = (f.channels ?? {}) as Record<string, boolean>;
                return (
                  <fieldset key={id} aria-describedby={lock}>
                    <legend className="herald-vh">{label}</legend>
                    <Switch label={label} visible={label} on={f.enabled} locked={lock} whole onChange={(on) => run(group, () => p.setWorkflow(id, { enabled: on }))} />
                    {lock && (
                      <p className="herald-locked" id={lock}>
                        {f.lockedReason}
                      </p>
                    )}
                    {flowChannels(f).map((ch) => (
                      <Switch key={ch} label={`${label}: ${name(ch)}`} visible={name(ch)} on={channels[ch] ?? f.enabled} locked={lock} onChange={(on) => run(group, () => p.setWorkflow(id, { channels: { [ch as Channel]: on } }))} />
                    ))}
                    {alert(group)}
                  </fieldset>
                );
              })}
            </div>
          </>
        )}
        {p.channels && (
          <>
            <h3>{ps.channels}</h3>
            <fieldset>
              <legend>{ps.channelsLegend}</legend>
              <p className="herald-help">{ps.channelsHelp}</p>
              {Object.entries(p.channels).map(([ch, on]) => (
                <Switch key={ch} label={ps.allNotifications(name(ch))} visible={name(ch)} on={!!on} onChange={(v) => run("channels", () => p.setChannel(ch as Channel, v))} />
              ))}
              {alert("channels")}
            </fieldset>
          </>
        )}
        {p.quietHours && (
          <>
            <h3>{ps.quietAndZone}</h3>
            <QuietHours quiet={p.quietHours} locale={locale} setQuietHours={p.setQuietHours} setTimezone={p.setTimezone} />
          </>
        )}
      </>
    );
  }
  return (
    <div className="herald-list herald-prefs">
      <style data-herald-prefs="">{css}</style>
      <p className="herald-help">{t.prefsHelp}</p>
      {body}
    </div>
  );
}
