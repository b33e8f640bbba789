const en = {
  notifications: "Notifications",
  unread: (n) => `${n} unread`,
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
  offline: "You're offline. Reconnecting\u2026",
  loading: "Loading\u2026",
  loadFailed: "Notifications could not be loaded.",
  retry: "Retry",
  prefsHelp: "Choose how you hear about each kind of notification.",
  noCategories: "There is nothing to configure yet.",
  close: "Close",
  channels: { inApp: "In-app", email: "Email", sms: "SMS", whatsapp: "WhatsApp", webPush: "Web push", mobilePush: "Mobile push", slack: "Slack", discord: "Discord", msTeams: "Teams", webhook: "Webhook" }
};
const fr = {
  ...en,
  notifications: "Notifications",
  unread: (n) => `${n} non lue${n > 1 ? "s" : ""}`,
  all: "Toutes",
  unreadTab: "Non lues",
  markAllRead: "Tout marquer comme lu",
  preferences: "Pr\xE9f\xE9rences",
  back: "Retour aux notifications",
  archive: "Archiver",
  delete: "Supprimer",
  markRead: "Marquer comme lue",
  empty: "Aucune notification",
  emptyUnread: "Vous \xEAtes \xE0 jour",
  offline: "Hors ligne. Reconnexion\u2026",
  loading: "Chargement\u2026",
  loadFailed: "Les notifications n'ont pas pu \xEAtre charg\xE9es.",
  retry: "R\xE9essayer",
  prefsHelp: "Choisissez comment \xEAtre pr\xE9venu pour chaque type de notification.",
  noCategories: "Rien \xE0 configurer pour l'instant.",
  close: "Fermer",
  channels: { ...en.channels, inApp: "Dans l'app", email: "E-mail" }
};
const de = {
  ...en,
  notifications: "Benachrichtigungen",
  unread: (n) => `${n} ungelesen`,
  all: "Alle",
  unreadTab: "Ungelesen",
  markAllRead: "Alle als gelesen markieren",
  preferences: "Einstellungen",
  back: "Zur\xFCck zu den Benachrichtigungen",
  archive: "Archivieren",
  delete: "L\xF6schen",
  markRead: "Als gelesen markieren",
  empty: "Noch keine Benachrichtigungen",
  emptyUnread: "Alles gelesen",
  offline: "Offline. Verbindung wird wiederhergestellt\u2026",
  loading: "Wird geladen\u2026",
  loadFailed: "Benachrichtigungen konnten nicht geladen werden.",
  retry: "Erneut versuchen",
  prefsHelp: "W\xE4hlen Sie, wie Sie \xFCber jede Art von Benachrichtigung informiert werden.",
  noCategories: "Noch nichts einzustellen.",
  close: "Schlie\xDFen",
  channels: { ...en.channels, inApp: "In der App", email: "E-Mail" }
};
const byLang = { en, fr, de };
function strings(locale) {
  return byLang[locale.toLowerCase().split("-")[0]] ?? en;
}
const units = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60]
];
function relativeTime(iso, locale, now = Date.now()) {
  const secs = Math.round((new Date(iso).getTime() - now) / 1e3);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of units) {
    if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit);
  }
  return rtf.format(0, "second");
}
export {
  relativeTime,
  strings
};
