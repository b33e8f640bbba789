// The preferences feature's API module: one user's preferences (the category × channel
// matrix, the channel switches, the workflow switches and quiet hours), typed calls and their
// queries, keyed by the console's key factory (src/api/keys.ts).
import { useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";
import type { Channel } from "./logic";

type Path = { appId: number; identifier: string };
type Day = "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";

/** QuietHoursBody is a change to a user's quiet hours. */
export type QuietHoursBody = { start?: string; end?: string; days?: Day[]; timezone?: string; enabled?: boolean };

/** preferencesApi are the typed calls of the preference screens. */
export const preferencesApi = {
  matrix: (path: Path) => data(api.GET("/v1/apps/{appId}/users/{identifier}/preferences", { params: { path } })),
  setCell: (path: Path, categoryId: number, channel: Channel, enabled: boolean) =>
    data(
      api.PATCH("/v1/apps/{appId}/users/{identifier}/preferences", {
        params: { path },
        body: { preference: [{ categoryId, channels: [{ channel, enabled }] }] },
      }),
    ),
  channels: (path: Path) => data(api.GET("/v1/apps/{appId}/users/{identifier}/preferences/channels", { params: { path } })),
  setChannel: (path: Path, channel: Channel, on: boolean) =>
    data(api.PUT("/v1/apps/{appId}/users/{identifier}/preferences/channels", { params: { path }, body: { [channel]: on } })),
  workflows: (path: Path) => data(api.GET("/v1/apps/{appId}/users/{identifier}/preferences/workflows", { params: { path } })),
  setWorkflow: (path: Path, identifier: string, enabled: boolean) =>
    data(
      api.PATCH("/v1/apps/{appId}/users/{identifier}/preferences/workflows", {
        params: { path },
        body: { workflows: [{ identifier, enabled }] },
      }),
    ),
  quietHours: (path: Path) => data(api.GET("/v1/apps/{appId}/users/{identifier}/preferences/quiet-hours", { params: { path } })),
  setQuietHours: (path: Path, body: QuietHoursBody) => data(api.PUT("/v1/apps/{appId}/users/{identifier}/preferences/quiet-hours", { params: { path }, body })),
};

/** useMatrix reads the user's category × channel preferences. */
export const useMatrix = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.preferences.all(appId, identifier), queryFn: () => preferencesApi.matrix({ appId, identifier }) });

/** useChannelSwitches reads the user's channel switches. */
export const useChannelSwitches = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.preferences.channels(appId, identifier), queryFn: () => preferencesApi.channels({ appId, identifier }) });

/** useWorkflowSwitches reads the user's workflow switches. */
export const useWorkflowSwitches = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.preferences.workflows(appId, identifier), queryFn: () => preferencesApi.workflows({ appId, identifier }) });

/** useQuietHours reads the user's quiet hours. */
export const useQuietHours = (appId: number, identifier: string) =>
  useQuery({ queryKey: keys.preferences.quietHours(appId, identifier), queryFn: () => preferencesApi.quietHours({ appId, identifier }) });
