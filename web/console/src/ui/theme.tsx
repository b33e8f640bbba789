// Light and dark themes: the system's choice, followed live, until the user picks one
// (kept in localStorage, which holds nothing else).
import { useEffect, useState } from "react";
import { Button } from "./kit";

type Theme = "light" | "dark";
const key = "herald-console-theme";
const dark = () => window.matchMedia("(prefers-color-scheme: dark)");

function current(): Theme {
  const saved = localStorage.getItem(key);
  if (saved === "light" || saved === "dark") return saved;
  return dark().matches ? "dark" : "light";
}

const listeners = new Set<(t: Theme) => void>();
function apply(t: Theme) {
  document.documentElement.dataset.theme = t;
  listeners.forEach((l) => l(t));
}

/** startTheme applies the theme and follows the system's until the user chooses. */
export function startTheme() {
  apply(current());
  dark().addEventListener("change", () => apply(current()));
}

/** useTheme is the theme in use, followed live (for widgets that draw their own colours). */
export function useTheme(): Theme {
  const [theme, setTheme] = useState<Theme>(current);
  useEffect(() => {
    listeners.add(setTheme);
    return () => {
      listeners.delete(setTheme);
    };
  }, []);
  return theme;
}

export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(current);
  useEffect(() => {
    listeners.add(setTheme);
    return () => {
      listeners.delete(setTheme);
    };
  }, []);
  const next = theme === "dark" ? "light" : "dark";
  return (
    <Button
      variant="ghost"
      type="button"
      aria-label={`Switch to ${next} theme`}
      onClick={() => {
        localStorage.setItem(key, next);
        apply(next);
      }}
    >
      {theme === "dark" ? "☀" : "☾"}
    </Button>
  );
}
