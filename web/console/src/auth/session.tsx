// The console session: who is signed in, kept in memory. On load the refresh cookie (if
// any) is traded for an access token; signing out ends the session on the server.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, data, refreshSession, setAccessToken, whenSessionEnds, type components } from "../api/client";

export type User = components["schemas"]["ClientUserEntity"];

type State = { status: "loading" } | { status: "signedOut" } | { status: "signedIn"; user: User };

type Session = {
  state: State;
  /** signedIn records a session answered by a sign-in route. */
  signedIn: (accessToken: string, user: User) => void;
  signOut: () => Promise<void>;
};

const Ctx = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ status: "loading" });
  const qc = useQueryClient();

  useEffect(() => {
    whenSessionEnds(() => {
      qc.clear();
      setState({ status: "signedOut" });
    });
    let live = true;
    refreshSession().then((s) => {
      if (!live) return;
      setState(s?.accessToken && s.user ? { status: "signedIn", user: s.user as User } : { status: "signedOut" });
    });
    return () => {
      live = false;
    };
  }, [qc]);

  const signedIn = useCallback((tok: string, user: User) => {
    setAccessToken(tok);
    setState({ status: "signedIn", user });
  }, []);

  const signOut = useCallback(async () => {
    try {
      await data(api.POST("/v1/auth/signout"));
    } finally {
      setAccessToken(null);
      qc.clear();
      setState({ status: "signedOut" });
    }
  }, [qc]);

  const value = useMemo(() => ({ state, signedIn, signOut }), [state, signedIn, signOut]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useSession(): Session {
  const s = useContext(Ctx);
  if (!s) throw new Error("useSession outside SessionProvider");
  return s;
}
