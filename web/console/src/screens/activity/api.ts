// The activity feature's API module: the app's send requests, paged by cursor and filtered,
// and one request's detail, keyed by the console's key factory (src/api/keys.ts).
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { api, data, type components } from "../../api/client";
import { keys } from "../../api/keys";

type Request = components["schemas"]["NotificationRequest"];

/** RequestFilter is the list's filter as the URL keeps it ("" is no filter). */
export type RequestFilter = { user: string; workflow: string; status: string };

/** requestsApi are the typed calls of the activity screens. */
export const requestsApi = {
  list: (appId: number, f: RequestFilter, cursor: string) =>
    data(
      api.GET("/v1/apps/{appId}/requests", {
        params: {
          path: { appId },
          query: {
            limit: 25,
            ...(cursor ? { cursor } : {}),
            ...(f.user ? { user: f.user } : {}),
            ...(f.workflow ? { workflow: f.workflow } : {}),
            ...(f.status ? { status: f.status as Request["status"] } : {}),
          },
        },
      }),
    ),
  get: (appId: number, requestId: string) => data(api.GET("/v1/apps/{appId}/requests/{requestId}", { params: { path: { appId, requestId } } })),
};

/** useRequests reads the filtered requests, 25 a page, newest first. */
export const useRequests = (appId: number, f: RequestFilter) =>
  useInfiniteQuery({
    queryKey: keys.requests.list(appId, f),
    initialPageParam: "",
    queryFn: ({ pageParam }) => requestsApi.list(appId, f, pageParam),
    getNextPageParam: (last) => last.nextCursor || undefined,
  });

/** useRequest reads what one request did. */
export const useRequest = (appId: number, requestId: string) =>
  useQuery({ queryKey: keys.requests.detail(appId, requestId), queryFn: () => requestsApi.get(appId, requestId) });
