/** The base class of every error the SDK throws. */
export class HeraldError extends Error {
  override name = "HeraldError";
}

/** The options of an APIError. */
export interface APIErrorInit {
  status: number;
  body: string;
  retryAfterMs?: number;
  /** The X-Request-Id header of the answer, used when the body names no request id. */
  requestIdHeader?: string | null;
  method: string;
  path: string;
}

/**
 * An answer of the API with a status of 400 or more. A 400 lists every violated rule in
 * `problems`; `requestId` names the call in the server's log.
 */
export class APIError extends HeraldError {
  override name = "APIError";
  /** The HTTP status code. */
  readonly status: number;
  /** Every problem of a 400 answer (the API's message list); empty otherwise. */
  readonly problems: string[];
  /** The request id of the call (the body's on 5xx answers, else the X-Request-Id header): look it up in the server's log. */
  readonly requestId: string | undefined;
  /** The wait a 429 asked for (Retry-After) in milliseconds, or undefined. */
  readonly retryAfterMs: number | undefined;
  /** The raw answer body. */
  readonly body: string;
  /** The method and path of the call (path under /v3). */
  readonly method: string;
  readonly path: string;

  constructor(init: APIErrorInit) {
    const parsed = parseErrorBody(init.body);
    parsed.requestId ??= init.requestIdHeader || undefined;
    const msg = parsed.message || init.body.trim() || `HTTP ${init.status}`;
    super(`herald: ${init.method} ${init.path}: ${init.status} ${msg}${parsed.requestId ? ` (request id ${parsed.requestId})` : ""}`);
    this.status = init.status;
    this.problems = parsed.problems;
    this.requestId = parsed.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
    this.method = init.method;
    this.path = init.path;
  }

  /** Whether the request may succeed when retried (429 and 5xx). */
  get temporary(): boolean {
    return this.status === 429 || this.status >= 500;
  }
}

/**
 * The request did not get an answer: a connection error (reset, refused, DNS) or the
 * per-attempt timeout, after the retries the policy allows. `cause` is the underlying error.
 */
export class ConnectionError extends HeraldError {
  override name = "ConnectionError";
  /** Whether the last attempt ran out of time (the client's timeoutMs). */
  readonly timedOut: boolean;
  constructor(message: string, opts: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: opts.cause });
    this.timedOut = opts.timedOut ?? false;
  }
}

/** A webhook whose signature, timestamp or headers do not check out. */
export class WebhookVerificationError extends HeraldError {
  override name = "WebhookVerificationError";
}

/** Reads {"status":"error","message":"…" or ["…"],"requestId":"…"}. */
function parseErrorBody(body: string): { message: string; problems: string[]; requestId: string | undefined } {
  const out = { message: "", problems: [] as string[], requestId: undefined as string | undefined };
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return out;
  }
  if (typeof v !== "object" || v === null) return out;
  const o = v as Record<string, unknown>;
  if (typeof o.requestId === "string" && o.requestId !== "") out.requestId = o.requestId;
  if (Array.isArray(o.message)) {
    out.problems = o.message.filter((m): m is string => typeof m === "string");
    out.message = out.problems.join("; ");
  } else if (typeof o.message === "string") {
    out.message = o.message;
  }
  return out;
}
