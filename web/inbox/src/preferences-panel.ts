// The preferences panel of <herald-inbox>: the topics (category × channel switches), the
// notifications (a switch per workflow and per channel of it), the channels as a whole
// ("no SMS, ever"), the quiet hours and the time zone (src/preferences-quiet.ts). Critical
// categories and workflows show locked, with the reason Herald gives (lockedReason). Every
// switch is optimistic: it moves at once and moves back, with the reason next to it, when
// Herald refuses. Loaded on demand (its own chunk in the served bundle) the first time the
// user opens it; see src/lazy.ts for the contract and docs/inbox-widget.md ("Parts loaded
// on demand").
import { html, css, nothing, type TemplateResult } from "lit";
import type { components } from "./api.gen.js";
import type { Channel, Preference } from "./client.js";
import type { Panel, PartHost } from "./lazy.js";
import { QuietHoursForm, type QuietHours } from "./preferences-quiet.js";
import { panelStrings, type PanelStrings } from "./preferences-strings.js";

type Flow = components["schemas"]["FlowPreference"];
type Switches = Record<string, boolean>;

export const styles = css`
  .prefs { padding: 0 16px 16px; }
  .help { font-size: 13px; color: var(--herald-muted); margin: 0 0 12px; }
  h3 { font-size: 14px; margin: 16px 0 8px; }
  fieldset { border: 1px solid var(--herald-border); border-radius: 8px; margin: 0 0 12px; padding: 4px 12px 8px; }
  legend { font-weight: 600; font-size: 14px; padding: 0 4px; }
  .switch { display: flex; align-items: center; justify-content: space-between; padding: 6px 0; font-size: 13px; }
  .switch.whole { font-weight: 600; }
  .vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .locked { font-size: 12px; color: var(--herald-muted); margin: 2px 0 6px; }
  .error { font-size: 12px; color: #b91c1c; margin: 4px 0; }
  :host([theme="dark"]) .error { color: #fca5a5; }
  .summary, .saved { font-size: 13px; margin: 0 0 8px; }
  .window { display: flex; gap: 12px; }
  .field { display: flex; flex-direction: column; gap: 4px; font-size: 13px; margin: 6px 0; }
  .field input, .field select { font: inherit; padding: 4px 6px; border: 1px solid var(--herald-border); border-radius: 6px; background: var(--herald-bg); color: var(--herald-fg); }
  .days { display: flex; flex-wrap: wrap; gap: 4px 12px; }
  .day { display: inline-flex; align-items: center; gap: 4px; font-size: 13px; }
  .save { font: inherit; font-size: 13px; font-weight: 600; margin-top: 8px; padding: 6px 12px; border: 0; border-radius: 6px; background: var(--herald-accent); color: var(--herald-bg); cursor: pointer; }
  input:disabled { cursor: not-allowed; opacity: 0.6; }
  input[role="switch"] {
    appearance: none;
    flex: none;
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
  private flows: Flow[] = [];
  private channels: Switches = {};
  private failed = false;
  /** A refused switch's reason, by the group it belongs to. */
  private errors: Record<string, string> = {};
  private quiet: QuietHoursForm;

  constructor(private host: PartHost, private back: () => void) {
    this.quiet = new QuietHoursForm(() => host.client, () => host.requestUpdate(), () => host.locale);
  }

  open(): void {
    this.prefs = undefined;
    this.failed = false;
    this.errors = {};
    this.host.requestUpdate();
    const client = this.host.client;
    if (!client) return;
    Promise.all([
      client.preferences(),
      client.request<Flow[]>("GET", "/preferences/workflows"),
      client.request<Switches>("GET", "/preferences/channels"),
      client.request<QuietHours>("GET", "/preferences/quiet-hours"),
    ]).then(
      ([p, flows, channels, quiet]) => {
        this.prefs = p;
        this.flows = flows;
        this.channels = channels;
        this.quiet.set(quiet);
        this.host.requestUpdate();
      },
      () => {
        this.prefs = [];
        this.failed = true;
        this.host.requestUpdate();
      },
    );
  }

  /** The panel's strings in the element's language. */
  private get ps(): PanelStrings {
    return panelStrings(this.host.locale);
  }

  private name(ch: string): string {
    return this.host.t.channels[ch] ?? ch;
  }

  /**
   * optimistic shows a change at once (apply(true)), asks Herald (call), and on a refusal
   * puts it back (apply(false)) and says why in the group's alert.
   */
  private async optimistic(group: string, apply: (forward: boolean) => void, call: () => Promise<unknown>, input: HTMLInputElement): Promise<void> {
    delete this.errors[group];
    apply(true);
    this.host.requestUpdate();
    try {
      await call();
    } catch (err) {
      apply(false);
      input.checked = !input.checked;
      this.errors[group] = this.ps.notSaved(err instanceof Error ? err.message : String(err));
      this.host.requestUpdate();
    }
  }

  private switchPreference(p: Preference, channel: Channel, on: boolean, input: HTMLInputElement): Promise<void> {
    const set = (v: boolean) =>
      (this.prefs = this.prefs?.map((x) =>
        x.category.id !== p.category.id ? x : { ...x, channelPreferences: x.channelPreferences.map((c) => (c.channel === channel ? { ...c, enabled: v } : c)) },
      ));
    return this.optimistic(`category-${p.category.id}`, (f) => set(f ? on : !on), () => this.host.client!.setPreference(p.category.id, channel, on), input);
  }

  private switchFlow(f: Flow, channel: string, on: boolean, input: HTMLInputElement): Promise<void> {
    const before = this.flows;
    const id = f.workflow.identifier;
    const item = channel ? { identifier: id, channels: { [channel]: on } } : { identifier: id, enabled: on };
    return this.optimistic(
      `workflow-${id}`,
      (fwd) =>
        (this.flows = fwd
          ? this.flows.map((x) => (x.workflow.identifier !== id ? x : channel ? { ...x, channels: { ...x.channels, [channel]: on } } : { ...x, enabled: on }))
          : before),
      async () => (this.flows = await this.host.client!.request<Flow[]>("PATCH", "/preferences/workflows", { workflows: [item] })),
      input,
    );
  }

  private switchChannel(channel: string, on: boolean, input: HTMLInputElement): Promise<void> {
    return this.optimistic(
      "channels",
      (fwd) => (this.channels = { ...this.channels, [channel]: fwd ? on : !on }),
      async () => (this.channels = await this.host.client!.request<Switches>("PUT", "/preferences/channels", { [channel]: on })),
      input,
    );
  }

  /** A switch: its label, whether it is on, whether it is locked (and by which reason). */
  private toggle(label: string, visible: string, on: boolean, locked: string | undefined, change: (on: boolean, input: HTMLInputElement) => void, whole = false): TemplateResult {
    return html`<label class=${whole ? "switch whole" : "switch"}>
      <span>${visible}</span>
      <input type="checkbox" role="switch" part="switch" aria-label=${label} .checked=${on || !!locked} ?disabled=${!!locked}
        aria-describedby=${locked ?? nothing} @change=${(e: Event) => change((e.target as HTMLInputElement).checked, e.target as HTMLInputElement)} />
    </label>`;
  }

  private alert(group: string) {
    return this.errors[group] ? html`<p class="error" role="alert">${this.errors[group]}</p>` : nothing;
  }

  /** The channels a workflow's switches offer: those of the topics, and any set for it. */
  private flowChannels(f: Flow): string[] {
    const cols = new Set<string>(Object.keys(f.channels ?? {}));
    for (const p of this.prefs ?? []) for (const c of p.channelPreferences) cols.add(c.channel);
    if (!cols.size) ["inApp", "email"].forEach((c) => cols.add(c));
    return Object.keys(this.host.t.channels).filter((c) => cols.has(c));
  }

  private renderTopics(): TemplateResult {
    const prefs = this.prefs!;
    return html`<h3 id="prefs-topics">${this.ps.topics}</h3>
      <div role="group" aria-labelledby="prefs-topics" part="topics">
        ${prefs.length === 0
          ? html`<p class="help">${this.host.t.noCategories}</p>`
          : prefs.map((p) => {
              const lock = p.critical ? `locked-category-${p.category.id}` : undefined;
              return html`<fieldset part="preference" aria-describedby=${lock ?? nothing}>
                <legend>${p.category.name}</legend>
                ${lock ? html`<p class="locked" id=${lock}>${p.lockedReason}</p>` : nothing}
                ${p.channelPreferences.map((c) =>
                  this.toggle(`${p.category.name}: ${this.name(c.channel)}`, this.name(c.channel), c.enabled, lock, (on, input) => this.switchPreference(p, c.channel, on, input)),
                )}
                ${this.alert(`category-${p.category.id}`)}
              </fieldset>`;
            })}
      </div>`;
  }

  private renderFlows(): TemplateResult | typeof nothing {
    if (!this.flows.length) return nothing;
    return html`<h3 id="prefs-flows">${this.ps.flows}</h3>
      <p class="help">${this.ps.flowsHelp}</p>
      <div role="group" aria-labelledby="prefs-flows" part="workflows">
        ${this.flows.map((f) => {
          const id = f.workflow.identifier;
          const name = f.workflow.name || id;
          const lock = f.critical ? `locked-workflow-${id}` : undefined;
          const channels = (f.channels ?? {}) as Switches;
          return html`<fieldset part="workflow" aria-describedby=${lock ?? nothing}>
            <legend class="vh">${name}</legend>
            ${this.toggle(name, name, f.enabled, lock, (on, input) => this.switchFlow(f, "", on, input), true)}
            ${lock ? html`<p class="locked" id=${lock}>${f.lockedReason}</p>` : nothing}
            ${this.flowChannels(f).map((ch) =>
              this.toggle(`${name}: ${this.name(ch)}`, this.name(ch), channels[ch] ?? f.enabled, lock, (on, input) => this.switchFlow(f, ch, on, input)),
            )}
            ${this.alert(`workflow-${id}`)}
          </fieldset>`;
        })}
      </div>`;
  }

  private renderChannels(): TemplateResult {
    return html`<h3>${this.ps.channels}</h3>
      <fieldset part="channels">
        <legend>${this.ps.channelsLegend}</legend>
        <p class="help">${this.ps.channelsHelp}</p>
        ${Object.keys(this.channels).map((ch) =>
          this.toggle(this.ps.allNotifications(this.name(ch)), this.name(ch), this.channels[ch]!, undefined, (on, input) => this.switchChannel(ch, on, input)),
        )}
        ${this.alert("channels")}
      </fieldset>`;
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
            : html`${this.renderTopics()}${this.renderFlows()}${this.renderChannels()}<h3>${this.ps.quietAndZone}</h3>${this.quiet.render()}`}
      </div>`;
  }
}

/** Makes the preferences panel of host; back returns to the list. */
export function createPanel(host: PartHost, back: () => void): Panel {
  return new PreferencesPanel(host, back);
}
