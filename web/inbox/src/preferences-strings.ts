// The preferences panel's own strings (src/preferences-panel.ts, src/preferences-quiet.ts),
// by language, in the panel's lazily loaded chunk rather than in src/i18n.ts (the initial
// load). Missing languages fall back to English, like the element's strings.
const en = {
  topics: "Topics",
  flows: "Notifications",
  flowsHelp: "Turn a notification off, or only some of its channels. A channel set here wins over the notification's switch and its topic.",
  channels: "Channels",
  channelsLegend: "Receive notifications by",
  channelsHelp: "Turn a channel off to get nothing on it, except critical notifications.",
  allNotifications: (channel: string) => `All notifications: ${channel}`,
  notSaved: (why: string) => `Not saved: ${why}`,
  quietAndZone: "Quiet hours and time zone",
  quietHours: "Quiet hours",
  quietHelp: "Notifications by email, SMS, push and chat that arrive during your quiet hours wait until they end. In-app notifications arrive at once; critical ones are never held.",
  useQuiet: "Use quiet hours",
  from: "From",
  until: "Until",
  quietDays: "Quiet all day on",
  save: "Save quiet hours",
  saved: "Quiet hours saved.",
  noQuiet: "No quiet hours.",
  /** The quiet hours in one line: window ("22:00–07:00") and/or days, and the zone. */
  quietSummary: (window: string, days: string, zone: string) => `Quiet ${[window, days && `all day ${days}`].filter(Boolean).join(" and ")} (${zone}).`,
  zone: "Time zone",
  yourZone: "Your time zone",
  zoneHelp: "Quiet hours, and notifications sent at a time of day, follow it.",
  zoneSaved: "Time zone saved.",
};
export type PanelStrings = typeof en;

const fr: PanelStrings = {
  topics: "Thèmes",
  flows: "Notifications",
  flowsHelp: "Désactivez une notification, ou seulement certains de ses canaux. Un canal réglé ici l'emporte sur la notification et son thème.",
  channels: "Canaux",
  channelsLegend: "Recevoir les notifications par",
  channelsHelp: "Désactivez un canal pour ne plus rien y recevoir, sauf les notifications critiques.",
  allNotifications: (channel) => `Toutes les notifications : ${channel}`,
  notSaved: (why) => `Non enregistré : ${why}`,
  quietAndZone: "Heures calmes et fuseau horaire",
  quietHours: "Heures calmes",
  quietHelp: "Les notifications par e-mail, SMS, push et messagerie reçues pendant vos heures calmes attendent leur fin. Celles dans l'app arrivent tout de suite ; les critiques ne sont jamais retenues.",
  useQuiet: "Activer les heures calmes",
  from: "De",
  until: "À",
  quietDays: "Calme toute la journée le",
  save: "Enregistrer les heures calmes",
  saved: "Heures calmes enregistrées.",
  noQuiet: "Aucune heure calme.",
  quietSummary: (window, days, zone) => `Calme ${[window, days && `toute la journée le ${days}`].filter(Boolean).join(" et ")} (${zone}).`,
  zone: "Fuseau horaire",
  yourZone: "Votre fuseau horaire",
  zoneHelp: "Les heures calmes, et les notifications envoyées à une heure donnée, le suivent.",
  zoneSaved: "Fuseau horaire enregistré.",
};

const de: PanelStrings = {
  topics: "Themen",
  flows: "Benachrichtigungen",
  flowsHelp: "Schalten Sie eine Benachrichtigung aus, oder nur einige ihrer Kanäle. Ein hier gesetzter Kanal geht der Benachrichtigung und ihrem Thema vor.",
  channels: "Kanäle",
  channelsLegend: "Benachrichtigungen erhalten per",
  channelsHelp: "Schalten Sie einen Kanal aus, um darüber nichts mehr zu erhalten, außer kritischen Benachrichtigungen.",
  allNotifications: (channel) => `Alle Benachrichtigungen: ${channel}`,
  notSaved: (why) => `Nicht gespeichert: ${why}`,
  quietAndZone: "Ruhezeiten und Zeitzone",
  quietHours: "Ruhezeiten",
  quietHelp: "Benachrichtigungen per E-Mail, SMS, Push und Chat, die während Ihrer Ruhezeiten eintreffen, warten bis zu deren Ende. In der App kommen sie sofort; kritische werden nie zurückgehalten.",
  useQuiet: "Ruhezeiten verwenden",
  from: "Von",
  until: "Bis",
  quietDays: "Ganztägig ruhig am",
  save: "Ruhezeiten speichern",
  saved: "Ruhezeiten gespeichert.",
  noQuiet: "Keine Ruhezeiten.",
  quietSummary: (window, days, zone) => `Ruhig ${[window, days && `ganztägig am ${days}`].filter(Boolean).join(" und ")} (${zone}).`,
  zone: "Zeitzone",
  yourZone: "Ihre Zeitzone",
  zoneHelp: "Ruhezeiten und zu einer Uhrzeit gesendete Benachrichtigungen richten sich nach ihr.",
  zoneSaved: "Zeitzone gespeichert.",
};

const byLang: Record<string, PanelStrings> = { en, fr, de };

/** The panel's strings for a BCP 47 locale (its language), English when unknown. */
export function panelStrings(locale: string): PanelStrings {
  return byLang[locale.toLowerCase().split("-")[0]!] ?? en;
}
