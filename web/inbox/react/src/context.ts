// The provider's context: the headless client (null while rendering on the server) and
// the error of its last start.
import { createContext, useContext } from "react";
import type { HeraldClient } from "@heraldhq/inbox/client";

/** What HeraldProvider gives its descendants. */
export interface HeraldContextValue {
  /** The headless client; null on the server (SSR) and before hydration. */
  client: HeraldClient | null;
  /** Why the inbox could not be loaded (the first call failed), or null. */
  error: Error | null;
  /** Starts the client again after an error. */
  retry: () => void;
}

export const HeraldContext = createContext<HeraldContextValue | null>(null);

/** The provider's context; throws outside a HeraldProvider. */
export function useHeraldContext(): HeraldContextValue {
  const v = useContext(HeraldContext);
  if (!v) throw new Error("herald: wrap the inbox components and hooks in <HeraldProvider>");
  return v;
}
