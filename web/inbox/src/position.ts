// Places the open popover of <herald-inbox> with Floating UI. Loaded on demand (its own
// chunk in the served bundle) the first time the popover opens: about 6 KB gzip the page
// does not pay for until the user clicks the bell.
import { autoUpdate, computePosition, flip, offset, shift } from "@floating-ui/dom";

/** At this width and below the popover opens as a full-width sheet at the bottom of the window. */
export const SHEET_QUERY = "(max-width: 480px)";

/**
 * Keeps pop on screen next to bell: Floating UI places it under the bell (end-aligned),
 * flips it above when there is no room below and shifts it into the viewport (sideways, and
 * up or down when neither side has room); autoUpdate follows scrolling, resizing and layout
 * changes. On narrow screens the CSS of SHEET_QUERY makes it a full-width sheet instead.
 * pop.dataset.placed tells where it went. Returns the function that stops following.
 */
export function follow(bell: HTMLElement, pop: HTMLElement): () => void {
  const place = () => {
    if (matchMedia(SHEET_QUERY).matches) {
      pop.style.left = pop.style.top = "";
      pop.dataset.placed = "sheet";
      return;
    }
    void computePosition(bell, pop, {
      placement: "bottom-end",
      strategy: "fixed",
      middleware: [offset(8), flip({ padding: 8 }), shift({ padding: 8, crossAxis: true })],
    }).then(({ x, y, placement }) => {
      Object.assign(pop.style, { left: `${x}px`, top: `${y}px` });
      pop.dataset.placed = placement;
    });
  };
  return autoUpdate(bell, pop, place);
}
