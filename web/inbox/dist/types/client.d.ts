import type { components } from "./api.gen.js";
import { InboxStore, type InboxState, type Notification, type Preference, type View, type Channel, type Category } from "./state.js";
export type { InboxState, Notification, Preference, View, Channel, Category };
/** What /v3/sdk/connect answers: the unread count and the app's public settings. */
export type Connection = components["schemas"]["Connection"];
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
export declare class HeraldError extends Error {
    readonly status: number;
    constructor(status: number, message: string);
}
type Handler<T> = (payload: T) => void;
/** Knobs of the realtime back-off, exposed for tests. */
export declare const realtimeBackoff: {
    delay: number;
    delayMax: number;
    randomization: number;
    socketAttemptsBeforeSSE: number;
};
/** The headless inbox client. */
export declare class HeraldClient {
    readonly store: InboxStore;
    readonly opts: Required<Pick<HeraldClientOptions, "pageSize" | "headerPrefix">> & HeraldClientOptions;
    private handlers;
    private socket?;
    private sse?;
    private pageNo;
    private loading?;
    private lastCount;
    private wasOnline;
    private closed;
    private deviceId;
    /** The app's settings from /v3/sdk/connect, once connected. */
    connection?: Connection;
    constructor(options: HeraldClientOptions);
    /** Subscribes to an event; returns the unsubscribe function. */
    on<K extends keyof HeraldEvents>(event: K, handler: Handler<HeraldEvents[K]>): () => void;
    private emit;
    private stateChanged;
    get state(): InboxState;
    private headers;
    /**
     * Calls the v3 API. The apiKey query parameter names the app in CORS preflights (which
     * carry no headers). A refused token is refreshed once through refreshUserToken.
     */
    request<T>(method: string, path: string, body?: unknown, extra?: Record<string, string>, retried?: boolean): Promise<T>;
    /** Connects the device, loads the first page and opens the realtime connection. */
    start(): Promise<void>;
    /** Closes the realtime connection. */
    stop(): void;
    /** Replaces the user JWT (secure mode), e.g. after the host app refreshed it. */
    setUserToken(token: string): void;
    /** Switches the list to another view and loads its first page. */
    setView(view: View): Promise<void>;
    /** Loads the next page of the current view (infinite scroll). */
    loadMore(): Promise<void>;
    private fetchPage;
    /** Reloads the first page (after a reconnection: notifications missed meanwhile appear). */
    refresh(): Promise<void>;
    private optimistic;
    /** Marks one notification read. */
    markRead(id: number): Promise<unknown>;
    /** Marks one notification unread again. */
    markUnread(id: number): Promise<unknown>;
    /** Records a click: read and clicked on the server; emits "click". */
    click(id: number): Promise<void>;
    /** Marks every notification read. */
    markAllRead(): Promise<unknown>;
    /** Marks every notification seen (resets the badge). */
    markAllSeen(): Promise<unknown>;
    /** Archives a notification: its state becomes "archived" and it leaves the list. */
    archive(id: number): Promise<unknown>;
    /** Deletes a notification. */
    delete(id: number): Promise<unknown>;
    /** The user's preferences: per category, each channel on or off. */
    preferences(): Promise<Preference[]>;
    /** Turns one channel of one category on or off. */
    setPreference(categoryId: number, channel: Channel, enabled: boolean): Promise<unknown>;
    /** The user's profile. */
    profile(): Promise<components["schemas"]["Profile"]>;
    /** Changes fields of the user's profile (JSON Patch). */
    patchProfile(ops: components["schemas"]["JsonPatch"]): Promise<components["schemas"]["Profile"]>;
    private realtimeToken;
    private handleEvent;
    /** Reads the unread count again (an event named a notification not loaded here). */
    private syncCount;
    private online;
    /**
     * Opens Socket.IO (WebSocket first, then HTTP long-polling), reconnecting with
     * exponential back-off; a fresh realtime token is fetched for each attempt. When no
     * attempt ever connects (both transports blocked), switches to Server-Sent Events.
     */
    private connectRealtime;
    /** Server-Sent Events: the fallback when Socket.IO cannot connect. */
    private connectSSE;
    private retrySSE;
    /** Test hook: drops the realtime connection as a network failure would. */
    dropRealtime(): void;
    /**
     * Subscribes this browser to web push with the app's VAPID key and registers the
     * subscription. serviceWorkerUrl is the herald-sw.js file the host app serves from its own
     * origin (service workers must be same-origin). Asks the user's permission.
     */
    enableWebPush(serviceWorkerUrl?: string): Promise<PushSubscription>;
}
/** The delay before realtime attempt n (exponential with jitter, capped). */
export declare function backoff(attempt: number, random?: () => number): number;
