// Herald's embeddable inbox: the headless client and the <herald-inbox> element (defined
// on import).
export * from "./client.js";
export { InboxStore, counts, inView, unwrapNotification } from "./state.js";
export { HeraldInbox } from "./element.js";
export { strings, relativeTime } from "./i18n.js";
export { isSafeUrl, urlScheme } from "./safeurl.js";
