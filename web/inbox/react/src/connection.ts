// One realtime connection per client, however many providers or StrictMode re-mounts hold
// it: the first holder starts the client, the last one to let go stops it — on a timer, so
// that StrictMode's simulated unmount and re-mount (synchronous, in one commit) never closes
// the connection it is about to reuse.
import type { HeraldClient } from "@heraldhq/inbox/client";

interface Hold {
  count: number;
  stopTimer?: ReturnType<typeof setTimeout>;
  started?: Promise<void>;
}

const holds = new WeakMap<HeraldClient, Hold>();

/**
 * Holds the client's connection (started on the first hold) and returns the release.
 * onError receives a failed start (the client then stays offline until retried).
 */
export function retain(client: HeraldClient, onError: (e: Error) => void): () => void {
  let hold = holds.get(client);
  if (!hold) holds.set(client, (hold = { count: 0 }));
  const h = hold;
  h.count++;
  clearTimeout(h.stopTimer);
  h.stopTimer = undefined;
  if (!h.started) {
    h.started = client.start().catch((e: unknown) => {
      h.started = undefined;
      onError(e instanceof Error ? e : new Error(String(e)));
    });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--h.count > 0) return;
    h.stopTimer = setTimeout(() => {
      h.stopTimer = undefined;
      h.started = undefined;
      client.stop();
    }, 0);
  };
}

/** Starts the client again after a failed start (while it is held). */
export function restart(client: HeraldClient, onError: (e: Error) => void): void {
  const h = holds.get(client);
  if (!h || h.count === 0 || h.started) return;
  h.started = client.start().catch((e: unknown) => {
    h.started = undefined;
    onError(e instanceof Error ? e : new Error(String(e)));
  });
}
