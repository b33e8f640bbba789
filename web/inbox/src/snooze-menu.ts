// The snooze menu of a notification: presets (in 1 hour, tomorrow morning, next week) and a
// custom time. Loaded on demand (its own chunk in the served bundle) the first time a user
// opens it. A menu of menuitems (arrow keys, Home/End, Escape closes and gives the focus
// back); "Custom time…" swaps in a date-time field and its Snooze button.
import { html, css, type TemplateResult } from "lit";
import type { Notification } from "./client.js";
import type { PartHost } from "./lazy.js";
import { localValue, menuKeyTarget, presets } from "./snooze-times.js";

export { MORNING, presets, localValue } from "./snooze-times.js";

export const styles = css`
  .snooze { margin: 0 12px 12px 64px; padding: 4px; border: 1px solid var(--herald-border); border-radius: 8px; background: var(--herald-bg); box-shadow: 0 4px 12px rgba(0, 0, 0, 0.08); }
  .snooze [role="menuitem"] { display: flex; justify-content: space-between; gap: 12px; width: 100%; padding: 6px 8px; border-radius: 6px; font-size: 13px; text-align: left; }
  .snooze [role="menuitem"]:hover, .snooze [role="menuitem"]:focus-visible { background: var(--herald-hover); outline: none; }
  .snooze [role="menuitem"] .when { color: var(--herald-muted); font-size: 12px; }
  .snooze form { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; padding: 6px 8px; font-size: 13px; }
  .snooze input { font: inherit; color: inherit; background: var(--herald-bg); border: 1px solid var(--herald-border); border-radius: 6px; padding: 4px 6px; color-scheme: light dark; }
  .snooze .go { background: var(--herald-accent); color: var(--herald-accent-fg, #fff); border-radius: 6px; padding: 4px 10px; font-weight: 600; }
  .snooze .error { color: #dc2626; font-size: 12px; width: 100%; margin: 0; }
`;

/** One open snooze menu; close() ends it (and gives the focus back to its button). */
class SnoozeMenu {
  custom = false;
  error = "";

  constructor(
    private host: PartHost,
    private n: Notification,
    private close: (snoozed: boolean) => void,
  ) {}

  private async snooze(at: Date): Promise<void> {
    if (!(at.getTime() > Date.now())) {
      this.error = this.host.t.snoozePast;
      this.host.requestUpdate();
      return;
    }
    const client = this.host.client;
    if (!client) return;
    this.close(true);
    try {
      await client.snooze(this.n.id, at);
      this.host.fire("herald-snooze", { notification: this.n, until: at.toISOString() });
    } catch {
      /* back in the list: the client rolled it back and reported the error */
    }
  }

  private onKey = (e: KeyboardEvent) => {
    const items = [...(e.currentTarget as HTMLElement).querySelectorAll<HTMLElement>('[role="menuitem"]')];
    const i = items.indexOf(e.target as HTMLElement);
    switch (e.key) {
      case "Escape":
        e.stopPropagation(); // the popover stays open
        this.close(false);
        return;
      case "Tab":
        if (!this.custom) this.close(false); // a menu is left by Tab, as a select is
        return;
    }
    const next = menuKeyTarget(items, i, e.key);
    if (!next) return;
    e.preventDefault();
    next.focus();
  };

  render(): TemplateResult {
    const t = this.host.t;
    const fmt = new Intl.DateTimeFormat(this.host.locale || "en", { weekday: "short", hour: "numeric", minute: "2-digit" });
    const name = this.n.title || this.n.message;
    if (this.custom) {
      const min = localValue(new Date(Date.now() + 60_000));
      return html`<div class="snooze" part="snooze-menu" @keydown=${this.onKey}>
        <form @submit=${(e: Event) => {
          e.preventDefault();
          const v = (e.currentTarget as HTMLFormElement).querySelector("input")!.value;
          void this.snooze(v ? new Date(v) : new Date(NaN));
        }}>
          <label>${t.snoozeUntil} <input type="datetime-local" name="until" required min=${min} value=${localValue(presets(new Date())[1]!.at)} /></label>
          <button class="go" type="submit">${t.snooze}</button>
          <button class="link" type="button" @click=${() => this.close(false)}>${t.cancel}</button>
          ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : ""}
        </form>
      </div>`;
    }
    const label: Record<string, string> = { hour: t.snoozeHour, tomorrow: t.snoozeTomorrow, week: t.snoozeWeek };
    return html`<div class="snooze" role="menu" part="snooze-menu" aria-label=${`${t.snooze}: ${name}`} @keydown=${this.onKey}>
      ${presets(new Date()).map(
        (p) => html`<button role="menuitem" tabindex="-1" @click=${() => void this.snooze(p.at)}>
          <span>${label[p.key]}</span><span class="when">${fmt.format(p.at)}</span>
        </button>`,
      )}
      <button role="menuitem" tabindex="-1" @click=${() => this.openCustom()}>${t.snoozeCustom}</button>
    </div>`;
  }

  private openCustom(): void {
    this.custom = true;
    this.host.requestUpdate();
    void this.host.updateComplete.then(() =>
      this.host.renderRoot.querySelector<HTMLInputElement>('.snooze input[name="until"]')?.focus(),
    );
  }
}

/** Opens the snooze menu of n; close(snoozed) is called when it ends. */
export function openMenu(host: PartHost, n: Notification, close: (snoozed: boolean) => void): { render(): TemplateResult } {
  return new SnoozeMenu(host, n, close);
}
