// The workflows feature's API module (so far the list other features read; the designer's
// calls move here with the rest of the folder).
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** workflowsApi are the typed calls of the workflow screens. */
export const workflowsApi = {
  list: (appId: number, archived = false) =>
    data(api.GET("/v1/apps/{appId}/workflows", { params: { path: { appId }, query: archived ? { archived: true } : {} } })),
};

/** useWorkflows reads the app's workflows; archived ones only when asked for. */
export const useWorkflows = (appId: number, archived = false) =>
  useQuery({ queryKey: keys.workflows.list(appId, { archived }), queryFn: () => workflowsApi.list(appId, archived) });
