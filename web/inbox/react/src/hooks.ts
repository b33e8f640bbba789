// The hooks: the inbox state (useSyncExternalStore over the client's store, so React 18's
// concurrent rendering never tears), its actions, the unread count, the preferences and
// the client's events.
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { Channel, HeraldClient, HeraldEvents, InboxState, Notification, Preference, View } from "@heraldhq/inbox/client";
import { useHeraldContext } from "./context.js";
import { useSettings, type PreferenceSettings } from "./settings.js";

/** The state before anything loaded: what the server renders and hydration starts from. */
export const INITIAL_STATE: InboxState = Object.freeze({
  view: Object.freeze({ filter: "all", category: null }) as View,
  notifications: [],
  unreadCount: 0,
  hasMore: false,
  loaded: false,
  connection: "connecting",
}) as InboxState;

const noSubscription = () => () => {};

/** The provider's headless client (null on the server). */
export function useHeraldClient(): HeraldClient | null {
  return useHeraldContext().client;
}

/** A value read from the inbox state, kept current; `read` must return a stable value. */
function useInboxSelector<T>(read: (s: InboxState) => T): T {
  const client = useHeraldClient();
  const subscribe = useMemo(() => (client ? (cb: () => void) => client.on("change", cb) : noSubscription), [client]);
  return useSyncExternalStore(
    subscribe,
    () => read(client ? client.state : INITIAL_STATE),
    () => read(INITIAL_STATE),
  );
}

/** The whole inbox state (list, view, unread count, connection). */
export function useInboxState(): InboxState {
  return useInboxSelector((s) => s);
}

/** The unread count (the badge), updated in realtime. */
export function useUnreadCount(): number {
  return useInboxSelector((s) => s.unreadCount);
}

/** Actions on the inbox. Each one is optimistic and rolls back when Herald refuses it. */
export interface InboxActions {
  /** Marks one notification read. */
  markRead(id: number): Promise<unknown>;
  /** Marks one notification unread again. */
  markUnread(id: number): Promise<unknown>;
  /** Marks one notification seen (it leaves the badge, and stays unread). */
  markSeen(id: number): Promise<unknown>;
  /** Marks every notification read. */
  markAllRead(): Promise<unknown>;
  /** Marks every notification seen (the badge goes to 0). */
  markAllSeen(): Promise<unknown>;
  /** Archives one notification (read, state "archived", out of the list). */
  archive(id: number): Promise<unknown>;
  /** Deletes one notification. */
  remove(id: number): Promise<unknown>;
  /** Records a click (read and clicked); the client emits "click". */
  click(id: number): Promise<void>;
  /** Sets a notification's state (an approval's "approved"); every tab sees it. */
  setState(id: number, state: string): Promise<Notification>;
  /** Snoozes a notification until a time: it leaves the list and the count, and comes back unread then. */
  snooze(id: number, until: Date): Promise<unknown>;
  /** Brings a snoozed notification back now, unread. */
  unsnooze(id: number): Promise<Notification>;
  /** Loads the next page of the current view. */
  loadMore(): Promise<void>;
  /** Switches the list to another view (filter and category) and loads its first page. */
  setView(view: View): Promise<void>;
  /** Reads the first page again. */
  refresh(): Promise<void>;
}

const offline = () => Promise.reject(new Error("herald: the inbox is not connected (server rendering, or no provider options)"));

/** The actions, bound to the provider's client. */
export function useInboxActions(): InboxActions {
  const client = useHeraldClient();
  return useMemo<InboxActions>(() => {
    if (!client) {
      return { markRead: offline, markUnread: offline, markSeen: offline, markAllRead: offline, markAllSeen: offline, archive: offline, remove: offline, click: offline, setState: offline, snooze: offline, unsnooze: offline, loadMore: offline, setView: offline, refresh: offline };
    }
    return {
      markRead: (id) => client.markRead(id),
      markUnread: (id) => client.markUnread(id),
      markSeen: (id) => markSeen(client, id),
      markAllRead: () => client.markAllRead(),
      markAllSeen: () => client.markAllSeen(),
      archive: (id) => client.archive(id),
      remove: (id) => client.delete(id),
      click: (id) => client.click(id),
      setState: (id, state) => client.setState(id, state),
      snooze: (id, until) => client.snooze(id, until),
      unsnooze: (id) => client.unsnooze(id),
      loadMore: () => client.loadMore(),
      setView: (v) => client.setView(v),
      refresh: () => client.refresh(),
    };
  }, [client]);
}

/**
 * Marks one notification seen: POST /v3/notifications/{id}/views, with the loaded item
 * updated at once and restored when Herald refuses. Seen notifications leave the badge.
 */
async function markSeen(client: HeraldClient, id: number): Promise<unknown> {
  const now = new Date().toISOString();
  const undo = client.store.update(id, (n) => (n.seenAt ? n : { ...n, seenAt: now }));
  try {
    return await client.request("POST", `/notifications/${id}/views`);
  } catch (e) {
    undo?.();
    throw e;
  }
}

