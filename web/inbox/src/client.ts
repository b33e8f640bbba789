// The headless Herald inbox client: the v3 user calls, realtime (Socket.IO, SSE as the
// fallback), counts kept in sync from events and optimistic updates rolled back on error.
import { io, type Socket } from "socket.io-client";
import type { components } from "./api.gen.js";
import { InboxStore, unwrapNotification, type InboxState, type Notification, type Preference, type View, type Channel, type Category } from "./state.js";

export type { InboxState, Notification, Preference, View, Channel, Category };
/** What /v3/sdk/connect answers: the unread count and the app's public settings. */
export type Connection = components["schemas"]["Connection"];
/** A user's switches for one workflow (GET /v3/preferences/workflows). */
export type FlowPreference = components["schemas"]["FlowPreference"];
/** A user's quiet hours and time zone (GET /v3/preferences/quiet-hours). */
export type QuietHours = components["schemas"]["QuietHours"];
/** What PUT /v3/preferences/quiet-hours takes. */
export type QuietHoursUpdate = components["schemas"]["QuietHoursUpdate"];
/** The user's switch for each channel as a whole (GET /v3/preferences/channels). */
export type ChannelSwitches = components["schemas"]["ChannelSwitches"];

/** Options of a HeraldClient. */
export interface HeraldClientOptions {
  /** The app's API key (public: it names the app, it does not authorise on its own). */
  apiKey: string;
  /** The user identifier (user mode). Give this or userToken. */
  userId?: string;
  /** The user's JWT signed by the app's key (secure mode). */
  userToken?: string;
  /** Called for a fresh user JWT when the current one is refused (secure mode). */
  refreshUserToken?: () => Promise<string>;
  /** Herald's base URL, e.g. https://herald.example.com. */
  baseUrl: string;
  /** Page size of the list (1-20). */
  pageSize?: number;
  /** Header name prefix of the Herald deployment (default X-SERVICE-). */
  headerPrefix?: string;
  /** Realtime transports to try, in order; "sse" is used when Socket.IO cannot connect. */
  realtime?: boolean;
}

/** The events a HeraldClient emits, with their payloads. */
export interface HeraldEvents {
  /** A new notification arrived in realtime. */
  notification: Notification;
  /** The unread count changed. */
  unreadCount: number;
  /** The user clicked a notification (it is marked read and clicked). */
  click: Notification;
  /** The state changed (any render-worthy change). */
  change: InboxState;
  /** A call failed (optimistic changes were rolled back). */
  error: Error;
}

/** An error answer of the API. */
export class HeraldError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "HeraldError";
  }
}

type Handler<T> = (payload: T) => void;

/** Knobs of the realtime back-off, exposed for tests. */
export const realtimeBackoff = { delay: 1000, delayMax: 30000, randomization: 0.5, socketAttemptsBeforeSSE: 3 };

/** The headless inbox client. */
export class HeraldClient {
  readonly store: InboxStore;
  readonly opts: Required<Pick<HeraldClientOptions, "pageSize" | "headerPrefix">> & HeraldClientOptions;
  private handlers: Partial<Record<keyof HeraldEvents, Set<Handler<never>>>> = {};
  private socket?: Socket;
  private sse?: EventSource;
  private pageNo = 0;
  private loading?: Promise<void>;
  private lastCount = -1;
  /** Counts the realtime events applied (refresh reads again when one came meanwhile). */
  private events = 0;
  private closed = false;
  /** Counts start() and stop() calls: a start overtaken by a stop (or another start) opens nothing. */
  private run = 0;
  private deviceId: string;
  /** The app's settings from /v3/sdk/connect, once connected. */
  connection?: Connection;

  constructor(options: HeraldClientOptions) {
    if (!options.apiKey) throw new Error("herald: apiKey is required");
    if (!options.userId && !options.userToken) throw new Error("herald: userId or userToken is required");
    this.opts = { pageSize: 15, headerPrefix: "X-SERVICE-", realtime: true, ...options, baseUrl: options.baseUrl.replace(/\/+$/, "") };
    this.store = new InboxStore((s) => this.stateChanged(s));
    this.deviceId = deviceId();
  }

  /** Subscribes to an event; returns the unsubscribe function. */
  on<K extends keyof HeraldEvents>(event: K, handler: Handler<HeraldEvents[K]>): () => void {
    const set = (this.handlers[event] ??= new Set()) as unknown as Set<Handler<HeraldEvents[K]>>;
    set.add(handler);
    return () => void set.delete(handler);
  }

