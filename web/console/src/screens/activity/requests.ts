// How the activity feed names a send request (pure).
import type { components } from "../../api/client";

type Request = components["schemas"]["NotificationRequest"];

/** shortId names a request in a row: the last 8 digits of its id (request ids are UUIDv7,
 * whose first digits are the time, so requests of the same moment share them). */
export const shortId = (id: string) => id.slice(-8);

/** what names a request: its workflow, template or title. */
export function what(r: Request): string {
  if (r.workflow) return `workflow ${r.workflow}`;
  if (r.templateIdentifier) return `template ${r.templateIdentifier}`;
  return r.title ? `“${r.title}”` : "notification";
}

/** audience lists whom a request names: its users and topics. */
export function audience(r: Request): string {
  const names = [...r.recipients, ...r.topics.map((t) => `topic ${t}`)];
  const more = r.recipientCount > r.recipients.length && r.topics.length === 0 ? r.recipientCount - r.recipients.length : 0;
  return names.join(", ") + (more > 0 ? ` and ${more} more` : "");
}
