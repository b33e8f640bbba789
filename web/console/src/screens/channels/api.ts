// The channels feature's API module: the provider catalogue, the app's provider instances per
// channel (create, test, enable, disable, prioritise) and its routes (failover chains), typed
// calls and their queries keyed by src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import type { Body } from "../../api/body";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Channel } from "../../api/channels";

type InstancePath = { appId: number; channel: Channel; providerInstance: number };

/** channelsApi are the typed calls of the channel screens. */
export const channelsApi = {
  providers: () => data(api.GET("/v1/providers")),
  instances: (appId: number) => data(api.GET("/v1/apps/{appId}/channels", { params: { path: { appId } } })),
  createInstance: (appId: number, channel: Channel, body: Body<"/v1/apps/{appId}/channels/{channel}/providerInstances", "post">) =>
    data(api.POST("/v1/apps/{appId}/channels/{channel}/providerInstances", { params: { path: { appId, channel } }, body })),
  updateInstance: (path: InstancePath, body: Body<"/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}", "patch">) =>
    data(api.PATCH("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}", { params: { path }, body })),
  enableInstance: (path: InstancePath) => data(api.PUT("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}/enable", { params: { path } })),
  disableInstance: (path: InstancePath) => data(api.PUT("/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}/disable", { params: { path } })),
  routes: (appId: number, channel: Channel) => data(api.GET("/v1/apps/{appId}/channels/{channel}/routes", { params: { path: { appId, channel } } })),
  createRoute: (appId: number, channel: Channel, body: Body<"/v1/apps/{appId}/channels/{channel}/routes", "post">) =>
    data(api.POST("/v1/apps/{appId}/channels/{channel}/routes", { params: { path: { appId, channel } }, body })),
  updateRoute: (routeId: number, body: Body<"/v1/routes/{routeId}", "put">) => data(api.PUT("/v1/routes/{routeId}", { params: { path: { routeId } }, body })),
  deleteRoute: (routeId: number) => data(api.DELETE("/v1/routes/{routeId}", { params: { path: { routeId } } })),
};

/** useProviders reads the provider catalogue (it does not change while the console runs). */
export const useProviders = () => useQuery({ queryKey: keys.providers(), queryFn: () => channelsApi.providers(), staleTime: Infinity });

/** useInstances reads the app's provider instances. */
export const useInstances = (appId: number) => useQuery({ queryKey: keys.channels.all(appId), queryFn: () => channelsApi.instances(appId) });

/** useRoutes reads a channel's routes. */
export const useRoutes = (appId: number, channel: Channel) =>
  useQuery({ queryKey: keys.channels.routes(appId, channel), queryFn: () => channelsApi.routes(appId, channel) });
