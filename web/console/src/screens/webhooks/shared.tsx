// What the webhook screens share: the event catalogue, the endpoint form (events, filter,
// ordering) and the panel that shows a signing secret the one time it is available.
import { useState } from "react";
import type { components } from "../../api/client";
import { channelName, channels } from "../../api/channels";
import type { Channel } from "../../api/templateForm";
import { Checkbox } from "../../ui/confirm";
import { Button, CopyButton, Field } from "../../ui/kit";

export type Endpoint = components["schemas"]["WebhookEndpoint"];
export type EventType = components["schemas"]["WebhookEventType"];
export type Delivery = components["schemas"]["WebhookDelivery"];

/** eventGroups lists the event types by what they are about, in the order of the docs. */
export const eventGroups: { title: string; types: EventType[] }[] = [
  { title: "Messages", types: ["message.sent", "message.delivered", "message.failed", "message.bounced", "message.opened", "message.clicked"] },
  {
    title: "In-app notifications",
    types: ["notification.seen", "notification.read", "notification.clicked", "notification.archived", "notification.deleted"],
  },
  { title: "Workflow runs", types: ["flow_run.completed", "flow_run.failed"] },
  { title: "Users", types: ["preference.changed", "user.unsubscribed"] },
];

/** EndpointDraft is the editable part of an endpoint. */
export type EndpointDraft = {
  url: string;
  description: string;
  eventTypes: EventType[];
  categories: string;
  workflows: string;
  channels: Channel[];
  ordered: boolean;
};

export const emptyDraft: EndpointDraft = { url: "", description: "", eventTypes: [], categories: "", workflows: "", channels: [], ordered: false };

/** draftOf turns an endpoint into its form. */
export function draftOf(e: Endpoint): EndpointDraft {
  return {
    url: e.url,
    description: e.description,
    eventTypes: e.eventTypes,
    categories: (e.filter.categories ?? []).join(", "),
    workflows: (e.filter.workflows ?? []).join(", "),
    channels: (e.filter.channels ?? []) as Channel[],
    ordered: e.ordered,
  };
}

const list = (s: string) =>
  s
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);

/** bodyOf is the API body of a draft. */
export function bodyOf(d: EndpointDraft) {
  return {
    url: d.url.trim(),
    description: d.description.trim(),
    eventTypes: d.eventTypes,
    ordered: d.ordered,
    filter: { categories: list(d.categories), workflows: list(d.workflows), channels: d.channels },
  };
}

/** EndpointFields edits a draft; errs are the API's problems by field. */
export function EndpointFields({ draft, set, errs }: { draft: EndpointDraft; set: (d: EndpointDraft) => void; errs: Record<string, string[]> }) {
  const toggle = <T,>(xs: T[], x: T, on: boolean) => (on ? [...xs.filter((v) => v !== x), x] : xs.filter((v) => v !== x));
  return (
    <div className="webhook-fields">
      <Field
        label="Endpoint URL"
        type="url"
        value={draft.url}
        onChange={(e) => set({ ...draft, url: e.target.value })}
        errors={errs.url}
        placeholder="https://api.example.com/herald/webhooks"
        hint="Herald posts signed JSON here (Standard Webhooks). Internal addresses are refused unless your operator allows them."
      />
      <Field
        label="Description"
        value={draft.description}
        onChange={(e) => set({ ...draft, description: e.target.value })}
        errors={errs.description}
        maxLength={500}
      />
      <fieldset className="subform">
        <legend>Events</legend>
        {eventGroups.map((g) => (
          <div key={g.title} className="switch-list" role="group" aria-label={g.title}>
            <span className="small muted">{g.title}</span>
            {g.types.map((t) => (
              <label key={t} className="inline-check">
                <Checkbox checked={draft.eventTypes.includes(t)} onChange={(on) => set({ ...draft, eventTypes: toggle(draft.eventTypes, t, on) })} />{" "}
                <code>{t}</code>
              </label>
            ))}
          </div>
        ))}
        {errs.eventTypes?.length ? (
          <p className="field-error" role="alert">
            {errs.eventTypes.join(". ")}
          </p>
        ) : null}
      </fieldset>
      <fieldset className="subform">
        <legend>Filter (optional)</legend>
        <Field
          label="Categories"
          value={draft.categories}
          onChange={(e) => set({ ...draft, categories: e.target.value })}
          errors={errs["filter.categories"]}
          hint="Category identifiers, comma-separated; empty: every category."
        />
        <Field
          label="Workflows"
          value={draft.workflows}
          onChange={(e) => set({ ...draft, workflows: e.target.value })}
          errors={errs["filter.workflows"]}
          hint="Workflow identifiers, comma-separated; empty: every workflow."
        />
        <div className="switch-list" role="group" aria-label="Channels">
          <span className="small muted">Channels (none checked: every channel)</span>
          {channels.map((c) => (
            <label key={c} className="inline-check">
              <Checkbox checked={draft.channels.includes(c)} onChange={(on) => set({ ...draft, channels: toggle(draft.channels, c, on) })} />{" "}
              {channelName(c)}
            </label>
          ))}
        </div>
      </fieldset>
      <label className="inline-check">
        <Checkbox checked={draft.ordered} onChange={(on) => set({ ...draft, ordered: on })} /> Deliver in order (one event at a time; a failing
        event holds back the later ones)
      </label>
    </div>
  );
}

/** SecretOnce shows a signing secret the one time the API returns it. */
export function SecretOnce({ secret, onDone }: { secret: string; onDone: () => void }) {
  const [shown] = useState(secret);
  return (
    <div className="secret-once" role="region" aria-label="Signing secret">
      <p>
        <strong>Copy the signing secret now:</strong> it is shown only this once. Verify each request's <code>webhook-signature</code> with it
        (docs/webhooks.md).
      </p>
      <pre className="code" aria-label="Secret" tabIndex={0}>
        {shown}
      </pre>
      <div className="row">
        <CopyButton text={shown} what="signing secret" />
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

/** when formats an optional timestamp. */
export const when = (s?: string | null) => (s ? new Date(s).toLocaleString() : "");
