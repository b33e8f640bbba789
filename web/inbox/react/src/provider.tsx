// <HeraldProvider>: creates (or takes) the headless client and holds its connection while
// mounted. Nothing runs on the server: the client is created only where `window` exists and
// connects in an effect, which server rendering never runs.
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { HeraldClient, type HeraldClientOptions } from "@heraldhq/inbox/client";
import { HeraldContext, type HeraldContextValue } from "./context.js";
import { restart, retain } from "./connection.js";

/** Props of HeraldProvider: the client's options, or a client the app made itself. */
export type HeraldProviderProps = Partial<HeraldClientOptions> & {
  /** A headless client to use instead of creating one from the options; not started: the provider starts and stops it. */
  client?: HeraldClient;
  children?: ReactNode;
};

const isBrowser = typeof window !== "undefined";

/**
 * Provides a Herald inbox client to the components and hooks below. The client is created
 * from apiKey, userId or userToken and baseUrl (a new one when any of them but userToken
 * changes; a new userToken is handed to the current client), or given as `client`.
 * Rendering on the server creates no client and touches no browser API.
 */
export function HeraldProvider(props: HeraldProviderProps) {
  const { client: given, children, apiKey, userId, userToken, baseUrl, pageSize, headerPrefix, realtime } = props;
  const refresh = useRef(props.refreshUserToken);
  refresh.current = props.refreshUserToken;
  const token = useRef(userToken);
  token.current = userToken;

  const client = useMemo(() => {
    if (given) return given;
    if (!isBrowser || !apiKey || !baseUrl || !(userId || token.current)) return null;
    const options: HeraldClientOptions = { apiKey, baseUrl, userId: userId || undefined, userToken: token.current || undefined };
    if (refresh.current) options.refreshUserToken = () => refresh.current!();
    // Only the options given: an undefined one would override the client's default.
    if (pageSize !== undefined) options.pageSize = pageSize;
    if (headerPrefix !== undefined) options.headerPrefix = headerPrefix;
    if (realtime !== undefined) options.realtime = realtime;
    return new HeraldClient(options);
    // userToken is read through its ref: a new token goes to the current client (below).
  }, [given, apiKey, userId, !!userToken, baseUrl, pageSize, headerPrefix, realtime]);

  useEffect(() => {
    if (client && userToken && !given) client.setUserToken(userToken);
  }, [client, userToken, given]);

  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    if (!client) return;
    setError(null);
    return retain(client, setError);
  }, [client]);

  const value = useMemo<HeraldContextValue>(
    () => ({
      client,
      error,
      retry: () => {
        if (!client) return;
        setError(null);
        restart(client, setError);
      },
    }),
    [client, error],
  );
  return <HeraldContext.Provider value={value}>{children}</HeraldContext.Provider>;
}
