// The inbox state the client keeps: the loaded page(s) of the current view and the unread
// count, changed by API answers, realtime events and optimistic updates. Pure: no I/O, so
// unit tests drive it directly.
import type { components } from "./api.gen.js";

/** A notification of the user's inbox, as the v3 API returns it. */
export type Notification = components["schemas"]["Notification"];
/** A category (id, identifier, name). */
export type Category = components["schemas"]["Category"];
/** One category's channel switches. */
export type Preference = components["schemas"]["Preference"];
/** A notification channel identifier. */
export type Channel = components["schemas"]["Channel"];

/** Which notifications the list shows. */
export interface View {
  /** "all", or only notifications not read yet. */
  filter: "all" | "unread";
  /** A category identifier, or null for every category. */
  category: string | null;
}

/** A snapshot of the inbox for rendering. */
export interface InboxState {
  view: View;
  notifications: Notification[];
  /** Notifications neither seen nor read: the badge. */
  unreadCount: number;
  /** Whether another page can be loaded. */
  hasMore: boolean;
  /** Whether the first page of the view has been loaded. */
  loaded: boolean;
  /** The realtime connection. */
  connection: "connecting" | "online" | "offline";
}

/** The state an archived notification has: the list leaves it out. */
export const ARCHIVED = "archived";

/** Whether a notification counts in the badge (neither seen nor read). */
export function counts(n: Notification): boolean {
  return !n.seenAt && !n.readAt;
}

/** Whether a notification belongs in a view. */
export function inView(n: Notification, v: View): boolean {
  if (v.filter === "unread" && n.readAt) return false;
  if (v.category !== null && n.category?.identifier !== v.category) return false;
  return true;
}

/** The payload of NEW_NOTIFICATION: `{notification: {…}}`, or the bare notification. */
export function unwrapNotification(data: unknown): Notification | null {
  if (!data || typeof data !== "object") return null;
  const o = data as Record<string, unknown>;
  const n = (o.notification && typeof o.notification === "object" ? o.notification : o) as Notification;
  return typeof n.id === "number" ? n : null;
}

/** The store holding the state; every change notifies the listener. */
export class InboxStore {
  state: InboxState;
  private listener: (s: InboxState) => void;

  constructor(listener: (s: InboxState) => void = () => {}) {
    this.listener = listener;
    this.state = {
      view: { filter: "all", category: null },
      notifications: [],
      unreadCount: 0,
      hasMore: false,
      loaded: false,
      connection: "connecting",
    };
  }

  private set(patch: Partial<InboxState>): void {
    this.state = { ...this.state, ...patch };
    this.listener(this.state);
  }

  /** Starts a new view: the list empties until its first page arrives. */
  setView(view: View): void {
    this.set({ view, notifications: [], hasMore: false, loaded: false });
  }

  setConnection(connection: InboxState["connection"]): void {
    if (connection !== this.state.connection) this.set({ connection });
  }

  setUnreadCount(n: number): void {
    if (n !== this.state.unreadCount) this.set({ unreadCount: Math.max(0, n) });
  }

  /**
   * Takes a page of the view. Page 1 replaces the list but keeps newer notifications that
   * arrived by realtime meanwhile; later pages append what is not there yet.
   */
  page(pageNo: number, items: Notification[], hasMore: boolean, unreadCount: number): void {
    items = items.filter((n) => n.state !== ARCHIVED);
    let list: Notification[];
    if (pageNo === 1) {
      const ids = new Set(items.map((n) => n.id));
      const newest = items.length ? items[0].id : 0;
      const kept = this.state.notifications.filter((n) => !ids.has(n.id) && n.id > newest && inView(n, this.state.view));
      list = [...kept, ...items];
    } else {
      const ids = new Set(this.state.notifications.map((n) => n.id));
      list = [...this.state.notifications, ...items.filter((n) => !ids.has(n.id))];
    }
    this.set({ notifications: list, hasMore, loaded: true, unreadCount: unreadCount });
  }

  find(id: number): Notification | undefined {
    return this.state.notifications.find((n) => n.id === id);
  }

  /** A new notification from realtime; returns false when it was already known. */
  added(n: Notification): boolean {
    if (this.find(n.id) || n.state === ARCHIVED) return false;
    const patch: Partial<InboxState> = {};
    if (counts(n)) patch.unreadCount = this.state.unreadCount + 1;
    if (inView(n, this.state.view)) {
      patch.notifications = [n, ...this.state.notifications].sort((a, b) => b.id - a.id);
    }
    this.set(patch);
    return true;
  }

  /** Replaces a notification (an interaction elsewhere); adjusts the count. */
  replaced(n: Notification): void {
    const old = this.find(n.id);
    if (!old) return;
    const delta = (counts(n) ? 1 : 0) - (counts(old) ? 1 : 0);
    this.set({
      notifications: this.state.notifications.map((x) => (x.id === n.id ? n : x)).filter((x) => inView(x, this.state.view) || x.id === n.id),
      unreadCount: Math.max(0, this.state.unreadCount + delta),
    });
  }

  /**
   * Changes one notification and returns the change that undoes it (optimistic updates
   * roll back with it). Undefined when the notification is not loaded.
   */
  update(id: number, change: (n: Notification) => Notification): (() => void) | undefined {
    const old = this.find(id);
    if (!old) return undefined;
    const next = change(old);
    const delta = (counts(next) ? 1 : 0) - (counts(old) ? 1 : 0);
    this.set({
      notifications: this.state.notifications.map((x) => (x.id === id ? next : x)),
      unreadCount: Math.max(0, this.state.unreadCount + delta),
    });
    return () => {
      const cur = this.find(id);
      const d = (counts(old) ? 1 : 0) - (cur ? (counts(cur) ? 1 : 0) : 0);
      const list = cur ? this.state.notifications.map((x) => (x.id === id ? old : x)) : [...this.state.notifications, old].sort((a, b) => b.id - a.id);
      this.set({ notifications: list, unreadCount: Math.max(0, this.state.unreadCount + d) });
    };
  }

  /** Removes one notification; returns the undo (or undefined when not loaded). */
  remove(id: number): (() => void) | undefined {
    const old = this.find(id);
    if (!old) return undefined;
    this.set({
      notifications: this.state.notifications.filter((x) => x.id !== id),
      unreadCount: Math.max(0, this.state.unreadCount - (counts(old) ? 1 : 0)),
    });
    return () => {
      if (this.find(id)) return;
      this.set({
        notifications: [...this.state.notifications, old].sort((a, b) => b.id - a.id),
        unreadCount: this.state.unreadCount + (counts(old) ? 1 : 0),
      });
    };
  }

  /** Marks every loaded notification read; returns the undo. */
  allRead(at: string): () => void {
    const before = this.state;
    this.set({
      notifications: this.state.notifications
        .map((n) => (n.readAt ? n : { ...n, readAt: at }))
        .filter((n) => inView(n, this.state.view)),
      unreadCount: 0,
    });
    return () => this.set({ notifications: before.notifications, unreadCount: before.unreadCount });
  }

  /** Empties the inbox (every notification deleted); returns the undo. */
  allDeleted(): () => void {
    const before = this.state;
    this.set({ notifications: [], unreadCount: 0, hasMore: false });
    return () => this.set({ notifications: before.notifications, unreadCount: before.unreadCount, hasMore: before.hasMore });
  }
}
