// Shared queries of the signed-in screens: the teams (clients) the user belongs to, their
// apps, one app, and the roles. Keys come from the console's key factory (src/api/keys.ts).
import { useQuery } from "@tanstack/react-query";
import { api, data, type components } from "../api/client";
import { keys } from "../api/keys";

export type Client = components["schemas"]["Client"];
export type App = components["schemas"]["AppEntity"];
export type Role = NonNullable<Client["role"]>;

const rank: Record<Role, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };
/** atLeast reports whether role reaches min. */
export const atLeast = (role: Role | undefined, min: Role) => role !== undefined && rank[role] >= rank[min];

/** clientsApi are the typed calls about teams and their apps. */
export const clientsApi = {
  list: () => data(api.GET("/v1/clients")),
  create: (name: string) => data(api.POST("/v1/clients", { body: { name } })),
  initialize: (clientId: number) => data(api.POST("/v1/clients/{clientId}/initialize-client-environment", { params: { path: { clientId } } })),
  apps: (clientId: number) => data(api.GET("/v1/clients/{clientId}/apps", { params: { path: { clientId } } })),
  app: (appId: number) => data(api.GET("/v1/apps/{appId}", { params: { path: { appId } } })),
};

export const useClients = () => useQuery({ queryKey: keys.clients.all(), queryFn: () => clientsApi.list() });

export const useApps = (clientId: number | undefined) =>
  useQuery({
    queryKey: keys.clients.apps(clientId),
    queryFn: () => clientsApi.apps(clientId!),
    enabled: clientId !== undefined,
  });

export const useApp = (appId: number) =>
  useQuery({
    queryKey: keys.apps.detail(appId),
    queryFn: () => clientsApi.app(appId),
    enabled: Number.isSafeInteger(appId) && appId > 0,
  });
