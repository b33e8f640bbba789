// The blocks of a notification (docs/inbox-widget.md#blocks): text with a small markdown
// subset, image, avatar and buttons (a link, or a state to set). Loaded on demand (its own
// chunk in the served bundle) the first time a notification with blocks is shown. Nothing
// here writes HTML: every piece is a Lit template part, so text is always text.
import { html, css, nothing, type TemplateResult } from "lit";
import type { Notification } from "./client.js";
import type { PartHost } from "./lazy.js";
import { isSafeUrl, urlScheme } from "./safeurl.js";

/** A block as Herald stores it; see the Block schema of the v3 OpenAPI document. */
export interface Block {
  type: string;
  states?: string[];
  exceptStates?: string[];
  text?: string;
  url?: string;
  alt?: string;
  image_url?: string;
  alt_text?: string;
  name?: string;
  imageUrl?: string;
  buttons?: Button[];
}

/** A button of a buttons block: a link (url) or a state to set. */
export interface Button {
  label: string;
  style?: "primary" | "secondary";
  url?: string;
  state?: string;
}

/** The detail of the herald-state event: the notification after Herald accepted its new state. */
export interface StateDetail {
  notification: Notification;
  state: string;
  previous: string | null;
}

/** The detail of the cancelable herald-action event fired by a link button. */
export interface ActionDetail {
  notification: Notification;
  button: Button;
}

export const styles = css`
  .blocks { display: flex; flex-direction: column; gap: 8px; padding: 0 12px 12px 64px; font-size: 13px; }
  .blocks p { margin: 0; overflow-wrap: anywhere; line-height: 1.45; }
  .blocks code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; background: var(--herald-hover); border-radius: 4px; padding: 1px 4px; }
  .blocks a:not(.btn) { color: var(--herald-accent); }
  .blocks .picture { max-width: 100%; max-height: 200px; border-radius: 8px; object-fit: cover; align-self: flex-start; }
  .actor { display: flex; align-items: center; gap: 8px; }
  .actor img, .actor .initials { width: 24px; height: 24px; border-radius: 50%; flex: none; object-fit: cover; }
  .actor .initials { display: inline-flex; align-items: center; justify-content: center; background: var(--herald-border); color: var(--herald-fg); font-size: 11px; font-weight: 600; }
  .actor .who { font-weight: 600; }
  .actor .what { color: var(--herald-muted); }
  .buttons { display: flex; flex-wrap: wrap; gap: 8px; }
  .btn { display: inline-flex; align-items: center; min-height: 30px; padding: 4px 12px; border-radius: 8px; font-size: 13px; font-weight: 600; text-decoration: none; border: 1px solid var(--herald-accent); cursor: pointer; }
  .btn.primary { background: var(--herald-accent); color: var(--herald-accent-fg, #fff); }
  .btn.secondary { background: transparent; color: var(--herald-accent); }
  .btn:hover { filter: brightness(1.08); }
  .btn:disabled { opacity: 0.6; cursor: default; }
  .btn:focus-visible { outline: 2px solid var(--herald-accent); outline-offset: 2px; }
`;

/** Whether a block shows for the notification's state (states / exceptStates). */
export function visible(b: Block, state: string | null | undefined): boolean {
  if (b.states && !b.states.includes(state ?? "")) return false;
  if (b.exceptStates && state && b.exceptStates.includes(state)) return false;
  return true;
}

/** Whether an image URL may be loaded: https only. */
export function httpsOnly(url: string | undefined): url is string {
  return !!url && urlScheme(url) === "https" && /^\s*https:\/\//i.test(url);
}

// ---- the markdown subset ----------------------------------------------------------------

