// Where the popover goes: under (or over) the bell, end- or start-aligned, flipped to the
// side with room and shifted into the viewport. The popover is position: fixed in a portal
// under <body>, so the window is its only frame (no transformed or clipping ancestor).
// Floating UI, which the widget uses, would take 6.4 of the package's 10 KB gzip budget.

/** Where the popover opens from the bell. */
export type Placement = "bottom-end" | "bottom-start" | "top-end" | "top-start";

/** A rectangle in window coordinates (a DOMRect fits). */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const GAP = 8;
const PAD = 8;

/**
 * The popover's top-left corner for a bell at `anchor`, a popover of width w and height h
 * and a window of vw × vh, with the placement it ended up at.
 */
export function place(anchor: Box, w: number, h: number, vw: number, vh: number, want: Placement): { x: number; y: number; placement: Placement } {
  let [side, align] = want.split("-") as ["bottom" | "top", "start" | "end"];
  const below = vh - anchor.bottom - GAP - PAD;
  const above = anchor.top - GAP - PAD;
  if (side === "bottom" ? h > below && above > below : h > above && below > above) side = side === "bottom" ? "top" : "bottom";
  const clamp = (v: number, max: number) => Math.max(PAD, Math.min(v, max));
  const y = clamp(side === "bottom" ? anchor.bottom + GAP : anchor.top - GAP - h, vh - PAD - h);
  const x = clamp(align === "end" ? anchor.right - w : anchor.left, vw - PAD - w);
  return { x: Math.round(x), y: Math.round(y), placement: `${side}-${align}` };
}

/**
 * Keeps pop placed at anchor while open: on scrolling (any scroller), resizing and changes
 * of the popover's size. Returns the stop function. At 480 px wide and less the CSS makes
 * the popover a bottom sheet, and nothing is placed.
 */
export function follow(anchor: HTMLElement, pop: HTMLElement, want: Placement): () => void {
  let frame = 0;
  const update = () => {
    frame = 0;
    if (matchMedia("(max-width: 480px)").matches) {
      pop.style.left = pop.style.top = "";
      pop.dataset.placed = "sheet";
      return;
    }
    const { x, y, placement } = place(anchor.getBoundingClientRect(), pop.offsetWidth, pop.offsetHeight, window.innerWidth, window.innerHeight, want);
    pop.style.left = x + "px";
    pop.style.top = y + "px";
    pop.dataset.placed = placement;
  };
  const schedule = () => void (frame ||= requestAnimationFrame(update));
  update();
  addEventListener("scroll", schedule, { capture: true, passive: true });
  addEventListener("resize", schedule);
  const ro = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(schedule);
  ro?.observe(pop);
  return () => {
    cancelAnimationFrame(frame);
    removeEventListener("scroll", schedule, { capture: true });
    removeEventListener("resize", schedule);
    ro?.disconnect();
  };
}