  private emit<K extends keyof HeraldEvents>(event: K, payload: HeraldEvents[K]): void {
    for (const h of (this.handlers[event] ?? []) as unknown as Set<Handler<HeraldEvents[K]>>) {
      try {
        h(payload);
      } catch (e) {
        console.warn("herald: an event handler threw", e);
      }
    }
  }

  private stateChanged(s: InboxState): void {
    if (s.unreadCount !== this.lastCount) {
      this.lastCount = s.unreadCount;
      this.emit("unreadCount", s.unreadCount);
    }
    this.emit("change", s);
  }

  get state(): InboxState {
    return this.store.state;
  }

  // ---- HTTP ----------------------------------------------------------------------------

  private headers(json: boolean): Record<string, string> {
    const p = this.opts.headerPrefix;
    const h: Record<string, string> = { [p + "API-KEY"]: this.opts.apiKey };
    if (this.opts.userToken) h.Authorization = "Bearer " + this.opts.userToken;
    else if (this.opts.userId) h[p + "USER-ID"] = this.opts.userId;
    if (json) h["Content-Type"] = "application/json";
    return h;
  }

  /**
   * Calls the v3 API. The apiKey query parameter names the app in CORS preflights (which
   * carry no headers). A refused token is refreshed once through refreshUserToken.
   */
  async request<T>(method: string, path: string, body?: unknown, extra?: Record<string, string>, retried = false): Promise<T> {
    const url = new URL(this.opts.baseUrl + "/v3" + path);
    url.searchParams.set("apiKey", this.opts.apiKey);
    const res = await fetch(url, {
      method,
      headers: { ...this.headers(body !== undefined), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
    });
    if (res.status === 401 && this.opts.userToken && this.opts.refreshUserToken && !retried) {
      this.opts.userToken = await this.opts.refreshUserToken();
      return this.request<T>(method, path, body, extra, true);
    }
    const text = await res.text();
    const data = text ? JSON.parse(text) : undefined;
    if (!res.ok) {
      const m = data?.message;
      throw new HeraldError(res.status, Array.isArray(m) ? m.join("; ") : String(m ?? res.statusText));
    }
    return data as T;
  }

  // ---- lifecycle -----------------------------------------------------------------------

  /** Connects the device, loads the first page and opens the realtime connection. */
  async start(): Promise<void> {
    this.closed = false;
    const run = ++this.run;
    try {
      this.connection = await this.request<Connection>("POST", "/sdk/connect", { deviceType: "browser" }, { [this.opts.headerPrefix + "DEVICE-ID"]: this.deviceId });
      this.store.setUnreadCount(this.connection.unreadCount);
    } catch (e) {
      this.store.setConnection("offline");
      throw e;
    }
    await this.setView(this.store.state.view);
    if (this.opts.realtime !== false && run === this.run) this.connectRealtime();
  }

  /** Closes the realtime connection. */
  stop(): void {
    this.closed = true;
    this.run++;
    this.socket?.close();
    this.socket = undefined;
    this.sse?.close();
    this.sse = undefined;
  }

  /** Replaces the user JWT (secure mode), e.g. after the host app refreshed it. */
  setUserToken(token: string): void {
    this.opts.userToken = token;
  }

  // ---- list ----------------------------------------------------------------------------

  /** Switches the list to another view and loads its first page. */
  async setView(view: View): Promise<void> {
    this.store.setView(view);
    this.pageNo = 0;
    this.loading = undefined;
    await this.loadMore();
  }

  /** Loads the next page of the current view (infinite scroll). */
  loadMore(): Promise<void> {
    if (this.loading) return this.loading;
    if (this.store.state.loaded && !this.store.state.hasMore) return Promise.resolve();
    const view = this.store.state.view;
    const pageNo = this.pageNo + 1;
    const p = this.fetchPage(view, pageNo)
      .then((page) => {
        if (view !== this.store.state.view) return;
        this.pageNo = pageNo;
        this.store.page(pageNo, page.data, pageNo * this.opts.pageSize < page.pagination.totalCount, page.unreadCount);
      })
      .finally(() => {
        if (this.loading === p) this.loading = undefined;
      });
    this.loading = p;
    return p;
  }

  private fetchPage(view: View, pageNo: number) {
    const q = new URLSearchParams({ pageNo: String(pageNo), limit: String(this.opts.pageSize) });
    if (view.filter === "unread") q.set("filter", "unread");
    if (view.category) q.set("category", view.category);
    return this.request<components["schemas"]["NotificationPage"]>("GET", "/notifications?" + q);
  }

  /**
   * Reloads the first page (after a reconnection: notifications missed meanwhile appear).
   * A realtime event applied while the page was on its way is missing from it (a
   * notification sent just after the connection opened): the page is read again rather
   * than let the stale one take the item out of the list and the count.
   */
  async refresh(): Promise<void> {
    let view = this.store.state.view;
    let seen = this.events;
    let page = await this.fetchPage(view, 1);
    for (let again = 0; this.events !== seen && again < 3; again++) {
      view = this.store.state.view;
      seen = this.events;
      page = await this.fetchPage(view, 1);
    }
    if (view !== this.store.state.view) return;
    for (const n of page.data) if (!this.store.find(n.id) && this.pageNo > 0) this.emit("notification", n);
    // The list is page 1 again (older pages loaded before are dropped): the next loadMore
    // reads page 2, not the page after the last one loaded before the reconnection.
    this.pageNo = 1;
    this.store.page(1, page.data, this.opts.pageSize < page.pagination.totalCount, page.unreadCount);
  }

  // ---- actions (optimistic) ------------------------------------------------------------

  private async optimistic<T>(undo: (() => void) | undefined, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      undo?.();
      const err = e instanceof Error ? e : new Error(String(e));
      this.emit("error", err);
      throw err;
    }
  }

