import { signUserToken } from "./auth.js";
import type { Call, Herald, RequestOptions } from "./client.js";
import { seg } from "./client.js";
import { pages } from "./pages.js";
import type {
  BulkResult,
  Category,
  ChannelSwitches,
  Connection,
  Deleted,
  DeviceType,
  Filter,
  FlowPreference,
  FlowPreferenceUpdate,
  InAppTranslations,
  JsonPatch,
  Notification,
  NotificationPage,
  Preference,
  PreferenceUpdate,
  Profile,
  ProfileMergePatch,
  PushSubscription,
  QuietHours,
  QuietHoursUpdate,
  SnoozeRequest,
  Snoozed,
  RealtimeToken,
  WebPushSubscription,
} from "./types.js";

/** The options of asUser. */
export interface UserClientOptions {
  /** A user JWT sent as the bearer token (secure mode); see signUserToken. */
  token?: string;
  /** The deprecated HMAC user signature; see userSignature. */
  signature?: string;
  /** The device id header, needed by connectDevice. */
  deviceId?: string;
}

/** Selects a page of the inbox. */
export interface ListOptions extends RequestOptions {
  /** The 1-based page (default 1). */
  pageNo?: number;
  /** The page size, at most 20 (default 10; 20 when walking with notifications()). */
  limit?: number;
  /** Keeps only some notifications. */
  filter?: Filter;
  /** A category identifier. */
  category?: string;
}

/** A page of the inbox for the bulk marks (without it the deprecated form marks the newest 15). */
export interface BulkOptions extends RequestOptions {
  page?: number;
  limit?: number;
}

/**
 * Acts on one user's behalf (user mode): inbox, profile, preferences, categories and device
 * connect. Made by Herald.asUser.
 */
export class UserClient {
  readonly #c: Herald;
  /** The user's identifier. */
  readonly identifier: string;
  readonly #o: UserClientOptions;

  constructor(client: Herald, identifier: string, opts: UserClientOptions = {}) {
    this.#c = client;
    this.identifier = identifier;
    this.#o = { ...opts };
  }

