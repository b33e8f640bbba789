import { importPrivateKey, type SigningKey, type WebCryptoKey } from "./auth.js";
import { randomUUID } from "./encoding.js";
import { APIError, ConnectionError, HeraldError } from "./errors.js";
import { backoff, defaultRetryPolicy, parseRetryAfter, sleep, type RetryPolicy } from "./retry.js";
import type {
  Category,
  CategoryCreate,
  Deleted,
  Profile,
  SendAccepted,
  SendParams,
  Subscription,
  Channel,
  Topic,
  TopicAttachUser,
  TopicCreate,
  User,
  UserCreate,
  WorkflowCancel,
  WorkflowCancellation,
  WorkflowSchedule,
  WorkflowScheduleCreate,
} from "./types.js";
import { UserClient, type UserClientOptions } from "./user.js";

/** The SDK's version, sent in the User-Agent header. */
export const version = "0.1.0";

/** The prefix of the credential headers unless headerPrefix says otherwise (the server's HERALD_HEADER_PREFIX). */
export const defaultHeaderPrefix = "X-SERVICE-";

/** A fetch implementation: the global fetch by default. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** The options of a Herald client; every one is optional. */
export interface HeraldOptions {
  /** The server's URL, without /v3 (default HERALD_URL, then http://localhost:8080). */
  baseUrl?: string;
  /** The app's API key (default HERALD_API_KEY; required). */
  apiKey?: string;
  /** The app's API secret (default HERALD_API_SECRET). Keep it on the server, never in front-end code. */
  apiSecret?: string;
  /** The prefix of the credential headers (default X-SERVICE-), matching the server's HERALD_HEADER_PREFIX. */
  headerPrefix?: string;
  /** The fetch to call (default the global fetch): a proxy agent, a test double, tracing… */
  fetch?: FetchLike;
  /** The timeout of each attempt in milliseconds (default 30 000). */
  timeoutMs?: number;
  /** The retry policy (default defaultRetryPolicy); false or {maxRetries: 0} turns retries off. */
  retry?: Partial<RetryPolicy> | false;
  /**
   * The app's private key (PEM or CryptoKey): asUser then signs a short-lived user JWT for
   * each call (secure mode) unless given a token.
   */
  signingKey?: SigningKey;
  /** The lifetime of the tokens signingKey signs, in seconds (default 60). */
  tokenExpiresIn?: number;
}

/** Options every call takes. */
export interface RequestOptions {
  /** Aborts the call, its retries and their waits. */
  signal?: AbortSignal;
}

/** Options of a send. */
export interface SendOptions extends RequestOptions {
  /**
   * The send's Idempotency-Key: the same key and body within 24 h answer the same requestId
   * (a different body is a 422). Without it the client generates one per send() call,
   * shared by that call's retries.
   */
  idempotencyKey?: string;
}

/** One call of the API (internal). */
export interface Call {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers: Record<string, string>;
  /** Repeating the call cannot change the outcome (GET, PUT, DELETE, a send with its key, a mark): timeouts, resets and 5xx may be retried. */
  idempotent?: boolean;
  signal?: AbortSignal | undefined;
}

function env(name: string): string | undefined {
  const e = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const v = e?.[name];
  return v === "" ? undefined : v;
}

/** Escapes one path segment (user identifiers may hold slashes). */
export const seg = (s: string | number): string => encodeURIComponent(String(s));

/**
 * A client of Herald's developer API (/v3) with the app's credentials: sends,
 * cancellations, schedules, users, categories and topics. asUser returns a client acting on
 * one user's behalf (inbox, profile, preferences, device connect). Safe for concurrent use.
 *
 * ```ts
 * const herald = new Herald(); // HERALD_URL, HERALD_API_KEY, HERALD_API_SECRET
 * await herald.send({ notification: { title: "Welcome" }, sendTo: { recipients: ["alice"] } });
 * ```
 */