  /** Marks one notification read. */
  markRead(id: number): Promise<unknown> {
    const now = new Date().toISOString();
    const undo = this.store.update(id, (n) => (n.readAt ? n : { ...n, readAt: now }));
    return this.optimistic(undo, () => this.request("POST", `/notifications/${id}/reads`));
  }

  /** Marks one notification unread again. */
  markUnread(id: number): Promise<unknown> {
    const undo = this.store.update(id, (n) => ({ ...n, readAt: null, clickedAt: null }));
    return this.optimistic(undo, () => this.request("DELETE", `/notifications/${id}/reads`));
  }

  /** Records a click: read and clicked on the server; emits "click". */
  async click(id: number): Promise<void> {
    const now = new Date().toISOString();
    const n = this.store.find(id);
    const undo = this.store.update(id, (x) => ({ ...x, readAt: x.readAt ?? now, clickedAt: now }));
    if (n) this.emit("click", n);
    await this.optimistic(undo, () => this.request("POST", `/notifications/${id}/click`));
  }

  /** Marks every notification read. */
  markAllRead(): Promise<unknown> {
    const undo = this.store.allRead(new Date().toISOString());
    return this.optimistic(undo, () => this.request("POST", "/notifications/markAllNotificationsAsRead"));
  }

  /** Marks every notification seen (resets the badge). */
  markAllSeen(): Promise<unknown> {
    const before = this.store.state.unreadCount;
    this.store.setUnreadCount(0);
    return this.optimistic(
      () => this.store.setUnreadCount(before),
      () => this.request("POST", "/notifications/markAllNotificationsAsSeen", { page: 1, limit: 20 }),
    );
  }

  /** Archives a notification: it is marked read, its state becomes "archived" and it leaves the list. */
  archive(id: number): Promise<unknown> {
    const wasRead = !!this.store.find(id)?.readAt;
    const undo = this.store.remove(id);
    return this.optimistic(undo, async () => {
      if (!wasRead) await this.request("POST", `/notifications/${id}/reads`);
      return this.request("PUT", `/notifications/${id}/state`, { state: "archived" });
    });
  }

  /**
   * Sets a notification's state (a state button: "approved"): the item changes at once and
   * rolls back when Herald refuses; every other tab gets it over realtime.
   */
  async setState(id: number, state: string): Promise<Notification> {
    const undo = this.store.update(id, (n) => ({ ...n, state }));
    const n = await this.optimistic(undo, () => this.request<Notification>("PUT", `/notifications/${id}/state`, { state }));
    this.store.replaced(n);
    return n;
  }

