// Theme props shared by the components, and the <style> element they render.
import type { CSSProperties } from "react";
import { css, type ThemeVariable } from "./styles.js";

/** Theme props of Inbox and Bell. */
export interface Themed {
  /** light (default), dark, or auto (follows prefers-color-scheme). */
  theme?: "light" | "dark" | "auto";
  /** CSS variables to set, e.g. { accent: "#0f766e", radius: "8px" } (--herald-accent, …). */
  variables?: Partial<Record<ThemeVariable, string>>;
  className?: string;
  style?: CSSProperties;
}

/** The attributes of a component's root element: class, data-theme and the variables. */
export function rootProps(p: Themed, extra: string) {
  const style: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.variables ?? {})) if (v) style["--herald-" + k] = v;
  return {
    className: "herald-root" + (extra ? " " + extra : ""),
    "data-theme": p.theme ?? "light",
    style: { ...style, ...p.style } as CSSProperties,
  };
}

/**
 * The stylesheet, inline (set as HTML: React would escape its text on the server). The
 * same constant on server and client, so hydration matches.
 */
export function Styles() {
  return <style data-herald="" dangerouslySetInnerHTML={{ __html: css }} />;
}
