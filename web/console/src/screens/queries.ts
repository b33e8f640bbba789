// Shared queries of the signed-in screens.
import { useQuery } from "@tanstack/react-query";
import { api, data, type components } from "../api/client";

export type Client = components["schemas"]["Client"];
export type App = components["schemas"]["AppEntity"];
export type Role = NonNullable<Client["role"]>;

const rank: Record<Role, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };
/** atLeast reports whether role reaches min. */
export const atLeast = (role: Role | undefined, min: Role) => role !== undefined && rank[role] >= rank[min];

export const useClients = () => useQuery({ queryKey: ["clients"], queryFn: () => data(api.GET("/v1/clients")) });

export const useApps = (clientId: number | undefined) =>
  useQuery({
    queryKey: ["clients", clientId, "apps"],
    queryFn: () => data(api.GET("/v1/clients/{clientId}/apps", { params: { path: { clientId: clientId! } } })),
    enabled: clientId !== undefined,
  });

export const useApp = (appId: number) =>
  useQuery({
    queryKey: ["apps", appId],
    queryFn: () => data(api.GET("/v1/apps/{appId}", { params: { path: { appId } } })),
    enabled: Number.isSafeInteger(appId) && appId > 0,
  });
