/**
 * The official Node.js and TypeScript client of Herald's developer API (/v3).
 *
 * Zero runtime dependencies; web standards only (fetch, WebCrypto), so it runs in Node 18+
 * and in edge runtimes that provide fetch.
 *
 * @packageDocumentation
 */
export { Herald, defaultHeaderPrefix, version } from "./client.js";
export type { HeraldOptions, RequestOptions, SendOptions, FetchLike } from "./client.js";
export { UserClient } from "./user.js";
export type { UserClientOptions, ListOptions, BulkOptions } from "./user.js";
export { APIError, ConnectionError, HeraldError, WebhookVerificationError } from "./errors.js";
export { defaultRetryPolicy } from "./retry.js";
export type { RetryPolicy } from "./retry.js";
export { importPrivateKey, signUserToken, userSignature } from "./auth.js";
export type { SigningKey, UserTokenOptions, WebCryptoKey } from "./auth.js";
export { signWebhook, verifyWebhook, webhookTolerance } from "./webhooks.js";
export type { VerifyWebhookOptions, WebhookHeaders } from "./webhooks.js";
export { pages } from "./pages.js";
export type { Page } from "./pages.js";
export type * from "./types.js";