  /**
   * Snoozes a notification until a time: it leaves the list and the count at once (back on
   * refusal) and comes back unread then, pushed over realtime.
   */
  snooze(id: number, until: Date): Promise<components["schemas"]["Snoozed"]> {
    const undo = this.store.remove(id);
    return this.optimistic(undo, () => this.request("PUT", `/notifications/${id}/snooze`, { until: until.toISOString() }));
  }

  /** Brings a snoozed notification back now, unread. */
  async unsnooze(id: number): Promise<Notification> {
    const n = await this.request<Notification>("DELETE", `/notifications/${id}/snooze`);
    this.store.added(n);
    return n;
  }

  /** Deletes a notification. */
  delete(id: number): Promise<unknown> {
    const undo = this.store.remove(id);
    return this.optimistic(undo, () => this.request("DELETE", `/notifications/${id}`));
  }

  // ---- preferences and profile ---------------------------------------------------------

  /** The user's preferences: per category, each channel on or off. */
  preferences(): Promise<Preference[]> {
    return this.request<Preference[]>("GET", "/preferences");
  }

  /** Turns one channel of one category on or off. */
  setPreference(categoryId: number, channel: Channel, enabled: boolean): Promise<unknown> {
    return this.request("PATCH", "/preferences", { preference: [{ categoryId, channels: [{ channel, enabled }] }] });
  }

  /** The user's profile. */
  profile(): Promise<components["schemas"]["Profile"]> {
    return this.request("GET", "/profile");
  }

  /** Changes fields of the user's profile (JSON Patch). */
  patchProfile(ops: components["schemas"]["JsonPatch"]): Promise<components["schemas"]["Profile"]> {
    return this.request("PATCH", "/profile", ops);
  }

  // ---- realtime ------------------------------------------------------------------------

  private async realtimeToken(): Promise<{ token: string; endpoint: string; path: string; sse: string }> {
    return this.request("POST", "/sdk/realtimeTokenRequests");
  }

  private handleEvent(name: string, data: unknown): void {
    this.events++;
    const d = (data ?? {}) as Record<string, unknown>;
    switch (name) {
      case "NEW_NOTIFICATION": {
        const n = unwrapNotification(data);
        if (n && this.store.added(n)) this.emit("notification", n);
        break;
      }
      case "NOTIFICATION_INTERACTED": {
        const n = unwrapNotification(data);
        if (n) this.store.replaced(n);
        break;
      }
      case "NOTIFICATION_READ": {
        const id = Number(d.id);
        const now = new Date().toISOString();
        if (!this.store.update(id, (n) => (n.readAt ? n : { ...n, readAt: now }))) void this.syncCount();
        break;
      }
      case "NOTIFICATION_DELETED":
        if (!this.store.remove(Number(d.id))) void this.syncCount();
        break;
      case "NOTIFICATION_SNOOZED":
        // Snoozing cleared its read and seen times: Herald's count is the truth.
        this.store.remove(Number(d.id));
        void this.syncCount();
        break;
      case "NOTIFICATION_SEEN":
        if (typeof d.unreadNotificationCount === "number") this.store.setUnreadCount(d.unreadNotificationCount);
        break;
      case "ALL_NOTIFICATION_READ":
        this.store.allRead(new Date().toISOString());
        break;
      case "ALL_NOTIFICATION_DELETED":
        this.store.allDeleted();
        break;
    }
  }

  /** Reads the unread count again (an event named a notification not loaded here). */
  private async syncCount(): Promise<void> {
    try {
      const page = await this.request<components["schemas"]["NotificationPage"]>("GET", "/notifications?limit=1");
      this.store.setUnreadCount(page.unreadCount);
    } catch {
      /* the next event or reconnection corrects it */
    }
  }

  /**
   * The realtime connection is up. The first page is read again on every connection, the
   * first included: what arrived between the initial load and this moment, or while
   * disconnected, was pushed to nobody.
   */
  private online(): void {
    this.store.setConnection("online");
    void this.refresh().catch((e) => this.emit("error", e));
  }

