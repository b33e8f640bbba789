// The typed client of the management API. Types come from src/api/schema.gen.ts, which
// `npm run gen:api` generates from /v1/openapi.json: a renamed field breaks `tsc`.
//
// Sessions: the access token lives in this module's memory only; the refresh token is an
// httpOnly cookie the API sets for requests carrying X-Herald-Console: 1. A 401 triggers
// one refresh through POST /v1/auth/console/refresh and one retry.
import createClient from "openapi-fetch";
import type { paths } from "./schema.gen";

export type { components, paths } from "./schema.gen";
export { ApiError, fieldErrors } from "./errors";
import { ApiError } from "./errors";

let accessToken: string | null = null;
let onSessionEnded: (() => void) | null = null;

/** setAccessToken keeps the access token in memory (never in storage). */
export function setAccessToken(tok: string | null) {
  accessToken = tok;
}

/** whenSessionEnds registers what to do when a refresh fails (back to sign-in). */
export function whenSessionEnds(fn: () => void) {
  onSessionEnded = fn;
}

type RefreshAnswer = { accessToken?: string; user?: unknown } | null;
let refreshing: Promise<RefreshAnswer> | null = null;

/**
 * refreshSession trades the refresh cookie for a new access token. Calls are shared while
 * one is in flight, and serialised across tabs with a Web Lock: a refresh token works once,
 * so two tabs must never present the same one.
 */
export function refreshSession(): Promise<RefreshAnswer> {
  if (!refreshing) {
    const run = async (): Promise<RefreshAnswer> => {
      const res = await fetch("/v1/auth/console/refresh", {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-Herald-Console": "1" },
      });
      if (!res.ok || res.status === 204) {
        setAccessToken(null);
        return null;
      }
      const body = (await res.json()) as { accessToken?: string; user?: unknown };
      setAccessToken(body.accessToken ?? null);
      return body;
    };
    const locks = (navigator as Navigator & { locks?: LockManager }).locks;
    const p = locks ? (locks.request("herald-console-refresh", run) as Promise<RefreshAnswer>) : run();
    refreshing = p.finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

async function consoleFetch(input: Request): Promise<Response> {
  const retry = input.clone();
  const send = (req: Request) => {
    req.headers.set("X-Herald-Console", "1");
    if (accessToken && !req.headers.has("Authorization")) req.headers.set("Authorization", `Bearer ${accessToken}`);
    return fetch(req, { credentials: "same-origin" });
  };
  const res = await send(input);
  const path = new URL(input.url).pathname;
  if (res.status !== 401 || !accessToken || path.startsWith("/v1/auth/console/") || path === "/v1/auth") return res;
  const next = await refreshSession();
  if (!next?.accessToken) {
    onSessionEnded?.();
    return res;
  }
  return send(retry);
}

/** api is the typed client of /v1. */
export const api = createClient<paths>({ baseUrl: window.location.origin, fetch: consoleFetch });

/** data returns the answer's data or throws its error as an ApiError. */
export async function data<T>(p: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await p;
  if (error !== undefined || !response.ok) {
    const msg = (error as { message?: unknown } | undefined)?.message;
    const messages = Array.isArray(msg) ? msg.map(String) : msg ? [String(msg)] : [];
    // A 422 for data that breaks a payload schema lists every problem with its place.
    const problems = (error as { problems?: { pointer: string; message: string }[] } | undefined)?.problems;
    if (Array.isArray(problems)) messages.push(...problems.map((p) => `${p.pointer}: ${p.message}`));
    throw new ApiError(response.status, messages);
  }
  return data as T;
}

