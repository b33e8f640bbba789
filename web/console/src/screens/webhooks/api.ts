// The webhooks feature's API module: typed calls to /v1/apps/{appId}/webhooks and the queries
// the screens read, keyed by the console's one key factory (src/api/keys.ts).
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, data, type components } from "../../api/client";
import { keys } from "../../api/keys";

type Create = components["schemas"]["WebhookEndpointCreate"];
type Update = components["schemas"]["WebhookEndpointUpdate"];

/** webhooksApi are the typed calls of the webhooks screens. */
export const webhooksApi = {
  list: (appId: number) => data(api.GET("/v1/apps/{appId}/webhooks", { params: { path: { appId } } })).then((r) => r.data),
  get: (appId: number, webhookId: number) => data(api.GET("/v1/apps/{appId}/webhooks/{webhookId}", { params: { path: { appId, webhookId } } })),
  create: (appId: number, body: Create) => data(api.POST("/v1/apps/{appId}/webhooks", { params: { path: { appId } }, body })),
  update: (appId: number, webhookId: number, body: Update) =>
    data(api.PATCH("/v1/apps/{appId}/webhooks/{webhookId}", { params: { path: { appId, webhookId } }, body })),
  rotateSecret: (appId: number, webhookId: number) =>
    data(api.POST("/v1/apps/{appId}/webhooks/{webhookId}/rotate-secret", { params: { path: { appId, webhookId } } })),
  remove: (appId: number, webhookId: number) => data(api.DELETE("/v1/apps/{appId}/webhooks/{webhookId}", { params: { path: { appId, webhookId } } })),
  deliveries: (appId: number, webhookId: number, before: number) =>
    data(api.GET("/v1/apps/{appId}/webhooks/{webhookId}/deliveries", { params: { path: { appId, webhookId }, query: { before: before || undefined, limit: 25 } } })),
  replay: (appId: number, webhookId: number, since: string) =>
    data(api.POST("/v1/apps/{appId}/webhooks/{webhookId}/replay", { params: { path: { appId, webhookId } }, body: { since } })),
  resend: (appId: number, webhookId: number, deliveryId: number) =>
    data(api.POST("/v1/apps/{appId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend", { params: { path: { appId, webhookId, deliveryId } } })),
};

/** useEndpoints reads the app's endpoints. */
export const useEndpoints = (appId: number) => useQuery({ queryKey: keys.webhooks.all(appId), queryFn: () => webhooksApi.list(appId) });

/** useEndpoint reads one endpoint. */
export const useEndpoint = (appId: number, webhookId: number) =>
  useQuery({ queryKey: keys.webhooks.detail(appId, webhookId), queryFn: () => webhooksApi.get(appId, webhookId) });

/** useDeliveries reads one page of an endpoint's delivery log (before a cursor), refreshed every 5 s. */
export const useDeliveries = (appId: number, webhookId: number, before: number) =>
  useQuery({
    queryKey: keys.webhooks.deliveryPage(appId, webhookId, before),
    placeholderData: keepPreviousData,
    refetchInterval: 5000,
    queryFn: () => webhooksApi.deliveries(appId, webhookId, before),
  });