  /**
   * Opens Socket.IO (WebSocket first, then HTTP long-polling), reconnecting with
   * exponential back-off; a fresh realtime token is fetched for each attempt. When no
   * attempt ever connects (both transports blocked), switches to Server-Sent Events.
   */
  private connectRealtime(): void {
    let failures = 0;
    let everConnected = false;
    const socket = io(this.opts.baseUrl, {
      path: "/socket.io/",
      // WebSocket first; when it cannot open, HTTP long-polling (tryAllTransports).
      transports: ["websocket", "polling"],
      tryAllTransports: true,
      query: { apiKey: this.opts.apiKey },
      auth: (cb) => {
        this.realtimeToken().then(
          (t) => cb({ token: t.token }),
          () => cb({}),
        );
      },
      reconnection: true,
      reconnectionDelay: realtimeBackoff.delay,
      reconnectionDelayMax: realtimeBackoff.delayMax,
      randomizationFactor: realtimeBackoff.randomization,
      timeout: 10000,
    });
    this.socket = socket;
    socket.on("connect", () => {
      everConnected = true;
      failures = 0;
      this.online();
    });
    socket.on("disconnect", () => this.store.setConnection("offline"));
    socket.on("connect_error", () => {
      this.store.setConnection("offline");
      failures++;
      if (!everConnected && failures >= realtimeBackoff.socketAttemptsBeforeSSE && typeof EventSource !== "undefined") {
        socket.close();
        this.socket = undefined;
        void this.connectSSE(0);
      }
    });
    socket.onAny((name: string, data: unknown) => this.handleEvent(name, data));
  }

  /** Server-Sent Events: the fallback when Socket.IO cannot connect. */
  private async connectSSE(attempt: number): Promise<void> {
    if (this.closed) return;
    let url: string;
    try {
      const t = await this.realtimeToken();
      url = t.sse + "?token=" + encodeURIComponent(t.token) + "&apiKey=" + encodeURIComponent(this.opts.apiKey);
    } catch {
      return this.retrySSE(attempt);
    }
    const es = new EventSource(url);
    this.sse = es;
    es.onopen = () => {
      attempt = 0;
      this.online();
    };
    es.onerror = () => {
      // The realtime token is short-lived: reconnect with a fresh one.
      es.close();
      this.store.setConnection("offline");
      this.retrySSE(attempt + 1);
    };
    for (const name of ["NEW_NOTIFICATION", "NOTIFICATION_READ", "NOTIFICATION_SEEN", "NOTIFICATION_DELETED", "NOTIFICATION_INTERACTED", "ALL_NOTIFICATION_READ", "ALL_NOTIFICATION_DELETED"]) {
      es.addEventListener(name, (ev) => this.handleEvent(name, JSON.parse((ev as MessageEvent).data || "{}")));
    }
  }

  private retrySSE(attempt: number): void {
    if (this.closed) return;
    setTimeout(() => void this.connectSSE(attempt), backoff(attempt));
  }

  /** Test hook: drops the realtime connection as a network failure would. */
  dropRealtime(): void {
    this.socket?.io.engine?.close();
  }

  // ---- web push ------------------------------------------------------------------------

  /**
   * Subscribes this browser to web push with the app's VAPID key and registers the
   * subscription. serviceWorkerUrl is the herald-sw.js file the host app serves from its own
   * origin (service workers must be same-origin). Asks the user's permission.
   */
  async enableWebPush(serviceWorkerUrl = "/herald-sw.js"): Promise<PushSubscription> {
    const key = this.connection?.app.publicKey;
    if (!this.connection?.app.enableWebPush || !key) throw new Error("herald: web push is not enabled for this app");
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error("herald: this browser has no web push");
    const reg = await navigator.serviceWorker.register(serviceWorkerUrl);
    const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64url(key) });
    await this.request("POST", `/devices/${encodeURIComponent(this.deviceId)}/webPushSubscription`, sub.toJSON());
    return sub;
  }
}

/** The delay before realtime attempt n (exponential with jitter, capped). */
export function backoff(attempt: number, random = Math.random): number {
  const base = Math.min(realtimeBackoff.delayMax, realtimeBackoff.delay * 2 ** attempt);
  const jitter = base * realtimeBackoff.randomization * (random() * 2 - 1);
  return Math.max(0, Math.min(realtimeBackoff.delayMax, Math.round(base + jitter)));
}

function deviceId(): string {
  const key = "herald.deviceId";
  try {
    const v = globalThis.localStorage?.getItem(key);
    if (v) return v;
    const id = "web-" + (globalThis.crypto?.randomUUID?.() ?? Math.random().toString(36).slice(2));
    globalThis.localStorage?.setItem(key, id);
    return id;
  } catch {
    return "web-" + Math.random().toString(36).slice(2);
  }
}

function base64url(s: string): ArrayBuffer {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer as ArrayBuffer;
}
