function counts(n) {
  return !n.seenAt && !n.readAt;
}
function inView(n, v) {
  if (v.filter === "unread" && n.readAt) return false;
  if (v.category !== null && n.category?.identifier !== v.category) return false;
  return true;
}
function unwrapNotification(data) {
  if (!data || typeof data !== "object") return null;
  const o = data;
  const n = o.notification && typeof o.notification === "object" ? o.notification : o;
  return typeof n.id === "number" ? n : null;
}
class InboxStore {
  constructor(listener = () => {
  }) {
    this.listener = listener;
    this.state = {
      view: { filter: "all", category: null },
      notifications: [],
      unreadCount: 0,
      hasMore: false,
      loaded: false,
      connection: "connecting"
    };
  }
  set(patch) {
    this.state = { ...this.state, ...patch };
    this.listener(this.state);
  }
  /** Starts a new view: the list empties until its first page arrives. */
  setView(view) {
    this.set({ view, notifications: [], hasMore: false, loaded: false });
  }
  setConnection(connection) {
    if (connection !== this.state.connection) this.set({ connection });
  }
  setUnreadCount(n) {
    if (n !== this.state.unreadCount) this.set({ unreadCount: Math.max(0, n) });
  }
  /**
   * Takes a page of the view. Page 1 replaces the list but keeps newer notifications that
   * arrived by realtime meanwhile; later pages append what is not there yet.
   */
  page(pageNo, items, totalCount, unreadCount) {
    let list;
    if (pageNo === 1) {
      const ids = new Set(items.map((n) => n.id));
      const newest = items.length ? items[0].id : 0;
      const kept = this.state.notifications.filter((n) => !ids.has(n.id) && n.id > newest && inView(n, this.state.view));
      list = [...kept, ...items];
    } else {
      const ids = new Set(this.state.notifications.map((n) => n.id));
      list = [...this.state.notifications, ...items.filter((n) => !ids.has(n.id))];
    }
    this.set({ notifications: list, hasMore: list.length < totalCount, loaded: true, unreadCount });
  }
  find(id) {
    return this.state.notifications.find((n) => n.id === id);
  }
  /** A new notification from realtime; returns false when it was already known. */
  added(n) {
    if (this.find(n.id)) return false;
    const patch = {};
    if (counts(n)) patch.unreadCount = this.state.unreadCount + 1;
    if (inView(n, this.state.view)) {
      patch.notifications = [n, ...this.state.notifications].sort((a, b) => b.id - a.id);
    }
    this.set(patch);
    return true;
  }
  /** Replaces a notification (an interaction elsewhere); adjusts the count. */
  replaced(n) {
    const old = this.find(n.id);
    if (!old) return;
    const delta = (counts(n) ? 1 : 0) - (counts(old) ? 1 : 0);
    this.set({
      notifications: this.state.notifications.map((x) => x.id === n.id ? n : x).filter((x) => inView(x, this.state.view) || x.id === n.id),
      unreadCount: Math.max(0, this.state.unreadCount + delta)
    });
  }
  /**
   * Changes one notification and returns the change that undoes it (optimistic updates
   * roll back with it). Undefined when the notification is not loaded.
   */
  update(id, change) {
    const old = this.find(id);
    if (!old) return void 0;
    const next = change(old);
    const delta = (counts(next) ? 1 : 0) - (counts(old) ? 1 : 0);
    this.set({
      notifications: this.state.notifications.map((x) => x.id === id ? next : x),
      unreadCount: Math.max(0, this.state.unreadCount + delta)
    });
    return () => {
      const cur = this.find(id);
      const d = (counts(old) ? 1 : 0) - (cur ? counts(cur) ? 1 : 0 : 0);
      const list = cur ? this.state.notifications.map((x) => x.id === id ? old : x) : [...this.state.notifications, old].sort((a, b) => b.id - a.id);
      this.set({ notifications: list, unreadCount: Math.max(0, this.state.unreadCount + d) });
    };
  }
  /** Removes one notification; returns the undo (or undefined when not loaded). */
  remove(id) {
    const old = this.find(id);
    if (!old) return void 0;
    this.set({
      notifications: this.state.notifications.filter((x) => x.id !== id),
      unreadCount: Math.max(0, this.state.unreadCount - (counts(old) ? 1 : 0))
    });
    return () => {
      if (this.find(id)) return;
      this.set({
        notifications: [...this.state.notifications, old].sort((a, b) => b.id - a.id),
        unreadCount: this.state.unreadCount + (counts(old) ? 1 : 0)
      });
    };
  }
  /** Marks every loaded notification read; returns the undo. */
  allRead(at) {
    const before = this.state;
    this.set({
      notifications: this.state.notifications.map((n) => n.readAt ? n : { ...n, readAt: at }).filter((n) => inView(n, this.state.view)),
      unreadCount: 0
    });
    return () => this.set({ notifications: before.notifications, unreadCount: before.unreadCount });
  }
  /** Empties the inbox (every notification deleted); returns the undo. */
  allDeleted() {
    const before = this.state;
    this.set({ notifications: [], unreadCount: 0, hasMore: false });
    return () => this.set({ notifications: before.notifications, unreadCount: before.unreadCount, hasMore: before.hasMore });
  }
}
export {
  InboxStore,
  counts,
  inView,
  unwrapNotification
};
