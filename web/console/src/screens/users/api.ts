// The users feature's API module: the app's users (paged, searched, picked), one user's
// profile, devices and inbox, typed calls and their queries keyed by src/api/keys.ts.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** usersApi are the typed calls of the user screens. */
export const usersApi = {
  search: (appId: number, identifier: string, limit: number) =>
    data(api.GET("/v1/apps/{appId}/users", { params: { path: { appId }, query: { identifier, limit } } })),
  page: (appId: number, q: string, pageNo: number, limit: number) =>
    data(api.GET("/v1/apps/{appId}/users", { params: { path: { appId }, query: { limit, pageNo, ...(q ? { identifier: q } : {}) } } })),
  profile: (appId: number, identifier: string) => data(api.GET("/v1/apps/{appId}/users/{identifier}/profile", { params: { path: { appId, identifier } } })),
  devices: (appId: number, identifier: string) => data(api.GET("/v1/apps/{appId}/users/{identifier}/devices", { params: { path: { appId, identifier } } })),
  inbox: (appId: number, identifier: string, pageNo: number, limit: number) =>
    data(api.GET("/v1/apps/{appId}/users/{identifier}/notifications", { params: { path: { appId, identifier }, query: { pageNo, limit } } })),
  export: (appId: number, identifier: string) => data(api.GET("/v1/apps/{appId}/users/{identifier}/export", { params: { path: { appId, identifier } } })),
  erase: (appId: number, identifier: string) => data(api.DELETE("/v1/apps/{appId}/users/{identifier}", { params: { path: { appId, identifier } } })),
};

/** useUsersPage reads one page of the app's users, filtered by identifier when q is set. */
export const useUsersPage = (appId: number, q: string, page: number, limit: number) =>
  useQuery({ queryKey: keys.users.page(appId, q, page), placeholderData: keepPreviousData, queryFn: () => usersApi.page(appId, q, page, limit) });

/** useProfile reads a user's profile. */
export const useProfile = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.users.profile(appId, identifier), queryFn: () => usersApi.profile(appId, identifier) });

/** useDevices reads a user's push devices. */
export const useDevices = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.users.devices(appId, identifier), queryFn: () => usersApi.devices(appId, identifier) });

/** useInbox reads one page of a user's inbox. */
export const useInbox = (appId: number, identifier: string, page: number, limit: number) =>
  useQuery({ queryKey: keys.users.inbox(appId, identifier, page), placeholderData: keepPreviousData, queryFn: () => usersApi.inbox(appId, identifier, page, limit) });

/** useUserSearch finds up to 10 users whose identifier matches q (nothing is read for ""). */
export const useUserSearch = (appId: number, q: string) =>
  useQuery({ queryKey: keys.users.search(appId, q), enabled: q !== "", queryFn: () => usersApi.search(appId, q, 10) });
