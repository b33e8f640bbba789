import { io } from "socket.io-client";
import { InboxStore, unwrapNotification } from "./state.js";
class HeraldError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
    this.name = "HeraldError";
  }
}
const realtimeBackoff = { delay: 1e3, delayMax: 3e4, randomization: 0.5, socketAttemptsBeforeSSE: 3 };
class HeraldClient {
  constructor(options) {
    this.handlers = {};
    this.pageNo = 0;
    this.lastCount = -1;
    this.wasOnline = false;
    this.closed = false;
    if (!options.apiKey) throw new Error("herald: apiKey is required");
    if (!options.userId && !options.userToken) throw new Error("herald: userId or userToken is required");
    this.opts = { pageSize: 15, headerPrefix: "X-SERVICE-", realtime: true, ...options, baseUrl: options.baseUrl.replace(/\/+$/, "") };
    this.store = new InboxStore((s) => this.stateChanged(s));
    this.deviceId = deviceId();
  }
  /** Subscribes to an event; returns the unsubscribe function. */
  on(event, handler) {
    var _a;
    const set = (_a = this.handlers)[event] ?? (_a[event] = /* @__PURE__ */ new Set());
    set.add(handler);
    return () => void set.delete(handler);
  }
  emit(event, payload) {
    for (const h of this.handlers[event] ?? []) {
      try {
        h(payload);
      } catch (e) {
        console.warn("herald: an event handler threw", e);
      }
    }
  }
  stateChanged(s) {
    if (s.unreadCount !== this.lastCount) {
      this.lastCount = s.unreadCount;
      this.emit("unreadCount", s.unreadCount);
    }
    this.emit("change", s);
  }
  get state() {
    return this.store.state;
  }
  // ---- HTTP ----------------------------------------------------------------------------
  headers(json) {
    const p = this.opts.headerPrefix;
    const h = { [p + "API-KEY"]: this.opts.apiKey };
    if (this.opts.userToken) h.Authorization = "Bearer " + this.opts.userToken;
    else if (this.opts.userId) h[p + "USER-ID"] = this.opts.userId;
    if (json) h["Content-Type"] = "application/json";
    return h;
  }
  /**
   * Calls the v3 API. The apiKey query parameter names the app in CORS preflights (which
   * carry no headers). A refused token is refreshed once through refreshUserToken.
   */
  async request(method, path, body, extra, retried = false) {
    const url = new URL(this.opts.baseUrl + "/v3" + path);
    url.searchParams.set("apiKey", this.opts.apiKey);
    const res = await fetch(url, {
      method,
      headers: { ...this.headers(body !== void 0), ...extra },
      body: body === void 0 ? void 0 : JSON.stringify(body),
      credentials: "omit"
    });
    if (res.status === 401 && this.opts.userToken && this.opts.refreshUserToken && !retried) {
      this.opts.userToken = await this.opts.refreshUserToken();
      return this.request(method, path, body, extra, true);
    }
    const text = await res.text();
    const data = text ? JSON.parse(text) : void 0;
    if (!res.ok) {
      const m = data?.message;
      throw new HeraldError(res.status, Array.isArray(m) ? m.join("; ") : String(m ?? res.statusText));
    }
    return data;
  }
  // ---- lifecycle -----------------------------------------------------------------------
  /** Connects the device, loads the first page and opens the realtime connection. */
  async start() {
    this.closed = false;
    try {
      this.connection = await this.request("POST", "/sdk/connect", { deviceType: "browser" }, { [this.opts.headerPrefix + "DEVICE-ID"]: this.deviceId });
      this.store.setUnreadCount(this.connection.unreadCount);
    } catch (e) {
      this.store.setConnection("offline");
      throw e;
    }
    await this.setView(this.store.state.view);
    if (this.opts.realtime !== false) this.connectRealtime();
  }
  /** Closes the realtime connection. */
  stop() {
    this.closed = true;
    this.socket?.close();
    this.socket = void 0;
    this.sse?.close();
    this.sse = void 0;
  }
  /** Replaces the user JWT (secure mode), e.g. after the host app refreshed it. */
  setUserToken(token) {
    this.opts.userToken = token;
  }
  // ---- list ----------------------------------------------------------------------------
  /** Switches the list to another view and loads its first page. */
  async setView(view) {
    this.store.setView(view);
    this.pageNo = 0;
    this.loading = void 0;
    await this.loadMore();
  }
  /** Loads the next page of the current view (infinite scroll). */
  loadMore() {
    if (this.loading) return this.loading;
    if (this.store.state.loaded && !this.store.state.hasMore) return Promise.resolve();
    const view = this.store.state.view;
    const pageNo = this.pageNo + 1;
    const p = this.fetchPage(view, pageNo).then((page) => {
      if (view !== this.store.state.view) return;
      this.pageNo = pageNo;
      this.store.page(pageNo, page.data, page.pagination.totalCount, page.unreadCount);
    }).finally(() => {
      if (this.loading === p) this.loading = void 0;
    });
    this.loading = p;
    return p;
  }
  fetchPage(view, pageNo) {
    const q = new URLSearchParams({ pageNo: String(pageNo), limit: String(this.opts.pageSize) });
    if (view.filter === "unread") q.set("filter", "unread");
    if (view.category) q.set("category", view.category);
    return this.request("GET", "/notifications?" + q);
  }
  /** Reloads the first page (after a reconnection: notifications missed meanwhile appear). */
  async refresh() {
    const view = this.store.state.view;
    const page = await this.fetchPage(view, 1);
    if (view !== this.store.state.view) return;
    for (const n of page.data) if (!this.store.find(n.id) && this.pageNo > 0) this.emit("notification", n);
    this.pageNo = Math.max(this.pageNo, 1);
    this.store.page(1, page.data, page.pagination.totalCount, page.unreadCount);
  }
  // ---- actions (optimistic) ------------------------------------------------------------
  async optimistic(undo, call) {
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
  markRead(id) {
    const now = (/* @__PURE__ */ new Date()).toISOString();
    const undo = this.store.update(id, (n) => n.readAt ? n : { ...n, readAt: now });
    return this.optimistic(undo, () => this.request("POST", `/notifications/${id}/reads`));
  }
  /** Marks one notification unread again. */
  markUnread(id) {
    const undo = this.store.update(id, (n) => ({ ...n, readAt: null, clickedAt: null }));
    return this.optimistic(undo, () => this.request("DELETE", `/notifications/${id}/reads`));
  }
  /** Records a click: read and clicked on the server; emits "click". */
  async click(id) {
    const now = (/* @__PURE__ */ new Date()).toISOString();
    const n = this.store.find(id);
    const undo = this.store.update(id, (x) => ({ ...x, readAt: x.readAt ?? now, clickedAt: now }));
    if (n) this.emit("click", n);
    await this.optimistic(undo, () => this.request("POST", `/notifications/${id}/click`));
  }
  /** Marks every notification read. */
  markAllRead() {
    const undo = this.store.allRead((/* @__PURE__ */ new Date()).toISOString());
    return this.optimistic(undo, () => this.request("POST", "/notifications/markAllNotificationsAsRead"));
  }
  /** Marks every notification seen (resets the badge). */
  markAllSeen() {
    const before = this.store.state.unreadCount;
    this.store.setUnreadCount(0);
    return this.optimistic(
      () => this.store.setUnreadCount(before),
      () => this.request("POST", "/notifications/markAllNotificationsAsSeen", { page: 1, limit: 20 })
    );
  }
  /** Archives a notification: its state becomes "archived" and it leaves the list. */
  archive(id) {
    const undo = this.store.remove(id);
    return this.optimistic(undo, () => this.request("PUT", `/notifications/${id}/state`, { state: "archived" }));
  }
  /** Deletes a notification. */
  delete(id) {
    const undo = this.store.remove(id);
    return this.optimistic(undo, () => this.request("DELETE", `/notifications/${id}`));
  }
  // ---- preferences and profile ---------------------------------------------------------
  /** The user's preferences: per category, each channel on or off. */
  preferences() {
    return this.request("GET", "/preferences");
  }
  /** Turns one channel of one category on or off. */
  setPreference(categoryId, channel, enabled) {
    return this.request("PATCH", "/preferences", { preference: [{ categoryId, channels: [{ channel, enabled }] }] });
  }
  /** The user's profile. */
  profile() {
    return this.request("GET", "/profile");
  }
  /** Changes fields of the user's profile (JSON Patch). */
  patchProfile(ops) {
    return this.request("PATCH", "/profile", ops);
  }
  // ---- realtime ------------------------------------------------------------------------
  async realtimeToken() {
    return this.request("POST", "/sdk/realtimeTokenRequests");
  }
  handleEvent(name, data) {
    const d = data ?? {};
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
        const now = (/* @__PURE__ */ new Date()).toISOString();
        if (!this.store.update(id, (n) => n.readAt ? n : { ...n, readAt: now })) void this.syncCount();
        break;
      }
      case "NOTIFICATION_DELETED":
        if (!this.store.remove(Number(d.id))) void this.syncCount();
        break;
      case "NOTIFICATION_SEEN":
        if (typeof d.unreadNotificationCount === "number") this.store.setUnreadCount(d.unreadNotificationCount);
        break;
      case "ALL_NOTIFICATION_READ":
        this.store.allRead((/* @__PURE__ */ new Date()).toISOString());
        break;
      case "ALL_NOTIFICATION_DELETED":
        this.store.allDeleted();
        break;
    }
  }
  /** Reads the unread count again (an event named a notification not loaded here). */
  async syncCount() {
    try {
      const page = await this.request("GET", "/notifications?limit=1");
      this.store.setUnreadCount(page.unreadCount);
    } catch {
    }
  }
  online() {
    this.store.setConnection("online");
    if (this.wasOnline) void this.refresh().catch((e) => this.emit("error", e));
    this.wasOnline = true;
  }
  /**
   * Opens Socket.IO (WebSocket first, then HTTP long-polling), reconnecting with
   * exponential back-off; a fresh realtime token is fetched for each attempt. When no
   * attempt ever connects (both transports blocked), switches to Server-Sent Events.
   */
  connectRealtime() {
    let failures = 0;
    let everConnected = false;
    const socket = io(this.opts.baseUrl, {
      path: "/socket.io/",
      transports: ["websocket", "polling"],
      query: { apiKey: this.opts.apiKey },
      auth: (cb) => {
        this.realtimeToken().then(
          (t) => cb({ token: t.token }),
          () => cb({})
        );
      },
      reconnection: true,
      reconnectionDelay: realtimeBackoff.delay,
      reconnectionDelayMax: realtimeBackoff.delayMax,
      randomizationFactor: realtimeBackoff.randomization,
      timeout: 1e4
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
        this.socket = void 0;
        void this.connectSSE(0);
      }
    });
    socket.onAny((name, data) => this.handleEvent(name, data));
  }
  /** Server-Sent Events: the fallback when Socket.IO cannot connect. */
  async connectSSE(attempt) {
    if (this.closed) return;
    let url;
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
      es.close();
      this.store.setConnection("offline");
      this.retrySSE(attempt + 1);
    };
    for (const name of ["NEW_NOTIFICATION", "NOTIFICATION_READ", "NOTIFICATION_SEEN", "NOTIFICATION_DELETED", "NOTIFICATION_INTERACTED", "ALL_NOTIFICATION_READ", "ALL_NOTIFICATION_DELETED"]) {
      es.addEventListener(name, (ev) => this.handleEvent(name, JSON.parse(ev.data || "{}")));
    }
  }
  retrySSE(attempt) {
    if (this.closed) return;
    setTimeout(() => void this.connectSSE(attempt), backoff(attempt));
  }
  /** Test hook: drops the realtime connection as a network failure would. */
  dropRealtime() {
    this.socket?.io.engine?.close();
  }
  // ---- web push ------------------------------------------------------------------------
  /**
   * Subscribes this browser to web push with the app's VAPID key and registers the
   * subscription. serviceWorkerUrl is the herald-sw.js file the host app serves from its own
   * origin (service workers must be same-origin). Asks the user's permission.
   */
  async enableWebPush(serviceWorkerUrl = "/herald-sw.js") {
    const key = this.connection?.app.publicKey;
    if (!this.connection?.app.enableWebPush || !key) throw new Error("herald: web push is not enabled for this app");
    if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error("herald: this browser has no web push");
    const reg = await navigator.serviceWorker.register(serviceWorkerUrl);
    const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64url(key) });
    await this.request("POST", `/devices/${encodeURIComponent(this.deviceId)}/webPushSubscription`, sub.toJSON());
    return sub;
  }
}
function backoff(attempt, random = Math.random) {
  const base = Math.min(realtimeBackoff.delayMax, realtimeBackoff.delay * 2 ** attempt);
  const jitter = base * realtimeBackoff.randomization * (random() * 2 - 1);
  return Math.max(0, Math.min(realtimeBackoff.delayMax, Math.round(base + jitter)));
}
function deviceId() {
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
function base64url(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0)).buffer;
}
export {
  HeraldClient,
  HeraldError,
  backoff,
  realtimeBackoff
};
