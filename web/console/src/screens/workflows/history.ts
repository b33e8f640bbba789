// The designer's undo history: the graph now, the snapshots before it and those undone.
import { useCallback, useEffect, useRef, useState } from "react";
import type { StepEdge, StepNode } from "./graph";

/** Snapshot is the graph at one point: its nodes (with their positions) and edges. */
export type Snapshot = { nodes: StepNode[]; edges: StepEdge[] };
type History = { past: Snapshot[]; present: Snapshot; future: Snapshot[] };

/**
 * useHistory keeps the graph with undo and redo (also on Ctrl+Z, Ctrl+Y and Ctrl+Shift+Z
 * outside form fields). commit makes a change undoable: the present goes to the past, once
 * per event, and once per run of changes with the same key (typing in one step's form is one
 * undo step); quiet changes the present without history (selection, sizes, a drag in progress).
 */
export function useHistory(initial: () => Snapshot) {
  const [hist, setHist] = useState<History>(() => ({ past: [], present: initial(), future: [] }));
  const pushed = useRef(false);
  const lastKey = useRef("");
  const commit = useCallback((fn: (s: Snapshot) => Snapshot, key = "") => {
    const same = key !== "" && key === lastKey.current;
    lastKey.current = key;
    setHist((h) => {
      const next = fn(h.present);
      if (next === h.present) return h;
      const past = pushed.current || same ? h.past : [...h.past.slice(-99), h.present];
      pushed.current = true;
      queueMicrotask(() => (pushed.current = false));
      return { past, present: next, future: [] };
    });
  }, []);
  const quiet = useCallback((fn: (s: Snapshot) => Snapshot) => setHist((h) => ({ ...h, present: fn(h.present) })), []);
  const undo = useCallback(
    () => (lastKey.current = "", setHist((h) => (h.past.length ? { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] } : h))),
    [],
  );
  const redo = useCallback(
    () => (lastKey.current = "", setHist((h) => (h.future.length ? { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) } : h))),
    [],
  );
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement;
      if (t.closest("input, textarea, select, [contenteditable]")) return;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === "z" && !e.shiftKey) (e.preventDefault(), undo());
      else if (mod && (e.key.toLowerCase() === "y" || (e.key.toLowerCase() === "z" && e.shiftKey))) (e.preventDefault(), redo());
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [undo, redo]);
  return { present: hist.present, canUndo: hist.past.length > 0, canRedo: hist.future.length > 0, commit, quiet, undo, redo };
}
