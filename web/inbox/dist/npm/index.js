export * from "./client.js";
import { InboxStore, counts, inView, unwrapNotification } from "./state.js";
import { HeraldInbox } from "./element.js";
import { strings, relativeTime } from "./i18n.js";
export {
  HeraldInbox,
  InboxStore,
  counts,
  inView,
  relativeTime,
  strings,
  unwrapNotification
};
