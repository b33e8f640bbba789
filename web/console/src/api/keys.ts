// The query keys of the whole console, from one factory. Keys nest: an app's key is the
// prefix of everything read under that app, a feature's list key the prefix of its details,
// so invalidating a shorter key refreshes everything under it (TanStack Query matches by
// prefix). Feature API modules (src/screens/<feature>/api.ts) take their keys from here;
// no screen writes a key literal.

type Id = number | string | undefined;

const app = (appId: Id) => ["apps", appId] as const;
const client = (clientId: Id) => ["clients", clientId] as const;
const user = (appId: Id, identifier: Id) => [...app(appId), "users", identifier] as const;

/** keys builds every query key of the console. */
export const keys = {
  me: () => ["me"] as const,
  twoFactorSetup: () => ["2fa-setup"] as const,
  assistant: () => ["assistant"] as const,
  providers: () => ["providers"] as const,
  openapi: () => ["openapi", "v1"] as const,
  codehostOptions: () => ["codehost", "options"] as const,
  invitation: (code: Id) => ["invitation", code] as const,

  clients: {
    all: () => ["clients"] as const,
    apps: (clientId: Id) => [...client(clientId), "apps"] as const,
    members: (clientId: Id) => [...client(clientId), "members"] as const,
    invitations: (clientId: Id) => [...client(clientId), "invitations"] as const,
    usage: (clientId: Id) => [...client(clientId), "usage"] as const,
    cliTokens: (clientId: Id) => [...client(clientId), "cli-tokens"] as const,
    subscription: (clientId: Id) => [...client(clientId), "subscription"] as const,
    paymentMethods: (clientId: Id) => [...client(clientId), "paymentMethods"] as const,
    invoices: (clientId: Id) => [...client(clientId), "invoices"] as const,
    license: (clientId: Id) => [...client(clientId), "license"] as const,
  },

  apps: {
    all: () => ["apps"] as const,
    detail: app,
    secret: (appId: Id) => [...app(appId), "secret"] as const,
    integrationStatus: (appId: Id) => [...app(appId), "integration-status"] as const,
    retention: (appId: Id) => [...app(appId), "retention"] as const,
    logs: (appId: Id, filter: object) => [...app(appId), "logs", filter] as const,
  },

  channels: {
    all: (appId: Id) => [...app(appId), "channels"] as const,
    routes: (appId: Id, channel: string) => [...app(appId), "channels", channel, "routes"] as const,
  },

  categories: {
    all: (appId: Id) => [...app(appId), "categories"] as const,
  },

  topics: {
    all: (appId: Id) => [...app(appId), "topics"] as const,
    userCount: (topicId: Id) => ["topics", topicId, "users", "count"] as const,
    users: (topicId: Id, page: number) => ["topics", topicId, "users", page] as const,
  },

  users: {
    all: (appId: Id) => [...app(appId), "users"] as const,
    page: (appId: Id, q: string, page: number) => [...app(appId), "users", q, page] as const,
    picker: (appId: Id) => [...app(appId), "users", "picker"] as const,
    search: (appId: Id, q: string) => [...app(appId), "users", "search", q] as const,
    detail: user,
    profile: (appId: Id, identifier: Id) => [...user(appId, identifier), "profile"] as const,
    devices: (appId: Id, identifier: Id) => [...user(appId, identifier), "devices"] as const,
    inbox: (appId: Id, identifier: Id, page: number) => [...user(appId, identifier), "inbox", page] as const,
  },

  preferences: {
    all: (appId: Id, identifier: Id) => [...user(appId, identifier), "preferences"] as const,
    channels: (appId: Id, identifier: Id) => [...user(appId, identifier), "preferences", "channels"] as const,
    workflows: (appId: Id, identifier: Id) => [...user(appId, identifier), "preferences", "workflows"] as const,
    quietHours: (appId: Id, identifier: Id) => [...user(appId, identifier), "preferences", "quiet-hours"] as const,
  },

  webhooks: {
    all: (appId: Id) => [...app(appId), "webhooks"] as const,
    detail: (appId: Id, webhookId: Id) => [...app(appId), "webhooks", webhookId] as const,
    deliveries: (appId: Id, webhookId: Id) => [...app(appId), "webhooks", webhookId, "deliveries"] as const,
    deliveryPage: (appId: Id, webhookId: Id, before: number) => [...app(appId), "webhooks", webhookId, "deliveries", before] as const,
  },

  requests: {
    all: (appId: Id) => [...app(appId), "requests"] as const,
    list: (appId: Id, filter: object) => [...app(appId), "requests", filter] as const,
    detail: (appId: Id, requestId: Id) => [...app(appId), "requests", requestId] as const,
  },

  ops: {
    scheduled: (appId: Id) => [...app(appId), "scheduled"] as const,
    scheduledPage: (appId: Id, all: boolean, page: number) => [...app(appId), "scheduled", all, page] as const,
    flowSchedules: (appId: Id) => [...app(appId), "flow-schedules"] as const,
    analytics: (appId: Id, view: "days" | "channels" | "templates", from: string, to: string) =>
      [...app(appId), "analytics", view, from, to] as const,
    uncommitted: (appId: Id) => [...app(appId), "uncommitted"] as const,
    commits: (appId: Id) => [...app(appId), "commits"] as const,
    publishPreview: (appId: Id, commitId: Id, target: Id) => [...app(appId), "publish-preview", commitId, target] as const,
  },

  templates: {
    all: (appId: Id) => [...app(appId), "templates"] as const,
    detail: (templateId: Id) => ["templates", templateId] as const,
    /** preview is the prefix of a template's live previews (not under detail: a save refetches the template only). */
    preview: (templateId: Id) => ["preview", templateId] as const,
    /** stepPreview is a template's preview inside a workflow step. */
    stepPreview: (templateId: Id) => ["preview", templateId, "step"] as const,
    layouts: (appId: Id) => [...app(appId), "layouts"] as const,
    translations: (appId: Id) => [...app(appId), "translations"] as const,
  },

  workflows: {
    all: (appId: Id) => [...app(appId), "workflows"] as const,
    /** anyList matches every list (whatever its filter), not the workflows themselves. */
    anyList: (appId: Id) => [...app(appId), "workflows", {}] as const,
    list: (appId: Id, filter: { archived: boolean }) => [...app(appId), "workflows", filter] as const,
    published: (appId: Id) => [...app(appId), "workflows", "published"] as const,
    detail: (appId: Id, identifier: Id) => [...app(appId), "workflows", identifier] as const,
    versions: (appId: Id, identifier: Id) => [...app(appId), "workflows", identifier, "versions"] as const,
    /** contentPreview is the prefix of a step's inline content previews. */
    contentPreview: (appId: Id) => ["content-preview", appId] as const,
    run: (appId: Id, identifier: Id, requestId: Id) => [...app(appId), "workflows", identifier, "runs", requestId] as const,
  },
};
