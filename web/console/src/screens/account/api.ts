// The account feature's API module: the signed-in user and their two-factor set-up, typed
// calls and their queries keyed by src/api/keys.ts (teams and apps: ../queries.ts).
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** accountApi are the typed calls of the account screen. */
export const accountApi = {
  me: () => data(api.GET("/v1/auth/me")),
  // The route can also answer the QR code as image/png; the console asks for JSON.
  twoFactorSetup: async () => {
    const r = await data(api.GET("/v1/ee/auth/2fa", { headers: { Accept: "application/json" } }));
    if (typeof r === "string") throw new Error("unexpected answer: expected the set-up as JSON");
    return r;
  },
  enableTwoFactor: (code: string) => data(api.PATCH("/v1/ee/auth/2fa/enable", { body: { code } })),
  disableTwoFactor: (code: string) => data(api.PATCH("/v1/ee/auth/2fa/disable", { body: { code } })),
};

/** useMe reads the signed-in user. */
export const useMe = () => useQuery({ queryKey: keys.me(), queryFn: () => accountApi.me() });

/** useTwoFactorSetup creates a two-factor secret to set up (never cached past its screen). */
export const useTwoFactorSetup = () => useQuery({ queryKey: keys.twoFactorSetup(), queryFn: () => accountApi.twoFactorSetup(), gcTime: 0, staleTime: Infinity });
