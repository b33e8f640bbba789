// The workflows feature's API module: workflows (list, create, read, save, publish, rename,
// duplicate, archive, critical, delete), their versions, test runs and inline content
// previews, typed calls and their queries keyed by src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import type { Body } from "../../api/body";
import { api, ApiError, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Components } from "./schemaForm";

type Path = { appId: number; identifier: string };

/** workflowsApi are the typed calls of the workflow screens. */
export const workflowsApi = {
  list: (appId: number, archived = false) =>
    data(api.GET("/v1/apps/{appId}/workflows", { params: { path: { appId }, query: archived ? { archived: true } : {} } })),
  create: (appId: number, body: Body<"/v1/apps/{appId}/workflows", "post">) => data(api.POST("/v1/apps/{appId}/workflows", { params: { path: { appId } }, body })),
  get: (path: Path) => data(api.GET("/v1/apps/{appId}/workflows/{identifier}", { params: { path } })),
  save: (path: Path, body: Body<"/v1/apps/{appId}/workflows/{identifier}", "put">) => data(api.PUT("/v1/apps/{appId}/workflows/{identifier}", { params: { path }, body })),
  update: (path: Path, body: Body<"/v1/apps/{appId}/workflows/{identifier}", "patch">) =>
    data(api.PATCH("/v1/apps/{appId}/workflows/{identifier}", { params: { path }, body })),
  publish: (path: Path) => data(api.POST("/v1/apps/{appId}/workflows/{identifier}/publish", { params: { path } })),
  duplicate: (path: Path, body: Body<"/v1/apps/{appId}/workflows/{identifier}/duplicate", "post">) =>
    data(api.POST("/v1/apps/{appId}/workflows/{identifier}/duplicate", { params: { path }, body })),
  remove: (path: Path) => data(api.DELETE("/v1/apps/{appId}/workflows/{identifier}", { params: { path } })),
  versions: (path: Path) => data(api.GET("/v1/apps/{appId}/workflows/{identifier}/versions", { params: { path } })),
  run: (path: Path & { requestId: string }) => data(api.GET("/v1/apps/{appId}/workflows/{identifier}/runs/{requestId}", { params: { path } })),
  cancelRun: (path: Path & { requestId: string }) => data(api.POST("/v1/apps/{appId}/workflows/{identifier}/runs/{requestId}/cancel", { params: { path } })),
  send: (appId: number, body: Body<"/v1/apps/{appId}/notifications", "post">) => data(api.POST("/v1/apps/{appId}/notifications", { params: { path: { appId } }, body })),
  contentPreview: (appId: number, body: Body<"/v1/apps/{appId}/content-preview", "post">) =>
    data(api.POST("/v1/apps/{appId}/content-preview", { params: { path: { appId } }, body })),
  userPicker: (appId: number) => data(api.GET("/v1/apps/{appId}/users", { params: { path: { appId }, query: { limit: 100 } } })),
};

/** useWorkflows reads the app's workflows; archived ones only when asked for. */
export const useWorkflows = (appId: number, archived = false) =>
  useQuery({ queryKey: keys.workflows.list(appId, { archived }), queryFn: () => workflowsApi.list(appId, archived) });

/** useWorkflow reads one workflow with its draft. */
export const useWorkflow = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.workflows.detail(appId, identifier), queryFn: () => workflowsApi.get({ appId, identifier }) });

/** useVersions reads a workflow's published versions. */
export const useVersions = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.workflows.versions(appId, identifier), queryFn: () => workflowsApi.versions({ appId, identifier }) });

/** useUserPicker reads up to 100 of the app's users to pick a test recipient from. */
export const useUserPicker = (appId: number) => useQuery({ queryKey: keys.users.picker(appId), queryFn: () => workflowsApi.userPicker(appId) });

/** useWorkflowSchema loads the workflow JSON Schema: components.schemas of /v1/openapi.json. */
export const useWorkflowSchema = () =>
  useQuery({
    queryKey: keys.openapi(),
    staleTime: Infinity,
    queryFn: async () => {
      const res = await fetch("/v1/openapi.json");
      if (!res.ok) throw new ApiError(res.status, ["the workflow schema could not be loaded"]);
      return ((await res.json()) as { components: { schemas: Components } }).components.schemas;
    },
  });
