/**
 * How failed attempts are retried: retry n (from 0) waits a random time in [d/2, d],
 * d = min(baseDelayMs·2ⁿ, maxDelayMs), or the server's Retry-After when longer (up to
 * maxRetryAfterMs; a longer Retry-After throws the 429 at once).
 */
export interface RetryPolicy {
  /** How many times a request is retried after its first attempt (0: never). */
  maxRetries: number;
  /** The wait before the first retry, before jitter. */
  baseDelayMs: number;
  /** The cap of the exponential wait. */
  maxDelayMs: number;
  /** The longest Retry-After honoured (default a minute). */
  maxRetryAfterMs?: number;
}

/** The policy of a new client: 3 retries from 250 ms, capped at 5 s. */
export const defaultRetryPolicy: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 5000,
  maxRetryAfterMs: 60_000,
});

/** The jittered wait before retry attempt+1, in milliseconds. */
export function backoff(p: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  let d = p.baseDelayMs;
  for (let i = 0; i < attempt && d < p.maxDelayMs; i++) d *= 2;
  if (p.maxDelayMs > 0 && d > p.maxDelayMs) d = p.maxDelayMs;
  if (d <= 0) return 0;
  return d / 2 + random() * (d / 2);
}

/** Reads a Retry-After header (seconds or an HTTP date) into milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(v: string | null, now: number = Date.now()): number | undefined {
  if (v === null || v.trim() === "") return undefined;
  const t = v.trim();
  if (/^\d+$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** Waits ms milliseconds, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