/** Options of useNotifications. */
export interface UseNotificationsOptions {
  /** "all" (default) or "unread". */
  filter?: View["filter"];
  /** A category identifier; null or absent for every category. */
  category?: string | null;
}

/** What useNotifications returns: the list, its paging and the actions. */
export interface UseNotificationsResult extends InboxActions {
  notifications: Notification[];
  unreadCount: number;
  /** Whether another page can be loaded (loadMore). */
  hasMore: boolean;
  /** Whether the first page of the view has arrived. */
  loaded: boolean;
  /** Whether loadMore is fetching a page. */
  loadingMore: boolean;
  /** The realtime connection. */
  connection: InboxState["connection"];
  /** The view shown. */
  view: View;
  /** Why the inbox could not be loaded, or null. */
  error: Error | null;
  /** Starts the client again after an error. */
  retry: () => void;
}

/**
 * The notifications of the provider's inbox, updated in realtime, with paging and actions.
 * With a filter or category, the provider's list switches to that view (a provider has one
 * list: use a provider per view to show two views at once).
 */
export function useNotifications(options: UseNotificationsOptions = {}): UseNotificationsResult {
  const { client, error, retry } = useHeraldContext();
  const state = useInboxState();
  const actions = useInboxActions();
  const filter = options.filter;
  const category = options.category;
  useEffect(() => {
    if (!client || (filter === undefined && category === undefined)) return;
    const v = client.state.view;
    const want: View = { filter: filter ?? "all", category: category ?? null };
    if (v.filter !== want.filter || v.category !== want.category) void client.setView(want).catch(() => {});
  }, [client, filter, category]);

  const [loadingMore, setLoadingMore] = useState(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  const loadMore = useCallback(() => {
    setLoadingMore(true);
    return actions.loadMore().finally(() => mounted.current && setLoadingMore(false));
  }, [actions]);

  return {
    ...actions,
    loadMore,
    notifications: state.notifications,
    unreadCount: state.unreadCount,
    hasMore: state.hasMore,
    loaded: state.loaded,
    loadingMore,
    connection: state.connection,
    view: state.view,
    error,
    retry,
  };
}

/** What usePreferences returns: the category switches, and (PreferenceSettings) the workflows, channels, quiet hours and time zone. */
export interface UsePreferencesResult extends PreferenceSettings {
  /** Per category, each channel on or off; undefined while loading (and on the server). */
  preferences: Preference[] | undefined;
  loading: boolean;
  error: Error | null;
  /** Turns one channel of one category on or off (optimistic, rolled back on refusal). */
  setPreference(categoryId: number, channel: Channel, enabled: boolean): Promise<void>;
  /** Reads the preferences again. */
  reload(): Promise<void>;
}

/** The user's notification preferences, loaded on mount. */
export function usePreferences(): UsePreferencesResult {
  const client = useHeraldClient();
  const [preferences, setPreferences] = useState<Preference[] | undefined>(undefined);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(false);
  const current = useRef(client);
  current.current = client;
  const { load, ...settings } = useSettings(client);

  const reload = useCallback(async () => {
    if (!client) return;
    setLoading(true);
    setError(null);
    try {
      const [p] = await Promise.all([client.preferences(), load()]);
      if (current.current === client) setPreferences(p);
    } catch (e) {
      if (current.current === client) setError(e instanceof Error ? e : new Error(String(e)));
    } finally {
      if (current.current === client) setLoading(false);
    }
  }, [client, load]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const setPreference = useCallback(
    async (categoryId: number, channel: Channel, enabled: boolean) => {
      if (!client) throw new Error("herald: the inbox is not connected");
      const set = (on: boolean) =>
        setPreferences((ps) =>
          ps?.map((x) => (x.category.id !== categoryId ? x : { ...x, channelPreferences: x.channelPreferences.map((c) => (c.channel === channel ? { ...c, enabled: on } : c)) })),
        );
      set(enabled);
      try {
        await client.setPreference(categoryId, channel, enabled);
      } catch (e) {
        set(!enabled);
        throw e;
      }
    },
    [client],
  );

  // Loading until the first answer, on the server too: hydration renders what the server did.
  return { preferences, loading: loading || (preferences === undefined && !error), error, setPreference, reload, ...settings };
}

/**
 * Calls handler on each event of the client: "notification" (a new one in realtime),
 * "unreadCount", "click", "change" or "error". The latest handler is called; it need not
 * be memoised.
 */
export function useHeraldEvent<K extends keyof HeraldEvents>(event: K, handler: (payload: HeraldEvents[K]) => void): void {
  const client = useHeraldClient();
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    if (!client) return;
    return client.on(event, (p) => latest.current(p));
  }, [client, event]);
}
