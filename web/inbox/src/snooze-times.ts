// The snooze menu's times and keys, shared by the widget's menu (src/snooze-menu.ts) and the
// React package's (@heraldhq/inbox-react, SnoozeMenu.tsx): the presets, the value of a
// date-time field, and where the arrow keys move the focus in a menu.

/** The hour presets use for "morning". */
export const MORNING = 9;

/** A preset: which one (its label is the caller's) and when it ends. */
export interface Preset {
  key: "hour" | "tomorrow" | "week";
  at: Date;
}

/** The preset times from now: in one hour, tomorrow at 9:00, next Monday at 9:00 (local). */
export function presets(now: Date): Preset[] {
  const at = (days: number) => new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, MORNING);
  const monday = (8 - now.getDay()) % 7 || 7; // the next Monday, a week ahead on a Monday
  return [
    { key: "hour", at: new Date(now.getTime() + 60 * 60 * 1000) },
    { key: "tomorrow", at: at(1) },
    { key: "week", at: at(monday) },
  ];
}

/** The value of a datetime-local input for a date (local time, minutes). */
export function localValue(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** menuKeyTarget is the menu item an arrow, Home or End key moves the focus to from the item
 * at index i (wrapping), or undefined for any other key. */
export function menuKeyTarget<T>(items: T[], i: number, key: string): T | undefined {
  switch (key) {
    case "ArrowDown":
      return items[(i + 1) % items.length];
    case "ArrowUp":
      return items[(i - 1 + items.length) % items.length];
    case "Home":
      return items[0];
    case "End":
      return items[items.length - 1];
    default:
      return undefined;
  }
}
