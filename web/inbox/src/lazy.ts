// The contract between <herald-inbox> and the parts of it loaded on demand. In the served
// bundle (dist/widget) each such module is its own chunk, fetched by a dynamic import() the
// first time the element needs it; the npm build keeps the import() for the host's bundler.
import type { CSSResult, TemplateResult } from "lit";
import type { HeraldClient } from "./client.js";
import type { Strings } from "./i18n.js";

/** What a lazily loaded part may use of the element that shows it. */
export interface PartHost {
  /** The headless client (undefined before the element has its credentials). */
  readonly client?: HeraldClient;
  /** The strings of the element's locale. */
  readonly t: Strings;
  /** The element's locale (for dates and numbers). */
  readonly locale: string;
  /** Asks the element to render again (after the part's state changed). */
  requestUpdate(): void;
  /** Fires a bubbling, composed DOM event on the element; false when the page cancelled it. */
  fire(name: string, detail: unknown, cancelable?: boolean): boolean;
  /** The element's shadow root (to find and focus the part's controls). */
  readonly renderRoot: HTMLElement | DocumentFragment;
  /** Resolves after the next render (to focus what it drew). */
  readonly updateComplete: Promise<boolean>;
}

/**
 * A module loaded on demand exports `styles` (added to the element's shadow root, as
 * constructed style sheets, when the module arrives) and whatever the element calls.
 */
export interface PartModule {
  styles?: CSSResult;
}

/** A part that renders a panel of the popover (the preferences). */
export interface Panel {
  /** Called each time the panel opens. */
  open(): void;
  render(): TemplateResult;
}
