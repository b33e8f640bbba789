// The widget's strings, by language. Missing languages fall back to English.
const en = {
  notifications: "Notifications",
  unread: (n: number) => `${n} unread`,
  all: "All",
  unreadTab: "Unread",
  markAllRead: "Mark all as read",
  preferences: "Preferences",
  back: "Back to notifications",
  archive: "Archive",
  delete: "Delete",
  markRead: "Mark as read",
  empty: "No notifications yet",
  emptyUnread: "You're all caught up",
  offline: "You're offline. Reconnecting…",
  loading: "Loading…",
  loadFailed: "Notifications could not be loaded.",
  retry: "Retry",
  prefsHelp: "Choose how you hear about each kind of notification.",
  noCategories: "There is nothing to configure yet.",
  close: "Close",
  snooze: "Snooze",
  snoozeHour: "In 1 hour",
  snoozeTomorrow: "Tomorrow morning",
  snoozeWeek: "Next week",
  snoozeCustom: "Custom time…",
  snoozeUntil: "Until",
  snoozePast: "Choose a time in the future.",
  cancel: "Cancel",
  loadMore: "Show more",
  channels: { inApp: "In-app", email: "Email", sms: "SMS", whatsapp: "WhatsApp", webPush: "Web push", mobilePush: "Mobile push", slack: "Slack", discord: "Discord", msTeams: "Teams", webhook: "Webhook" } as Record<string, string>,
};
export type Strings = typeof en;

const fr: Strings = {
  ...en,
  notifications: "Notifications",
  unread: (n) => `${n} non lue${n > 1 ? "s" : ""}`,
  all: "Toutes",
  unreadTab: "Non lues",
  markAllRead: "Tout marquer comme lu",
  preferences: "Préférences",
  back: "Retour aux notifications",
  archive: "Archiver",
  delete: "Supprimer",
  markRead: "Marquer comme lue",
  empty: "Aucune notification",
  emptyUnread: "Vous êtes à jour",
  offline: "Hors ligne. Reconnexion…",
  loading: "Chargement…",
  loadFailed: "Les notifications n'ont pas pu être chargées.",
  retry: "Réessayer",
  prefsHelp: "Choisissez comment être prévenu pour chaque type de notification.",
  noCategories: "Rien à configurer pour l'instant.",
  close: "Fermer",
  snooze: "Reporter",
  snoozeHour: "Dans 1 heure",
  snoozeTomorrow: "Demain matin",
  snoozeWeek: "La semaine prochaine",
  snoozeCustom: "Autre moment…",
  snoozeUntil: "Jusqu'à",
  snoozePast: "Choisissez un moment à venir.",
  cancel: "Annuler",
  loadMore: "Afficher plus",
  channels: { ...en.channels, inApp: "Dans l'app", email: "E-mail" },
};

const de: Strings = {
  ...en,
  notifications: "Benachrichtigungen",
  unread: (n) => `${n} ungelesen`,
  all: "Alle",
  unreadTab: "Ungelesen",
  markAllRead: "Alle als gelesen markieren",
  preferences: "Einstellungen",
  back: "Zurück zu den Benachrichtigungen",
  archive: "Archivieren",
  delete: "Löschen",
  markRead: "Als gelesen markieren",
  empty: "Noch keine Benachrichtigungen",
  emptyUnread: "Alles gelesen",
  offline: "Offline. Verbindung wird wiederhergestellt…",
  loading: "Wird geladen…",
  loadFailed: "Benachrichtigungen konnten nicht geladen werden.",
  retry: "Erneut versuchen",
  prefsHelp: "Wählen Sie, wie Sie über jede Art von Benachrichtigung informiert werden.",
  noCategories: "Noch nichts einzustellen.",
  close: "Schließen",
  snooze: "Zurückstellen",
  snoozeHour: "In 1 Stunde",
  snoozeTomorrow: "Morgen früh",
  snoozeWeek: "Nächste Woche",
  snoozeCustom: "Eigene Zeit…",
  snoozeUntil: "Bis",
  snoozePast: "Wählen Sie einen Zeitpunkt in der Zukunft.",
  cancel: "Abbrechen",
  loadMore: "Mehr anzeigen",
  channels: { ...en.channels, inApp: "In der App", email: "E-Mail" },
};

const byLang: Record<string, Strings> = { en, fr, de };

/** The strings for a BCP 47 locale (its language), English when unknown. */
export function strings(locale: string): Strings {
  return byLang[locale.toLowerCase().split("-")[0]] ?? en;
}

const units: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "3 minutes ago", "yesterday", "now": a time relative to now, in the locale. */
export function relativeTime(iso: string, locale: string, now = Date.now()): string {
  const secs = Math.round((new Date(iso).getTime() - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit);
  }
  return rtf.format(0, "second");
}
