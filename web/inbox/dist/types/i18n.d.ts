declare const en: {
    notifications: string;
    unread: (n: number) => string;
    all: string;
    unreadTab: string;
    markAllRead: string;
    preferences: string;
    back: string;
    archive: string;
    delete: string;
    markRead: string;
    empty: string;
    emptyUnread: string;
    offline: string;
    loading: string;
    loadFailed: string;
    retry: string;
    prefsHelp: string;
    noCategories: string;
    close: string;
    channels: Record<string, string>;
};
export type Strings = typeof en;
/** The strings for a BCP 47 locale (its language), English when unknown. */
export declare function strings(locale: string): Strings;
/** "3 minutes ago", "yesterday", "now": a time relative to now, in the locale. */
export declare function relativeTime(iso: string, locale: string, now?: number): string;
export {};