  async #headers(): Promise<Record<string, string>> {
    const p = this.#c.headerPrefix;
    const h: Record<string, string> = { [p + "API-KEY"]: this.#c.apiKey, [p + "USER-ID"]: this.identifier };
    let tok = this.#o.token;
    const key = tok ? undefined : this.#c.signingKey();
    if (key) {
      tok = await signUserToken({ privateKey: await key, apiKey: this.#c.apiKey, user: this.identifier, expiresIn: this.#c.tokenExpiresIn });
    }
    if (tok) h["Authorization"] = "Bearer " + tok;
    if (this.#o.signature) h[p + "USER-SIGNATURE"] = this.#o.signature;
    if (this.#o.deviceId) h[p + "DEVICE-ID"] = this.#o.deviceId;
    return h;
  }

  async #do<T>(method: Call["method"], path: string, body: unknown, o: RequestOptions | undefined, extra: Partial<Call> = {}): Promise<T> {
    return this.#c.request<T>({ method, path, body, headers: await this.#headers(), signal: o?.signal, ...extra });
  }

  /** One page of the user's inbox, newest first (GET /v3/notifications). */
  listNotifications(o: ListOptions = {}): Promise<NotificationPage> {
    const query = { pageNo: o.pageNo, limit: o.limit, filter: o.filter, category: o.category };
    return this.#do("GET", "/notifications", undefined, o, { query });
  }

  /**
   * Every notification o selects, page after page from o.pageNo (default 1) with o.limit per
   * page (default 20, the most).
   *
   * ```ts
   * for await (const n of herald.asUser("alice").notifications()) console.log(n.title);
   * ```
   */
  notifications(o: ListOptions = {}): AsyncGenerator<Notification, void, undefined> {
    const limit = o.limit && o.limit > 0 ? o.limit : 20;
    const first = o.pageNo && o.pageNo > 0 ? o.pageNo : 1;
    return pages(async (i) => {
      const pageNo = first + i;
      const p = await this.listNotifications({ ...o, pageNo, limit });
      const seen = (pageNo - 1) * limit + p.data.length;
      return { items: p.data, more: p.data.length === limit && seen < p.pagination.totalCount };
    });
  }

  /** One notification of the inbox (GET /v3/notifications/{id}; marks it seen). */
  notification(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#do("GET", "/notifications/" + seg(id), undefined, o);
  }

  #mark(method: Call["method"], id: number, suffix: string, body: unknown, o?: RequestOptions): Promise<Notification> {
    return this.#do(method, `/notifications/${seg(id)}${suffix}`, body, o, { idempotent: true });
  }

  /** Marks a notification seen. */
  markSeen(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#mark("POST", id, "/views", undefined, o);
  }

  /** Marks a notification unseen. */
  markUnseen(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#mark("DELETE", id, "/views", undefined, o);
  }

  /** Marks a notification read. */
  markRead(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#mark("POST", id, "/reads", undefined, o);
  }

  /** Marks a notification unread. */
  markUnread(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#mark("DELETE", id, "/reads", undefined, o);
  }

  /** Records a click on a notification (clicked and read). */
  click(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#mark("POST", id, "/click", undefined, o);
  }

  /** Sets a notification's free-form state (seen, read and clicked also set their times). */
  setState(id: number, state: string, o?: RequestOptions): Promise<Notification> {
    return this.#mark("PUT", id, "/state", { state }, o);
  }

  /** Snoozes a notification until `until` (a Date or an RFC 3339 string): it leaves the list and the counts and comes back unread then. */
  snooze(id: number, until: Date | string, o?: RequestOptions): Promise<Snoozed> {
    const body: SnoozeRequest = { until: typeof until === "string" ? until : until.toISOString() };
    return this.#do("PUT", `/notifications/${seg(id)}/snooze`, body, o, { idempotent: true });
  }

  /** Brings a snoozed notification back now, unread. */
  unsnooze(id: number, o?: RequestOptions): Promise<Notification> {
    return this.#mark("DELETE", id, "/snooze", undefined, o);
  }

  /** Deletes a notification from the inbox. */
  deleteNotification(id: number, o?: RequestOptions): Promise<Deleted> {
    return this.#do("DELETE", "/notifications/" + seg(id), undefined, o);
  }

  #bulk(what: string, o: BulkOptions = {}): Promise<BulkResult> {
    return this.#do("POST", "/notifications/" + what, undefined, o, { idempotent: true, query: { page: o.page, limit: o.limit } });
  }

  /** Marks a page of the inbox seen (page and limit; without them the deprecated form marks the newest 15). */
  markAllSeen(o?: BulkOptions): Promise<BulkResult> {
    return this.#bulk("markAllNotificationsAsSeen", o);
  }

  /** Marks every notification read. */
  markAllRead(o?: RequestOptions): Promise<BulkResult> {
    return this.#bulk("markAllNotificationsAsRead", { signal: o?.signal });
  }

  /** Deletes every notification of the inbox. */
  deleteAll(o?: RequestOptions): Promise<BulkResult> {
    return this.#bulk("markAllNotificationsAsDeleted", { signal: o?.signal });
  }

  /** The user's profile (GET /v3/profile). */
  profile(o?: RequestOptions): Promise<Profile> {
    return this.#do("GET", "/profile", undefined, o);
  }

  /** Sets these profile fields, keeping the others (PUT /v3/profile). */
  updateProfile(fields: Profile, o?: RequestOptions): Promise<Profile> {
    return this.#do("PUT", "/profile", fields, o);
  }

  /** Applies RFC 6902 operations to the profile, all or none (PATCH /v3/profile). */
  patchProfile(ops: JsonPatch, o?: RequestOptions): Promise<Profile> {
    return this.#do("PATCH", "/profile", ops, o);
  }

  /** Applies an RFC 7386 merge patch: each key replaces, null removes, an object merges (PATCH /v3/profile). */
  mergeProfile(patch: ProfileMergePatch, o?: RequestOptions): Promise<Profile> {
    return this.#do("PATCH", "/profile", patch, o);
  }

  /** The user's channel preferences per category (GET /v3/preferences). */
  preferences(o?: RequestOptions): Promise<Preference[]> {
    return this.#do("GET", "/preferences", undefined, o);
  }

  /** Turns channels on or off per category (PATCH /v3/preferences). */
  async updatePreferences(update: PreferenceUpdate, o?: RequestOptions): Promise<void> {
    await this.#do("PATCH", "/preferences", update, o, { idempotent: true });
  }

  /** The user's switch for each whole channel (GET /v3/preferences/channels). */
  channelPreferences(o?: RequestOptions): Promise<ChannelSwitches> {
    return this.#do("GET", "/preferences/channels", undefined, o);
  }

  /** Turns whole channels on or off, e.g. {sms: false} (PUT /v3/preferences/channels). */
  updateChannelPreferences(switches: ChannelSwitches, o?: RequestOptions): Promise<ChannelSwitches> {
    return this.#do("PUT", "/preferences/channels", switches, o);
  }

  /** The user's quiet hours and time zone (GET /v3/preferences/quiet-hours). */
  quietHours(o?: RequestOptions): Promise<QuietHours> {
    return this.#do("GET", "/preferences/quiet-hours", undefined, o);
  }

  /**
   * Sets the user's quiet hours, e.g. {start: "22:00", end: "07:00", days: ["saturday",
   * "sunday"], timezone: "Europe/Paris"}, or removes them with {enabled: false}
   * (PUT /v3/preferences/quiet-hours). Non-critical email, SMS and push inside them wait.
   */
  updateQuietHours(update: QuietHoursUpdate, o?: RequestOptions): Promise<QuietHours> {
    return this.#do("PUT", "/preferences/quiet-hours", update, o, { idempotent: true });
  }

  /** The user's switches per published workflow (GET /v3/preferences/workflows). */
  workflowPreferences(o?: RequestOptions): Promise<FlowPreference[]> {
    return this.#do("GET", "/preferences/workflows", undefined, o);
  }

  /** Sets some of the user's switches per workflow (PATCH /v3/preferences/workflows). */
  updateWorkflowPreferences(update: FlowPreferenceUpdate, o?: RequestOptions): Promise<FlowPreference[]> {
    return this.#do("PATCH", "/preferences/workflows", update, o, { idempotent: true });
  }

  /** The app's categories (GET /v3/categories). */
  categories(o?: RequestOptions): Promise<Category[]> {
    return this.#do("GET", "/categories", undefined, o);
  }

  /** The inbox UI strings for a locale, default the profile's (GET /v3/translations/inapp). */
  translations(locale?: string, o?: RequestOptions): Promise<InAppTranslations> {
    return this.#do("GET", "/translations/inapp", undefined, o, { query: { locale } });
  }

  /**
   * Connects the user's device (POST /v3/sdk/connect; needs the deviceId option) and returns
   * the unread count and the app's channels and categories.
   */
  connectDevice(deviceType: DeviceType, o?: RequestOptions): Promise<Connection> {
    return this.#do("POST", "/sdk/connect", { deviceType }, o, { idempotent: true });
  }

  /** A short-lived token for the realtime endpoint (POST /v3/sdk/realtimeTokenRequests). */
  realtimeToken(o?: RequestOptions): Promise<RealtimeToken> {
    return this.#do("POST", "/sdk/realtimeTokenRequests", undefined, o);
  }

  /** Stores a browser's push subscription for a device (POST /v3/devices/{deviceId}/webPushSubscription). */
  saveWebPushSubscription(deviceId: string, sub: PushSubscription, o?: RequestOptions): Promise<WebPushSubscription> {
    return this.#do("POST", `/devices/${seg(deviceId)}/webPushSubscription`, sub, o, { idempotent: true });
  }
}
