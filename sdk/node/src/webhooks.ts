import { base64, constantTimeEqual, fromBase64, hmacSHA256, utf8Bytes } from "./encoding.js";
import { WebhookVerificationError } from "./errors.js";

/** The headers of a webhook request: a fetch Headers object or Node's IncomingHttpHeaders. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** Options of verifyWebhook. */
export interface VerifyWebhookOptions {
  /** How far webhook-timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** The current time (default now); for tests. */
  now?: Date;
}

/** The default tolerance of webhook-timestamp: five minutes either way. */
export const webhookTolerance = 300;

function header(h: WebhookHeaders, name: string): string | undefined {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const rec = h as Record<string, string | string[] | undefined>;
  let v = rec[name];
  if (v === undefined) {
    const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
    v = key === undefined ? undefined : rec[key];
  }
  return Array.isArray(v) ? v[0] : v;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const raw = secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret;
  try {
    const b = fromBase64(raw);
    if (b.length === 0) throw new Error("empty");
    return b;
  } catch {
    throw new WebhookVerificationError("herald: the webhook secret is not whsec_ followed by base64");
  }
}

function payloadBytes(p: string | Uint8Array): Uint8Array {
  return typeof p === "string" ? utf8Bytes(p) : p;
}

/**
 * The signature Standard Webhooks defines: "v1," + base64(HMAC-SHA256(secret,
 * "<id>.<timestamp>.<payload>")), the secret being the base64 after "whsec_". Useful to
 * test a webhook handler.
 */
export async function signWebhook(secret: string, id: string, timestamp: Date | number, payload: string | Uint8Array): Promise<string> {
  const ts = typeof timestamp === "number" ? Math.floor(timestamp) : Math.floor(timestamp.getTime() / 1000);
  const prefix = utf8Bytes(`${id}.${ts}.`);
  const body = payloadBytes(payload);
  const msg = new Uint8Array(prefix.length + body.length);
  msg.set(prefix);
  msg.set(body, prefix.length);
  return "v1," + base64(await hmacSHA256(secretBytes(secret), msg));
}

/**
 * Verifies an event webhook from Herald (Standard Webhooks): the webhook-id,
 * webhook-timestamp and webhook-signature headers, the timestamp within the tolerance (5
 * minutes) and one v1 signature matching the exact payload bytes (compared in constant time).
 * Give it the raw body as received, before any JSON parsing. It returns the parsed event and
 * throws WebhookVerificationError otherwise.
 */
export async function verifyWebhook<T = unknown>(
  secret: string,
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  opts: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const sigs = header(headers, "webhook-signature");
  if (!id || !ts || !sigs) throw new WebhookVerificationError("herald: the webhook lacks webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(ts)) throw new WebhookVerificationError("herald: webhook-timestamp is not a number of seconds");
  const now = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  const tolerance = opts.toleranceSeconds ?? webhookTolerance;
  const at = Number(ts);
  if (at < now - tolerance) throw new WebhookVerificationError("herald: the webhook's timestamp is too old");
  if (at > now + tolerance) throw new WebhookVerificationError("herald: the webhook's timestamp is in the future");
  const expected = (await signWebhook(secret, id, at, payload)).slice("v1,".length);
  let ok = false;
  for (const s of sigs.split(" ")) {
    const comma = s.indexOf(",");
    if (comma < 0 || s.slice(0, comma) !== "v1") continue;
    // No early exit: every listed signature is compared.
    if (constantTimeEqual(s.slice(comma + 1), expected)) ok = true;
  }
  if (!ok) throw new WebhookVerificationError("herald: no webhook signature matches the payload and the secret");
  const text = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new WebhookVerificationError("herald: the webhook's payload is not JSON");
  }
}
