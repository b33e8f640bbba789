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
/** Whether a notification counts in the badge (neither seen nor read). */
export declare function counts(n: Notification): boolean;
/** Whether a notification belongs in a view. */
export declare function inView(n: Notification, v: View): boolean;
/** The payload of NEW_NOTIFICATION: `{notification: {…}}`, or the bare notification. */
export declare function unwrapNotification(data: unknown): Notification | null;
/** The store holding the state; every change notifies the listener. */
export declare class InboxStore {
    state: InboxState;
    private listener;
    constructor(listener?: (s: InboxState) => void);
    private set;
    /** Starts a new view: the list empties until its first page arrives. */
    setView(view: View): void;
    setConnection(connection: InboxState["connection"]): void;
    setUnreadCount(n: number): void;
    /**
     * Takes a page of the view. Page 1 replaces the list but keeps newer notifications that
     * arrived by realtime meanwhile; later pages append what is not there yet.
     */
    page(pageNo: number, items: Notification[], totalCount: number, unreadCount: number): void;
    find(id: number): Notification | undefined;
    /** A new notification from realtime; returns false when it was already known. */
    added(n: Notification): boolean;
    /** Replaces a notification (an interaction elsewhere); adjusts the count. */
    replaced(n: Notification): void;
    /**
     * Changes one notification and returns the change that undoes it (optimistic updates
     * roll back with it). Undefined when the notification is not loaded.
     */
    update(id: number, change: (n: Notification) => Notification): (() => void) | undefined;
    /** Removes one notification; returns the undo (or undefined when not loaded). */
    remove(id: number): (() => void) | undefined;
    /** Marks every loaded notification read; returns the undo. */
    allRead(at: string): () => void;
    /** Empties the inbox (every notification deleted); returns the undo. */
    allDeleted(): () => void;
}
