// The snooze menu of an item of <Inbox/>, loaded on demand (React.lazy in Inbox.tsx: its own
// chunk, fetched the first time a user opens a snooze menu): the widget's presets (in 1
// hour, tomorrow morning, next week) and a custom time. A menu of menuitems: the first one
// takes the focus, arrow keys and Home/End move, Escape (and Tab) close it and give the focus
// back to the snooze button; "Custom time…" swaps in a date-time field and its Snooze button.
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { Notification } from "@heraldhq/inbox/client";
import type { Strings } from "@heraldhq/inbox/i18n";
import { localValue, menuKeyTarget, presets } from "@heraldhq/inbox/snooze-times";

/** The Strings key of each preset's label. */
const presetLabel = { hour: "snoozeHour", tomorrow: "snoozeTomorrow", week: "snoozeWeek" } as const;

export { presets, localValue };

const css = `.herald-snooze{margin:0 12px 12px 64px;padding:4px;border:1px solid var(--herald-border);border-radius:8px;background:var(--herald-bg);box-shadow:0 4px 12px rgba(0,0,0,.08)}
.herald-root .herald-snooze [role=menuitem]{display:flex;justify-content:space-between;gap:12px;width:100%;padding:6px 8px;border-radius:6px;font-size:13px;text-align:left}
.herald-root .herald-snooze [role=menuitem]:hover,.herald-root .herald-snooze [role=menuitem]:focus-visible{background:var(--herald-hover);outline:none}
.herald-snooze .herald-when{color:var(--herald-muted);font-size:12px}
.herald-snooze form{display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:6px 8px;font-size:13px}
.herald-snooze input{font:inherit;color:inherit;background:var(--herald-bg);border:1px solid var(--herald-border);border-radius:6px;padding:4px 6px;color-scheme:light dark}
.herald-root .herald-snooze .herald-go{background:var(--herald-accent);color:var(--herald-bg);border-radius:6px;padding:4px 10px;font-weight:600}
.herald-snooze .herald-error{color:#dc2626;font-size:12px;width:100%;margin:0}`;

/** Props of SnoozeMenu. */
export interface SnoozeMenuProps {
  notification: Notification;
  t: Strings;
  locale: string;
  /** Snoozes the item until at (the menu has closed). */
  onSnooze(at: Date): void;
  /** Closes the menu without snoozing (the focus goes back to the snooze button). */
  onClose(): void;
}

/** The snooze menu of one notification. */
export default function SnoozeMenu({ notification: n, t, locale, onSnooze, onClose }: SnoozeMenuProps) {
  const [custom, setCustom] = useState(false);
  const [error, setError] = useState("");
  const box = useRef<HTMLDivElement>(null);
  // The first menuitem, or the custom time's field, takes the focus.
  useEffect(() => {
    box.current?.querySelector<HTMLElement>(custom ? 'input[name="until"]' : '[role="menuitem"]')?.focus();
  }, [custom]);

  const snooze = (at: Date) => {
    if (!(at.getTime() > Date.now())) return setError(t.snoozePast);
    onSnooze(at);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
    const i = items.indexOf(e.target as HTMLElement);
    switch (e.key) {
      case "Escape":
        e.stopPropagation(); // the popover stays open
        e.nativeEvent.stopImmediatePropagation();
        return onClose();
      case "Tab":
        if (!custom) onClose(); // a menu is left by Tab, as a select is
        return;
    }
    const next = menuKeyTarget(items, i, e.key);
    if (!next) return;
    e.preventDefault();
    next.focus();
  };

  const name = n.title || n.message;
  const fmt = new Intl.DateTimeFormat(locale, { weekday: "short", hour: "numeric", minute: "2-digit" });
  const style = <style data-herald-snooze="">{css}</style>;
  if (custom) {
    return (
      <div className="herald-snooze" ref={box} onKeyDown={onKey}>
        {style}
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            const v = e.currentTarget.querySelector("input")!.value;
            snooze(v ? new Date(v) : new Date(NaN));
          }}
        >
          <label>
            {t.snoozeUntil}{" "}
            <input type="datetime-local" name="until" required min={localValue(new Date(Date.now() + 60_000))} defaultValue={localValue(presets(new Date())[1]!.at)} aria-invalid={error ? true : undefined} aria-describedby={error ? `herald-snooze-err-${n.id}` : undefined} />
          </label>
          <button className="herald-go" type="submit">
            {t.snooze}
          </button>
          <button className="herald-link" type="button" onClick={onClose}>
            {t.cancel}
          </button>
          {error && (
            <p className="herald-error" id={`herald-snooze-err-${n.id}`} role="alert">
              {error}
            </p>
          )}
        </form>
      </div>
    );
  }
  return (
    <div className="herald-snooze" role="menu" aria-label={`${t.snooze}: ${name}`} ref={box} onKeyDown={onKey}>
      {style}
      {presets(new Date()).map((p) => (
        <button key={p.key} role="menuitem" tabIndex={-1} onClick={() => snooze(p.at)}>
          <span>{t[presetLabel[p.key]]}</span>
          <span className="herald-when">{fmt.format(p.at)}</span>
        </button>
      ))}
      <button role="menuitem" tabIndex={-1} onClick={() => setCustom(true)}>
        {t.snoozeCustom}
      </button>
    </div>
  );
}