const INLINE = /\*\*([^*\n]+)\*\*|`([^`\n]+)`|\[([^\]\n]*)\]\(([^)\s]*)\)|\*([^*\n]+)\*|(?<![\w])_([^_\n]+)_(?![\w])/g;

/**
 * Renders the markdown subset of a text block: **bold**, *italic* or _italic_, `code`,
 * [links](url) (followed only when safeurl allows them, else shown as their label) and line
 * breaks. Nesting is not supported: what is inside a marker is plain text.
 */
export function markdown(text: string): (TemplateResult | string)[] {
  const out: (TemplateResult | string)[] = [];
  text.split("\n").forEach((line, i) => {
    if (i > 0) out.push(html`<br />`);
    let last = 0;
    for (const m of line.matchAll(INLINE)) {
      if (m.index! > last) out.push(line.slice(last, m.index));
      const [, bold, code, label, href, star, under] = m;
      if (bold !== undefined) out.push(html`<strong>${bold}</strong>`);
      else if (code !== undefined) out.push(html`<code>${code}</code>`);
      else if (label !== undefined) out.push(href && isSafeUrl(href) ? html`<a href=${href} target="_top" rel="noopener">${label || href}</a>` : label);
      else out.push(html`<em>${star ?? under}</em>`);
      last = m.index! + m[0].length;
    }
    if (last < line.length) out.push(line.slice(last));
  });
  return out;
}

// ---- rendering --------------------------------------------------------------------------

/** The visible blocks of n, in order, as one template (nothing when none shows). */
export function renderBlocks(host: PartHost, n: Notification): TemplateResult | typeof nothing {
  const list = ((n.blocks ?? []) as Block[]).filter((b) => b && typeof b === "object" && visible(b, n.state));
  const parts = list.map((b) => renderBlock(host, n, b)).filter((p) => p !== nothing);
  return parts.length ? html`<div class="blocks" part="blocks">${parts}</div>` : nothing;
}

function renderBlock(host: PartHost, n: Notification, b: Block): TemplateResult | typeof nothing {
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? html`<p part="block-text">${markdown(b.text)}</p>` : nothing;
    case "image": {
      const url = b.url ?? b.image_url;
      const alt = b.alt ?? b.alt_text;
      return httpsOnly(url) && alt ? html`<img class="picture" part="block-image" src=${url} alt=${alt} loading="lazy" />` : nothing;
    }
    case "avatar": {
      if (!b.name) return nothing;
      const initials = b.name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("");
      return html`<div class="actor" part="block-avatar">
        ${httpsOnly(b.imageUrl) ? html`<img src=${b.imageUrl} alt="" loading="lazy" />` : html`<span class="initials" aria-hidden="true">${initials}</span>`}
        <span><span class="who">${b.name}</span>${b.text ? html` <span class="what">${b.text}</span>` : nothing}</span>
      </div>`;
    }
    case "buttons": {
      const buttons = (b.buttons ?? []).map((x) => renderButton(host, n, x)).filter((x) => x !== nothing);
      return buttons.length ? html`<div class="buttons" part="block-buttons">${buttons}</div>` : nothing;
    }
  }
  return nothing; // a block for another renderer (Slack, a webhook)
}

function renderButton(host: PartHost, n: Notification, b: Button): TemplateResult | typeof nothing {
  if (!b || typeof b.label !== "string" || !b.label) return nothing;
  const cls = `btn ${b.style === "secondary" ? "secondary" : "primary"}`;
  if (typeof b.state === "string" && b.state) {
    const state = b.state;
    return html`<button class=${cls} part=${`button button-${b.style === "secondary" ? "secondary" : "primary"}`} ?disabled=${n.state === state}
      @click=${() => void setState(host, n, state)}>${b.label}</button>`;
  }
  // A link: only what safeurl allows (a javascript: url written into the database by hand
  // is not shown at all: it would run in this page).
  if (typeof b.url !== "string" || !b.url || !isSafeUrl(b.url)) return nothing;
  return html`<a class=${cls} part=${`button button-${b.style === "secondary" ? "secondary" : "primary"}`} href=${b.url} target="_top" rel="noopener"
    @click=${(e: MouseEvent) => {
      if (!host.fire("herald-action", { notification: n, button: b } satisfies ActionDetail, true)) e.preventDefault();
      void host.client?.click(n.id).catch(() => {});
    }}>${b.label}</a>`;
}

/** Sets the state a button names: the item changes at once, rolls back when refused. */
async function setState(host: PartHost, n: Notification, state: string): Promise<void> {
  const client = host.client;
  if (!client) return;
  const previous = n.state ?? null;
  try {
    const next = await client.setState(n.id, state);
    host.fire("herald-state", { notification: next, state, previous } satisfies StateDetail);
  } catch {
    /* rolled back by the client, which reported the error */
  }
}
