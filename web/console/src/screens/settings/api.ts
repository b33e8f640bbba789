// The app settings feature's API module: the app's credentials and allowed origins, secure
// mode (RSA key, enforcement, test tokens), retention and integration status, typed calls and
// their queries keyed by src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** settingsApi are the typed calls of the app settings screens. */
export const settingsApi = {
  secret: (appId: number) => data(api.GET("/v1/apps/{appId}/secret", { params: { path: { appId } } })),
  setAllowedOrigins: (appId: number, allowedOrigins: string[]) => data(api.PUT("/v1/apps/{appId}", { params: { path: { appId } }, body: { allowedOrigins } })),
  generateRsaKey: (appId: number) => data(api.POST("/v1/apps/{appId}/rsa-key", { params: { path: { appId } } })),
  toggleSecureAuth: (appId: number) => data(api.PUT("/v1/apps/{appId}/secure-auth", { params: { path: { appId } } })),
  testToken: (id: number, user: string) =>
    data(api.GET("/v1/auth/app/{id}/generate-token", { params: { path: { id }, query: user ? { userIdentifier: user } : {} } })),
  retention: (appId: number) => data(api.GET("/v1/apps/{appId}/retention", { params: { path: { appId } } })),
  setRetention: (appId: number, body: Record<string, number | null>) => data(api.PUT("/v1/apps/{appId}/retention", { params: { path: { appId } }, body })),
  integrationStatus: (appId: number) => data(api.GET("/v1/apps/{appId}/integration-status", { params: { path: { appId } } })),
};

/** useSecret reads the app's secret when enabled (a reveal). */
export const useSecret = (appId: number, enabled: boolean) =>
  useQuery({ queryKey: keys.apps.secret(appId), queryFn: () => settingsApi.secret(appId), enabled });

/** useRetention reads how long the app keeps each kind of data. */
export const useRetention = (appId: number) => useQuery({ queryKey: keys.apps.retention(appId), queryFn: () => settingsApi.retention(appId) });

/** useIntegrationStatus reads whether the app has sent yet, every 3 s until it has. */
export const useIntegrationStatus = (appId: number) =>
  useQuery({
    queryKey: keys.apps.integrationStatus(appId),
    queryFn: () => settingsApi.integrationStatus(appId),
    refetchInterval: (q) => (q.state.data?.integrationStatus?.hasSent ? false : 3000),
  });
