// The message logs feature's API module: the app's message logs, paged by cursor and
// filtered, keyed by src/api/keys.ts (the provider catalogue is channels/api.ts's).
import { useInfiniteQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** LogFilter is the logs' filter as the URL keeps it ("" is no filter). */
export type LogFilter = { fromDate: string; toDate: string; user: string; channel: string; provider: string; event: string };

/** logsApi are the typed calls of the message logs screen. */
export const logsApi = {
  page: (appId: number, f: LogFilter, cursor: string) =>
    data(
      api.GET("/v1/apps/{appId}/logs", {
        params: {
          path: { appId },
          query: {
            limit: 25,
            ...(cursor ? { cursor } : {}),
            ...(f.fromDate ? { fromDate: f.fromDate } : {}),
            ...(f.toDate ? { toDate: f.toDate } : {}),
            ...(f.user ? { userIdentifier: [f.user] } : {}),
            ...(f.channel ? { channel: f.channel } : {}),
            ...(f.provider ? { providerIdentifier: f.provider } : {}),
            ...(f.event ? { event: f.event } : {}),
          },
        },
      }),
    ),
};

/** useLogs reads the filtered message logs, 25 a page, newest first. */
export const useLogs = (appId: number, f: LogFilter) =>
  useInfiniteQuery({
    queryKey: keys.apps.logs(appId, f),
    initialPageParam: "",
    queryFn: ({ pageParam }) => logsApi.page(appId, f, pageParam),
    getNextPageParam: (last) => last.nextCursor || undefined,
  });