export class Herald {
  /** The server's URL without /v3. */
  readonly baseUrl: string;
  /** The app's API key. */
  readonly apiKey: string;
  /** The credential header prefix. */
  readonly headerPrefix: string;
  readonly #apiSecret: string | undefined;
  readonly #fetch: FetchLike;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #signingKey: SigningKey | undefined;
  #importedKey: Promise<WebCryptoKey> | undefined;
  /** The lifetime of tokens signed with signingKey, in seconds. */
  readonly tokenExpiresIn: number;

  constructor(opts: HeraldOptions = {}) {
    const base = (opts.baseUrl ?? env("HERALD_URL") ?? "http://localhost:8080").replace(/\/+$/, "").replace(/\/v3$/, "");
    let u: URL;
    try {
      u = new URL(base);
    } catch {
      throw new HeraldError(`herald: base URL ${JSON.stringify(base)} is not an absolute URL`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new HeraldError(`herald: base URL ${JSON.stringify(base)} is not http or https`);
    this.baseUrl = base;
    const key = opts.apiKey ?? env("HERALD_API_KEY");
    if (!key) throw new HeraldError("herald: no API key: pass apiKey or set HERALD_API_KEY");
    this.apiKey = key;
    this.#apiSecret = opts.apiSecret ?? env("HERALD_API_SECRET");
    this.headerPrefix = opts.headerPrefix ?? defaultHeaderPrefix;
    const f = opts.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
    if (!f) throw new HeraldError("herald: this runtime has no fetch: pass the fetch option");
    this.#fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.#timeoutMs = opts.timeoutMs ?? 30_000;
    this.#retry = opts.retry === false ? { ...defaultRetryPolicy, maxRetries: 0 } : { ...defaultRetryPolicy, ...opts.retry };
    this.#signingKey = opts.signingKey;
    this.tokenExpiresIn = opts.tokenExpiresIn && opts.tokenExpiresIn > 0 ? opts.tokenExpiresIn : 60;
  }

  /** The signing key as a CryptoKey (imported once), or undefined. @internal */
  signingKey(): Promise<WebCryptoKey> | undefined {
    const k = this.#signingKey;
    if (k === undefined) return undefined;
    if (typeof k !== "string") return Promise.resolve(k);
    this.#importedKey ??= importPrivateKey(k);
    return this.#importedKey;
  }

  /** App-mode credentials. @internal */
  appHeaders(): Record<string, string> {
    const h: Record<string, string> = { [this.headerPrefix + "API-KEY"]: this.apiKey };
    if (this.#apiSecret) h[this.headerPrefix + "API-SECRET"] = this.#apiSecret;
    return h;
  }

  /** Sends a call with retries and returns the decoded 2xx answer. @internal */
  async request<T>(c: Call): Promise<T> {
    const body = c.body === undefined ? undefined : JSON.stringify(c.body);
    let url = this.baseUrl + "/v3" + c.path;
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(c.query ?? {})) if (v !== undefined && v !== "") q.set(k, String(v));
    const qs = q.toString();
    if (qs !== "") url += "?" + qs;
    const idempotent = c.idempotent || c.method === "GET" || c.method === "PUT" || c.method === "DELETE";
    const headers: Record<string, string> = { Accept: "application/json", "User-Agent": `herald-node/${version}`, ...c.headers };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const p = this.#retry;
    for (let attempt = 0; ; attempt++) {
      let wait: number;
      let res: Response;
      let text: string;
      try {
        [res, text] = await this.#once(url, { method: c.method, headers, body }, c.signal, c);
      } catch (e) {
        if (c.signal?.aborted) throw c.signal.reason;
        if (!(e instanceof ConnectionError) || !idempotent || attempt >= p.maxRetries) throw e;
        await sleep(backoff(p, attempt), c.signal);
        continue;
      }
      if (res.status >= 200 && res.status < 300) {
        if (text.trim() === "") return undefined as T;
        try {
          return JSON.parse(text) as T;
        } catch (e) {
          throw new HeraldError(`herald: decode the answer of ${c.method} ${c.path}`, { cause: e });
        }
      }
      const err = new APIError({ status: res.status, body: text, retryAfterMs: parseRetryAfter(res.headers.get("Retry-After")), requestIdHeader: res.headers.get("X-Request-Id"), method: c.method, path: c.path });
      const retryable = res.status === 429 || (res.status >= 500 && idempotent);
      if (!retryable || attempt >= p.maxRetries) throw err;
      wait = backoff(p, attempt);
      if (err.retryAfterMs !== undefined && err.retryAfterMs > wait) {
        if (err.retryAfterMs > (p.maxRetryAfterMs ?? 60_000)) throw err;
        wait = err.retryAfterMs;
      }
      await sleep(wait, c.signal);
    }
  }

  /** One attempt, with the per-attempt timeout; reads the whole answer. */
  async #once(url: string, init: RequestInit, signal: AbortSignal | undefined, c: Call): Promise<[Response, string]> {
    const ctl = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ctl.abort(new ConnectionError(`herald: ${c.method} ${c.path}: no answer within ${this.#timeoutMs} ms`, { timedOut: true }));
    }, this.#timeoutMs);
    const onAbort = () => ctl.abort(signal?.reason);
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const res = await this.#fetch(url, { ...init, signal: ctl.signal });
      const text = await res.text();
      return [res, text];
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) throw new ConnectionError(`herald: ${c.method} ${c.path}: no answer within ${this.#timeoutMs} ms`, { timedOut: true, cause: e });
      throw new ConnectionError(`herald: ${c.method} ${c.path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  #app<T>(method: Call["method"], path: string, body: unknown, o: RequestOptions | undefined, idempotent = false, extra?: Record<string, string>): Promise<T> {
    return this.request<T>({ method, path, body, headers: { ...this.appHeaders(), ...extra }, idempotent, signal: o?.signal });
  }

  /**
   * Sends a notification (POST /v3/notifications) and returns its request id. The request
   * carries an Idempotency-Key (generated when none is given), so timeouts, resets, 429 and
   * 5xx are retried without risk of a second delivery.
   */
  async send(req: SendParams, o: SendOptions = {}): Promise<SendAccepted> {
    const key = o.idempotencyKey ?? (await randomUUID());
    return this.#app("POST", "/notifications", req, o, true, { "Idempotency-Key": key });
  }

  /** Cancels the runs of sends made with notification.workflow.cancellationKey (POST /v3/workflows/cancel). */
  cancelWorkflowRuns(req: WorkflowCancel, o?: RequestOptions): Promise<WorkflowCancellation> {
    return this.#app("POST", "/workflows/cancel", req, o, true);
  }

  /** Creates a recurring workflow trigger (POST /v3/workflows/schedules). */
  createSchedule(req: WorkflowScheduleCreate, o?: RequestOptions): Promise<WorkflowSchedule> {
    return this.#app("POST", "/workflows/schedules", req, o);
  }

  /** Lists the app's recurring workflow triggers (GET /v3/workflows/schedules). */
  listSchedules(o?: RequestOptions): Promise<WorkflowSchedule[]> {
    return this.#app("GET", "/workflows/schedules", undefined, o);
  }

  /** Deletes a recurring workflow trigger (DELETE /v3/workflows/schedules/{id}). */
  deleteSchedule(id: number, o?: RequestOptions): Promise<Deleted> {
    return this.#app("DELETE", "/workflows/schedules/" + seg(id), undefined, o);
  }

  /** Creates a user (POST /v3/users). */
  createUser(u: UserCreate, o?: RequestOptions): Promise<User> {
    return this.#app("POST", "/users", u, o);
  }

  /** Creates the user or updates its profile with these fields (PUT /v3/users/{identifier}). */
  putUser(identifier: string, profile: Profile = {}, o?: RequestOptions): Promise<User> {
    return this.#app("PUT", "/users/" + seg(identifier), profile, o);
  }

  /** Deletes a user with its inbox, preferences and devices (DELETE /v3/users/{identifier}). */
  deleteUser(identifier: string, o?: RequestOptions): Promise<Deleted> {
    return this.#app("DELETE", "/users/" + seg(identifier), undefined, o);
  }

  /** Creates a category (POST /v3/categories). */
  createCategory(cat: CategoryCreate, o?: RequestOptions): Promise<Category> {
    return this.#app("POST", "/categories", cat, o, false, this.#secretKey());
  }

  /** Deletes a category (DELETE /v3/categories/{id}). */
  deleteCategory(id: number, o?: RequestOptions): Promise<Deleted> {
    return this.#app("DELETE", "/categories/" + seg(id), undefined, o, false, this.#secretKey());
  }

  #secretKey(): Record<string, string> {
    return this.#apiSecret ? { [this.headerPrefix + "SECRET-KEY"]: this.#apiSecret } : {};
  }

  /** Creates a topic (POST /v3/topics). */
  createTopic(t: TopicCreate, o?: RequestOptions): Promise<Topic> {
    return this.#app("POST", "/topics", t, o);
  }

  /** Lists the app's topics (GET /v3/topics). */
  listTopics(o?: RequestOptions): Promise<Topic[]> {
    return this.#app("GET", "/topics", undefined, o);
  }

  /** Renames a topic (PATCH /v3/topics/{id}). */
  renameTopic(id: number, name: string, o?: RequestOptions): Promise<Topic> {
    return this.#app("PATCH", "/topics/" + seg(id), { name }, o, true);
  }

  /** Deletes a topic (DELETE /v3/topics/{id}). */
  deleteTopic(id: number, o?: RequestOptions): Promise<Deleted> {
    return this.#app("DELETE", "/topics/" + seg(id), undefined, o);
  }

  /** Subscribes users to a topic (POST /v3/topics/{id}/users); returns the API's count. */
  async subscribeUsers(id: number, users: (string | TopicAttachUser)[], o?: RequestOptions): Promise<number> {
    const body = { users: users.map((u) => (typeof u === "string" ? { identifier: u } : u)) };
    const r = await this.#app<{ count: number }>("POST", `/topics/${seg(id)}/users`, body, o, true);
    return r.count;
  }

  /** Removes users from a topic (POST /v3/topics/{id}/detachUsers); returns the API's count. */
  async unsubscribeUsers(id: number, identifiers: string[], o?: RequestOptions): Promise<number> {
    const r = await this.#app<{ count: number }>("POST", `/topics/${seg(id)}/detachUsers`, { users: identifiers }, o, true);
    return r.count;
  }

  /** Sets the channels of a user's subscription to a topic; none means every channel (PUT /v3/topics/{id}/users/{identifier}). */
  updateSubscription(id: number, identifier: string, channels: Channel[] = [], o?: RequestOptions): Promise<Subscription> {
    return this.#app("PUT", `/topics/${seg(id)}/users/${seg(identifier)}`, { channels }, o);
  }

  /** Lists a user's topic subscriptions (GET /v3/topics/subscriptions/{identifier}). */
  listSubscriptions(identifier: string, o?: RequestOptions): Promise<Subscription[]> {
    return this.#app("GET", "/topics/subscriptions/" + seg(identifier), undefined, o);
  }

  /** The developer API's OpenAPI document (GET /v3/openapi.json; no credentials needed). */
  openapi(o?: RequestOptions): Promise<Record<string, unknown>> {
    return this.request({ method: "GET", path: "/openapi.json", headers: {}, signal: o?.signal });
  }

  /**
   * A client acting for the user (user mode): inbox, profile, preferences, categories and
   * device connect. It sends the API key and the user id, and a user JWT in secure mode
   * (opts.token, or one signed per call with the client's signingKey); never the API secret.
   */
  asUser(identifier: string, opts: UserClientOptions = {}): UserClient {
    return new UserClient(this, identifier, opts);
  }
}
