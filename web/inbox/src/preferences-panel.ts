// The preferences panel of <herald-inbox>: per category, a switch per channel. Loaded on
// demand (its own chunk in the served bundle) the first time the user opens it; see
// src/lazy.ts for the contract and docs/inbox-widget.md ("Parts loaded on demand").
import { html, css, type TemplateResult } from "lit";
import type { Channel, Preference } from "./client.js";
import type { Panel, PartHost } from "./lazy.js";

export const styles = css`
  .prefs { padding: 0 16px 16px; }
  .help { font-size: 13px; color: var(--herald-muted); margin: 0 0 12px; }
  fieldset { border: 1px solid var(--herald-border); border-radius: 8px; margin: 0 0 12px; padding: 4px 12px 8px; }
  legend { font-weight: 600; font-size: 14px; padding: 0 4px; text-transform: capitalize; }
  .switch { display: flex; align-items: center; justify-content: space-between; padding: 6px 0; font-size: 13px; }
  input[role="switch"] {
    appearance: none;
    width: 34px;
    height: 20px;
    border-radius: 10px;
    background: var(--herald-border);
    position: relative;
    cursor: pointer;
    margin: 0;
    transition: background 0.15s;
  }
  input[role="switch"]::after {
    content: "";
    position: absolute;
    top: 2px;
    left: 2px;
    width: 16px;
    height: 16px;
    border-radius: 50%;
    background: #fff;
    transition: transform 0.15s;
  }
  input[role="switch"]:checked { background: var(--herald-accent); }
  input[role="switch"]:checked::after { transform: translateX(14px); }
  @media (prefers-reduced-motion: reduce) {
    input[role="switch"], input[role="switch"]::after { transition: none; }
  }
`;

/** The preferences panel's state and rendering, for one element. */
class PreferencesPanel implements Panel {
  /** The preferences, undefined while they load. */
  private prefs?: Preference[];
  private failed = false;

  constructor(private host: PartHost, private back: () => void) {}

  open(): void {
    this.prefs = undefined;
    this.failed = false;
    this.host.requestUpdate();
    const client = this.host.client;
    if (!client) return;
    client.preferences().then(
      (p) => {
        this.prefs = p;
        this.host.requestUpdate();
      },
      () => {
        this.prefs = [];
        this.failed = true;
        this.host.requestUpdate();
      },
    );
  }

  private async switchPreference(p: Preference, channel: Channel, enabled: boolean, input: HTMLInputElement): Promise<void> {
    const set = (on: boolean) => {
      this.prefs = this.prefs?.map((x) =>
        x.category.id !== p.category.id ? x : { ...x, channelPreferences: x.channelPreferences.map((c) => (c.channel === channel ? { ...c, enabled: on } : c)) },
      );
      this.host.requestUpdate();
    };
    set(enabled);
    try {
      await this.host.client!.setPreference(p.category.id, channel, enabled);
    } catch {
      set(!enabled);
      input.checked = !enabled;
    }
  }

  render(): TemplateResult {
    const t = this.host.t;
    return html`<header part="header">
        <button class="icon" aria-label=${t.back} title=${t.back} @click=${this.back}><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z"/></svg></button>
        <h2>${t.preferences}</h2>
      </header>
      <div class="list prefs" part="preferences">
        <p class="help">${t.prefsHelp}</p>
        ${this.prefs === undefined
          ? html`<div class="empty" role="status">${t.loading}</div>`
          : this.failed
            ? html`<div class="empty" role="status">${t.loadFailed} <button class="link" @click=${() => this.open()}>${t.retry}</button></div>`
            : this.prefs.length === 0
              ? html`<div class="empty" role="status">${t.noCategories}</div>`
              : this.prefs.map(
                  (p) => html`<fieldset part="preference">
                    <legend>${p.category.name}</legend>
                    ${p.channelPreferences.map(
                      (c) => html`<label class="switch">
                        <span>${t.channels[c.channel] ?? c.channel}</span>
                        <input type="checkbox" role="switch" part="switch" aria-label=${`${p.category.name}: ${t.channels[c.channel] ?? c.channel}`} .checked=${c.enabled}
                          @change=${(e: Event) => this.switchPreference(p, c.channel, (e.target as HTMLInputElement).checked, e.target as HTMLInputElement)} />
                      </label>`,
                    )}
                  </fieldset>`,
                )}
      </div>`;
  }
}

/** Makes the preferences panel of host; back returns to the list. */
export function createPanel(host: PartHost, back: () => void): Panel {
  return new PreferencesPanel(host, back);
}
