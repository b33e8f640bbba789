// <herald-inbox>: the bell, its badge and the popover with the list and the preferences.
import { LitElement, html, css, nothing, adoptStyles, type PropertyValues, type CSSResult, type TemplateResult } from "lit";
import { HeraldClient, type InboxState, type Notification } from "./client.js";
import { strings, relativeTime, type Strings } from "./i18n.js";
import { isSafeUrl } from "./safeurl.js";
import type { Panel, PartHost, PartModule } from "./lazy.js";

const bellIcon = html`<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"/></svg>`;

/**
 * The Herald inbox element. Attributes: api-key, user-id or user-token, base-url,
 * theme (light|dark|auto), locale, toasts (boolean: announce new notifications). Events: herald-notification, herald-unread-count,
 * herald-click (cancelable: preventDefault keeps the page from following the URL), herald-action (a link button of a
 * notification's blocks; cancelable the same way), herald-state (a state button's new state, once Herald accepted it)
 * and herald-snooze (a notification snoozed).
 */
export class HeraldInbox extends LitElement implements PartHost {
  static properties = {
    apiKey: { attribute: "api-key" },
    userId: { attribute: "user-id" },
    userToken: { attribute: "user-token" },
    baseUrl: { attribute: "base-url" },
    theme: { reflect: true },
    locale: {},
    toasts: { type: Boolean },
    refreshUserToken: { attribute: false },
    open: { state: true },
    panel: { state: true },
    inbox: { state: true },
    failed: { state: true },
    shown: { state: true },
  };

  declare apiKey: string;
  declare userId: string;
  declare userToken: string;
  declare baseUrl: string;
  declare theme: "light" | "dark" | "auto";
  declare locale: string;
  /** Secure mode: returns a fresh user JWT when Herald refuses the current one. */
  declare refreshUserToken?: () => Promise<string>;
  declare open: boolean;
  declare panel: "list" | "preferences";
  declare inbox?: InboxState;
  declare failed: boolean;
  /** Show a toast for each new notification (the `toasts` attribute). */
  declare toasts: boolean;
  /** The toasts on screen, oldest first. */
  declare shown: Notification[];
  /** While the pointer or focus is on the toasts they stay. */
  private holdToasts = false;

  /** The headless client behind the element, once started. */
  client?: HeraldClient;
  private unsubscribe: (() => void)[] = [];
  /** Stops Floating UI's autoUpdate of the open popover. */
  private stopPositioning?: () => void;

  constructor() {
    super();
    this.theme = "light";
    this.locale = typeof navigator !== "undefined" ? navigator.language : "en";
    this.open = false;
    this.panel = "list";
    this.failed = false;
    this.baseUrl = "";
    this.toasts = false;
    this.shown = [];
  }

  /** The strings of the element's locale. */
  get t(): Strings {
    return strings(this.locale || "en");
  }

  connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener("click", this.outside);
  }

  disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener("click", this.outside);
    this.stopPositioning?.();
    this.stopPositioning = undefined;
    this.teardown();
  }

  private outside = (e: MouseEvent) => {
    if (this.open && !e.composedPath().includes(this)) this.open = false;
  };

  protected updated(changed: PropertyValues): void {
    if (changed.has("open")) this.positionPopover();
    if (changed.has("apiKey") || changed.has("userId") || changed.has("baseUrl") || (changed.has("userToken") && !this.client)) {
      this.restart();
    } else if (changed.has("userToken") && this.client && this.userToken) {
      this.client.setUserToken(this.userToken);
    }
  }

  private teardown(): void {
    this.unsubscribe.forEach((u) => u());
    this.unsubscribe = [];
    this.client?.stop();
    this.client = undefined;
  }

  private restart(): void {
    this.teardown();
    if (!this.apiKey || !(this.userId || this.userToken)) return;
    const base = this.baseUrl || scriptOrigin || location.origin;
    const client = new HeraldClient({
      apiKey: this.apiKey,
      userId: this.userId || undefined,
      userToken: this.userToken || undefined,
      refreshUserToken: this.refreshUserToken ? () => this.refreshUserToken!() : undefined,
      baseUrl: base,
    });
    this.client = client;
    this.unsubscribe.push(
      client.on("change", (s) => (this.inbox = s)),
      client.on("notification", (n) => {
        this.fire("herald-notification", n);
        if (this.toasts && !this.open) this.toast(n);
      }),
      client.on("unreadCount", (n) => this.fire("herald-unread-count", n)),
      client.on("error", (e) => console.warn("herald:", e.message)),
    );
    this.inbox = client.state;
    this.failed = false;
    client.start().catch((e) => {
      this.failed = true;
      console.warn("herald: cannot load the inbox:", e.message);
    });
  }

  /** Counts the popover's openings, so a late positioning module places only the current one. */
  private placing = 0;

  /**
   * Keeps the open popover on screen with Floating UI (src/position.ts, loaded on demand:
   * until it arrives the popover stays transparent by the CSS of .popover:not([data-placed])).
   * The CSS caps its height (560 px, or the window's height less 80 px).
   */
  private positionPopover(): void {
    this.stopPositioning?.();
    this.stopPositioning = undefined;
    const turn = ++this.placing;
    const bell = this.renderRoot.querySelector<HTMLElement>(".bell");
    const pop = this.renderRoot.querySelector<HTMLElement>(".popover");
    if (!this.open || !bell || !pop) return;
    import("./position.js").then(
      (m) => {
        if (turn === this.placing && this.open) this.stopPositioning = m.follow(bell, pop);
      },
      (e: Error) => {
        // Without Floating UI: under the bell, inside the window.
        console.warn("herald: cannot load the positioning part:", e.message);
        const r = bell.getBoundingClientRect();
        Object.assign(pop.style, { left: `${Math.max(8, Math.min(r.right - pop.offsetWidth, innerWidth - pop.offsetWidth - 8))}px`, top: `${r.bottom + 8}px` });
        pop.dataset.placed = "fallback";
      },
    );
  }

  /** Shows a toast for n (at most three at once) and hides it after a few seconds. */
  private toast(n: Notification): void {
    this.shown = [...this.shown.filter((x) => x.id !== n.id), n].slice(-3);
    const hide = () => (this.holdToasts ? setTimeout(hide, 2000) : this.dismiss(n));
    setTimeout(hide, 6000);
  }

  private dismiss(n: Notification): void {
    this.shown = this.shown.filter((x) => x !== n);
    // A focused close button that leaves the page sends no focusout: let the others hide.
    this.holdToasts = false;
  }

  /** Fires a bubbling, composed event on the element; false when the page cancelled it. */
  fire(name: string, detail: unknown, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true, cancelable }));
  }

  // ---- interactions --------------------------------------------------------------------

  private toggle(): void {
    this.open = !this.open;
    if (this.open) {
      this.panel = "list";
      this.updateComplete.then(() => (this.renderRoot.querySelector('[role="tab"][aria-selected="true"]') as HTMLElement | null)?.focus());
    }
  }

  private onKeydown(e: KeyboardEvent): void {
    if (e.key === "Escape" && this.open) {
      this.open = false;
      (this.renderRoot.querySelector(".bell") as HTMLElement | null)?.focus();
    }
  }

  private async activate(n: Notification): Promise<void> {
    if (!this.client) return;
    const follow = this.fire("herald-click", n, true);
    try {
      await this.client.click(n.id);
    } catch {
      /* rolled back; still follow the link */
    }
    // Only links safeurl allows: a javascript: (or data:, …) url would run in this page.
    if (follow && n.url && isSafeUrl(n.url)) window.location.assign(n.url);
  }

  private selectView(filter: "all" | "unread", category: string | null): void {
    void this.client?.setView({ filter, category }).catch(() => (this.failed = true));
  }

  private onTabKey(e: KeyboardEvent): void {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    const tabs = [...this.renderRoot.querySelectorAll<HTMLElement>('[role="tab"]')];
    const i = tabs.indexOf(e.target as HTMLElement);
    const next = tabs[(i + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    next?.focus();
    next?.click();
  }

  private onScroll(e: Event): void {
    const el = e.target as HTMLElement;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 48) this.loadMore();
  }

  /** Whether the next page is loading (the list shows it), or failed to. */
  private more: "idle" | "loading" | "failed" = "idle";

  /** Loads the next page (a page of 15: the list never renders more than it has loaded). */
  private loadMore(): void {
    if (!this.client || this.more === "loading" || !this.inbox?.hasMore) return;
    this.more = "loading";
    this.requestUpdate();
    this.client.loadMore().then(
      () => (this.more = "idle"),
      () => (this.more = "failed"),
    ).finally(() => this.requestUpdate());
  }

  private showPreferences(): void {
    this.panel = "preferences";
    this.preferencesPanel?.open();
  }

  /** The preferences panel, once its module has loaded (src/preferences-panel.ts). */
  private get preferencesPanel(): Panel | undefined {
    const m = this.lazyPart("preferences", () => import("./preferences-panel.js"));
    if (m && !this.panels.preferences) {
      this.panels.preferences = m.createPanel(this, () => (this.panel = "list"));
      this.panels.preferences.open();
    }
    return this.panels.preferences;
  }

  // ---- parts loaded on demand ------------------------------------------------------------

  /** The modules loaded on demand, by name: undefined while loading, null after a failure. */
  private parts = new Map<string, PartModule | null | undefined>();
  /** The style sheets of the loaded parts, after the element's own. */
  private partStyles: CSSResult[] = [];
  private panels: { preferences?: Panel } = {};

  /**
   * The module of a part, or undefined until it has loaded: the first call starts the
   * dynamic import() (its own chunk in the served bundle), adds its styles to the shadow
   * root and renders again when it arrives. After a failed load (network) it stays
   * undefined until retryPart.
   */
  lazyPart<M extends PartModule>(name: string, load: () => Promise<M>): M | undefined {
    if (this.parts.has(name)) return (this.parts.get(name) ?? undefined) as M | undefined;
    this.parts.set(name, undefined);
    load().then(
      (mod) => {
        this.parts.set(name, mod);
        if (mod.styles) {
          this.partStyles.push(mod.styles);
          adoptStyles(this.renderRoot as ShadowRoot, [...HeraldInbox.elementStyles, ...this.partStyles]);
        }
        this.requestUpdate();
      },
      (e: Error) => {
        this.parts.set(name, null);
        console.warn(`herald: cannot load the ${name} part:`, e.message);
        this.requestUpdate();
      },
    );
    return undefined;
  }

  /** Whether the part failed to load (the element shows an error with a retry). */
  private partFailed(name: string): boolean {
    return this.parts.get(name) === null;
  }

  private retryPart(name: string): void {
    this.parts.delete(name);
    this.requestUpdate();
  }

  // ---- rendering -----------------------------------------------------------------------

  render() {
    const t = this.t;
    const count = this.inbox?.unreadCount ?? 0;
    const label = count > 0 ? `${t.notifications}, ${t.unread(count)}` : t.notifications;
    return html`<div class="root" @keydown=${this.onKeydown}>
      <button class="bell" part="bell" aria-label=${label} aria-haspopup="dialog" aria-expanded=${this.open ? "true" : "false"} @click=${this.toggle}>
        ${bellIcon}${count > 0 ? html`<span class="badge" part="badge" aria-hidden="true">${count > 99 ? "99+" : count}</span>` : nothing}
      </button>
      ${this.open ? this.renderPopover() : nothing}
      ${this.toasts ? this.renderToasts() : nothing}
    </div>`;
  }

  // A live region that stays in the page, so screen readers announce each toast added to it.
  private renderToasts() {
    const hold = (on: boolean) => () => (this.holdToasts = on);
    return html`<div class="toasts" part="toasts" role="status" @pointerenter=${hold(true)} @pointerleave=${hold(false)} @focusin=${hold(true)} @focusout=${hold(false)}>
      ${this.shown.map(
        (n) => html`<div class="toast" part="toast">
          <span class="text">
            ${n.title ? html`<span class="title">${n.title}</span>` : nothing}
            ${n.message ? html`<span class="message">${n.message}</span>` : nothing}
          </span>
          <button class="icon" aria-label=${`${this.t.close}: ${n.title || n.message}`} @click=${() => this.dismiss(n)}>
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19l5.6-5.6 5.6 5.6 1.4-1.4-5.6-5.6L19 6.4 17.6 5 12 10.6z"/></svg>
          </button>
        </div>`,
      )}
    </div>`;
  }

  private renderPopover() {
    const t = this.t;
    return html`<div class="popover" part="popover" role="dialog" aria-label=${t.notifications}>
      ${this.panel === "preferences" ? this.renderPreferences() : this.renderList()}
    </div>`;
  }

  private renderList() {
    const t = this.t;
    const s = this.inbox;
    const view = s?.view ?? { filter: "all", category: null };
    const cats = this.client?.connection?.app.categories ?? [];
    const tab = (label: string, filter: "all" | "unread", category: string | null) => {
      const selected = view.filter === filter && view.category === category;
      return html`<button role="tab" part="tab" aria-selected=${selected ? "true" : "false"} tabindex=${selected ? 0 : -1} @click=${() => this.selectView(filter, category)}>${label}</button>`;
    };
    return html`<header part="header">
        <h2>${t.notifications}</h2>
        <div class="tools">
          <button class="link" part="action" @click=${() => void this.client?.markAllRead().catch(() => {})} ?disabled=${!s?.unreadCount && !s?.notifications.some((n) => !n.readAt)}>${t.markAllRead}</button>
          <button class="icon" part="action" aria-label=${t.preferences} title=${t.preferences} @click=${this.showPreferences}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M19.4 13a7.5 7.5 0 0 0 0-2l2.1-1.6-2-3.5-2.5 1a7.6 7.6 0 0 0-1.7-1L15 3.3h-4l-.4 2.6a7.6 7.6 0 0 0-1.7 1l-2.5-1-2 3.5L6.6 11a7.5 7.5 0 0 0 0 2l-2.1 1.6 2 3.5 2.5-1a7.6 7.6 0 0 0 1.7 1l.4 2.6h4l.4-2.6a7.6 7.6 0 0 0 1.7-1l2.5 1 2-3.5L19.4 13ZM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7Z" transform="translate(-1 0)"/></svg>
          </button>
        </div>
      </header>
      <div role="tablist" part="tabs" aria-label=${t.notifications} @keydown=${this.onTabKey}>
        ${tab(t.all, "all", null)}${tab(t.unreadTab, "unread", null)}${cats.map((c) => tab(c.name, "all", c.identifier))}
      </div>
      ${s?.connection === "offline" ? html`<p class="offline" part="offline" role="status">${t.offline}</p>` : nothing}
      <div class="list" role="tabpanel" part="list" @scroll=${this.onScroll} tabindex="-1">
        ${this.renderItems(s)}
      </div>`;
  }

  private renderItems(s?: InboxState) {
    const t = this.t;
    if (this.failed && !s?.loaded) {
      return html`<div class="empty" part="empty" role="status">${t.loadFailed} <button class="link" @click=${() => this.restart()}>${t.retry}</button></div>`;
    }
    if (!s?.loaded) return html`<div class="empty" part="empty" role="status">${t.loading}</div>`;
    if (s.notifications.length === 0) {
      return html`<div class="empty" part="empty" role="status">${s.view.filter === "unread" ? t.emptyUnread : t.empty}</div>`;
    }
    // Paged: scrolling to the end (or the button, for keyboards and short lists) loads the
    // next page, with a visible status meanwhile.
    return html`<ul aria-label=${t.notifications}>
        ${s.notifications.map((n) => this.renderItem(n))}
      </ul>
      ${s.hasMore
        ? html`<div class="more" part="more">
            ${this.more === "loading"
              ? html`<span role="status">${t.loading}</span>`
              : html`<button class="link" @click=${() => this.loadMore()}>${this.more === "failed" ? t.retry : t.loadMore}</button>`}
          </div>`
        : nothing}`;
  }

  private renderItem(n: Notification) {
    const t = this.t;
    const unread = !n.readAt;
    const time = relativeTime(n.createdAt, this.locale || "en");
    const name = n.title || n.message;
    // Blocks (src/blocks.ts) and the snooze menu (src/snooze-menu.ts) load on demand.
    const blocks = n.blocks?.length ? this.lazyPart("blocks", () => import("./blocks.js")) : undefined;
    return html`<li class=${unread ? "item unread" : "item"} part=${unread ? "item item-unread" : "item"} data-id=${n.id}>
      <div class="body">
        <button class="main" aria-label=${`${name}${n.title && n.message ? ". " + n.message : ""}. ${time}${unread ? ". " + t.unreadTab : ""}`} @click=${() => this.activate(n)}>
          ${n.icon ? html`<img class="icon-img" part="icon" src=${n.icon} alt="" loading="lazy" />` : html`<span class="icon-img placeholder" aria-hidden="true">${bellIcon}</span>`}
          <span class="text">
            ${n.title ? html`<span class="title" part="title">${n.title}</span>` : nothing}
            ${n.message ? html`<span class="message" part="message">${n.message}</span>` : nothing}
            <time part="time" datetime=${n.createdAt}>${time}</time>
          </span>
          ${unread ? html`<span class="dot" aria-hidden="true"></span>` : nothing}
        </button>
        ${blocks ? blocks.renderBlocks(this, n) : nothing}
        ${this.snoozeOpen === n.id ? this.renderSnooze(n) : nothing}
      </div>
      <span class="actions">
        ${unread ? html`<button class="icon" aria-label=${`${t.markRead}: ${name}`} title=${t.markRead} @click=${() => void this.client?.markRead(n.id).catch(() => {})}><svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="m9 16.2-3.5-3.5L4 14.2l5 5 11-11-1.5-1.4z"/></svg></button>` : nothing}
        <button class="icon snooze-toggle" aria-label=${`${t.snooze}: ${name}`} title=${t.snooze} aria-haspopup="menu" aria-expanded=${this.snoozeOpen === n.id ? "true" : "false"} @click=${() => this.toggleSnooze(n)}><svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M12 4a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm0 2a6 6 0 1 1 0 12 6 6 0 0 1 0-12Zm-1 2v5l4 2.4.8-1.3-3.3-2V8H11ZM5.3 2.3 6.7 3.7 3.7 6.7 2.3 5.3zm13.4 0 3 3-1.4 1.4-3-3z"/></svg></button>
        <button class="icon" aria-label=${`${t.archive}: ${name}`} title=${t.archive} @click=${() => void this.client?.archive(n.id).catch(() => {})}><svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M3 4h18v4H3V4Zm1 5h16v11H4V9Zm5 3v2h6v-2H9Z"/></svg></button>
        <button class="icon" aria-label=${`${t.delete}: ${name}`} title=${t.delete} @click=${() => void this.client?.delete(n.id).catch(() => {})}><svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M9 3h6l1 2h4v2H4V5h4l1-2Zm-3 6h12l-1 12H7L6 9Z"/></svg></button>
      </span>
    </li>`;
  }

  // ---- snooze ------------------------------------------------------------------------------

  /** The notification whose snooze menu is open. */
  private snoozeOpen?: number;
  private snoozeMenu?: { render(): TemplateResult };

  private toggleSnooze(n: Notification): void {
    const open = this.snoozeOpen !== n.id;
    this.closeSnooze(false);
    if (open) {
      this.snoozeOpen = n.id;
      this.requestUpdate();
    }
  }

  /** Closes the snooze menu; unless the item left the list, its button gets the focus back. */
  private closeSnooze(snoozed: boolean): void {
    const id = this.snoozeOpen;
    this.snoozeOpen = undefined;
    this.snoozeMenu = undefined;
    this.requestUpdate();
    if (id !== undefined && !snoozed) {
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`li[data-id="${id}"] .snooze-toggle`)?.focus());
    }
  }

  private renderSnooze(n: Notification) {
    const m = this.lazyPart("snooze", () => import("./snooze-menu.js"));
    if (!m) return html`<div class="empty" role="status">${this.partFailed("snooze") ? this.t.loadFailed : this.t.loading}</div>`;
    if (!this.snoozeMenu) {
      this.snoozeMenu = m.openMenu(this, n, (snoozed) => this.closeSnooze(snoozed));
      void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.snooze [role="menuitem"]')?.focus());
    }
    return this.snoozeMenu.render();
  }

  private renderPreferences() {
    const t = this.t;
    const panel = this.preferencesPanel;
    if (panel) return panel.render();
    return html`<header part="header">
        <button class="icon" aria-label=${t.back} title=${t.back} @click=${() => (this.panel = "list")}><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path fill="currentColor" d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z"/></svg></button>
        <h2>${t.preferences}</h2>
      </header>
      <div class="list">
        ${this.partFailed("preferences")
          ? html`<div class="empty" role="status">${t.loadFailed} <button class="link" @click=${() => this.retryPart("preferences")}>${t.retry}</button></div>`
          : html`<div class="empty" role="status">${t.loading}</div>`}
      </div>`;
  }

  static styles = css`
    :host {
      --herald-accent: #4f46e5;
      --herald-accent-fg: #ffffff;
      --herald-bg: #ffffff;
      --herald-fg: #111827;
      --herald-muted: #6b7280;
      --herald-border: #e5e7eb;
      --herald-hover: #f3f4f6;
      --herald-unread-bg: #eef2ff;
      --herald-badge-bg: #dc2626;
      --herald-badge-fg: #ffffff;
      --herald-radius: 12px;
      --herald-width: 380px;
      --herald-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
      display: inline-block;
      position: relative;
      font-family: var(--herald-font);
      color: var(--herald-fg);
    }
    :host([theme="dark"]) {
      --herald-accent: #818cf8;
      --herald-accent-fg: #111827;
      --herald-bg: #1f2937;
      --herald-fg: #f9fafb;
      --herald-muted: #9ca3af;
      --herald-border: #374151;
      --herald-hover: #2b3646;
      --herald-unread-bg: #27304a;
    }
    @media (prefers-color-scheme: dark) {
      :host([theme="auto"]) {
        --herald-accent: #818cf8;
        --herald-accent-fg: #111827;
        --herald-bg: #1f2937;
        --herald-fg: #f9fafb;
        --herald-muted: #9ca3af;
        --herald-border: #374151;
        --herald-hover: #2b3646;
        --herald-unread-bg: #27304a;
      }
    }
    button {
      font: inherit;
      color: inherit;
      background: none;
      border: 0;
      cursor: pointer;
    }
    button:focus-visible, input:focus-visible, [role="tab"]:focus-visible {
      outline: 2px solid var(--herald-accent);
      outline-offset: 2px;
    }
    .bell {
      position: relative;
      display: inline-flex;
      align-items: center;
      justify-content: center;
      width: 40px;
      height: 40px;
      border-radius: 50%;
      color: inherit;
    }
    .bell:hover { background: var(--herald-hover); }
    .badge {
      position: absolute;
      top: 2px;
      right: 0;
      min-width: 18px;
      height: 18px;
      padding: 0 5px;
      box-sizing: border-box;
      border-radius: 9px;
      background: var(--herald-badge-bg);
      color: var(--herald-badge-fg);
      font-size: 11px;
      font-weight: 700;
      line-height: 18px;
      text-align: center;
    }
    .popover {
      position: fixed;
      left: 0;
      top: 0;
      z-index: 1000;
      width: min(var(--herald-width), calc(100vw - 16px));
      max-height: min(560px, calc(100vh - 80px));
      box-sizing: border-box;
      display: flex;
      flex-direction: column;
      background: var(--herald-bg);
      color: var(--herald-fg);
      border: 1px solid var(--herald-border);
      border-radius: var(--herald-radius);
      box-shadow: 0 12px 32px rgba(0, 0, 0, 0.18);
      overflow: hidden;
      text-align: left;
    }
    @media (min-width: 481px) {
      /* Transparent (still focusable) until src/position.ts has placed it. */
      .popover:not([data-placed]) { opacity: 0; }
    }
    @media (max-width: 480px) {
      .popover {
        top: auto;
        bottom: 0;
        width: 100%;
        max-height: 85vh;
        border-width: 1px 0 0;
        border-radius: var(--herald-radius) var(--herald-radius) 0 0;
        box-shadow: 0 -8px 32px rgba(0, 0, 0, 0.22);
      }
    }
    .toasts {
      position: fixed;
      right: 16px;
      bottom: 16px;
      z-index: 1001;
      display: flex;
      flex-direction: column;
      gap: 8px;
      width: min(360px, calc(100vw - 32px));
    }
    .toast {
      display: flex;
      gap: 8px;
      padding: 12px 8px 12px 16px;
      background: var(--herald-bg);
      border: 1px solid var(--herald-border);
      border-radius: var(--herald-radius);
      box-shadow: 0 8px 24px rgba(0, 0, 0, 0.18);
      animation: herald-in 0.2s ease-out;
    }
    @keyframes herald-in {
      from { opacity: 0; transform: translateY(12px); }
    }
    @media (prefers-reduced-motion: reduce) {
      .toast { animation: none; }
    }
    header {
      display: flex;
      align-items: center;
      gap: 8px;
      padding: 12px 12px 8px 16px;
    }
    h2 { flex: 1; margin: 0; font-size: 16px; font-weight: 600; }
    .tools { display: flex; align-items: center; gap: 4px; }
    .link { color: var(--herald-accent); font-size: 13px; padding: 4px 6px; border-radius: 6px; }
    .link:disabled { color: var(--herald-muted); cursor: default; }
    .icon { display: inline-flex; padding: 6px; border-radius: 6px; color: var(--herald-muted); }
    .icon:hover, .link:not(:disabled):hover { background: var(--herald-hover); color: var(--herald-fg); }
    [role="tablist"] {
      display: flex;
      gap: 4px;
      padding: 0 12px;
      border-bottom: 1px solid var(--herald-border);
      overflow-x: auto;
      scrollbar-width: none;
    }
    [role="tab"] {
      padding: 8px 8px;
      font-size: 13px;
      color: var(--herald-muted);
      border-bottom: 2px solid transparent;
      white-space: nowrap;
      text-transform: capitalize;
    }
    [role="tab"][aria-selected="true"] { color: var(--herald-fg); border-bottom-color: var(--herald-accent); font-weight: 600; }
    .offline {
      margin: 0;
      padding: 6px 16px;
      font-size: 12px;
      background: #fef3c7;
      color: #92400e;
    }
    .list { overflow-y: auto; flex: 1; min-height: 120px; }
    ul { list-style: none; margin: 0; padding: 0; }
    .item { position: relative; display: flex; border-bottom: 1px solid var(--herald-border); }
    .body { flex: 1; min-width: 0; display: flex; flex-direction: column; }
    .item.unread { background: var(--herald-unread-bg); }
    .item:hover { background: var(--herald-hover); }
    .main {
      display: flex;
      gap: 12px;
      align-items: flex-start;
      padding: 12px 8px 12px 16px;
      text-align: left;
      min-width: 0;
    }
    .icon-img {
      flex: none;
      width: 36px;
      height: 36px;
      border-radius: 50%;
      object-fit: cover;
      background: var(--herald-hover);
    }
    .placeholder { display: inline-flex; align-items: center; justify-content: center; color: var(--herald-muted); background: var(--herald-border); }
    .placeholder svg { width: 18px; height: 18px; }
    .text { display: flex; flex-direction: column; gap: 2px; min-width: 0; flex: 1; }
    .title { font-weight: 600; font-size: 14px; overflow-wrap: anywhere; }
    .message { font-size: 13px; color: var(--herald-muted); overflow-wrap: anywhere; }
    time { font-size: 12px; color: var(--herald-muted); }
    .dot { flex: none; width: 8px; height: 8px; margin-top: 6px; border-radius: 50%; background: var(--herald-accent); }
    .actions { display: grid; grid-template-columns: repeat(2, auto); align-content: start; padding: 6px 6px 4px 0; opacity: 0.55; }
    .item:hover .actions, .actions:focus-within { opacity: 1; }
    .more { padding: 12px; text-align: center; font-size: 13px; color: var(--herald-muted); }
    .empty { padding: 40px 16px; text-align: center; color: var(--herald-muted); font-size: 14px; }
  `;
}

/** The origin the widget script was loaded from: Herald's, when base-url is not given. */
const scriptOrigin = (() => {
  try {
    return new URL(import.meta.url).origin;
  } catch {
    return "";
  }
})();

if (typeof customElements !== "undefined" && !customElements.get("herald-inbox")) {
  customElements.define("herald-inbox", HeraldInbox);
}

declare global {
  interface HTMLElementTagNameMap {
    "herald-inbox": HeraldInbox;
  }
}
