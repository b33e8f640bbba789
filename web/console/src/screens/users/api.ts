// The users feature's API module: the app's users (paged, searched, picked), one user's
// profile, devices and inbox, typed calls and their queries keyed by src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** usersApi are the typed calls of the user screens. */
export const usersApi = {
  search: (appId: number, identifier: string, limit: number) =>
    data(api.GET("/v1/apps/{appId}/users", { params: { path: { appId }, query: { identifier, limit } } })),
};

/** useUserSearch finds up to 10 users whose identifier matches q (nothing is read for ""). */
export const useUserSearch = (appId: number, q: string) =>
  useQuery({ queryKey: keys.users.search(appId, q), enabled: q !== "", queryFn: () => usersApi.search(appId, q, 10) });
