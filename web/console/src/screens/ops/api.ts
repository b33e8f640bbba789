// The ops feature's API module: scheduled sends and recurring workflow schedules,
// environments (uncommitted changes, commits, publishing), analytics, and the team's usage,
// billing and licence, typed calls and their queries keyed by src/api/keys.ts.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, data, type components } from "../../api/client";
import { keys } from "../../api/keys";
import { workflowsApi } from "../workflows/api";

/** opsApi are the typed calls of the ops screens. */
export const opsApi = {
  scheduled: (appId: number, all: boolean, page: number, limit: number) =>
    data(api.GET("/v1/apps/{appId}/scheduled-notifications", { params: { path: { appId }, query: { all, page, limit } } })),
  cancelScheduled: (appId: number, scheduledNotificationId: number) =>
    data(api.DELETE("/v1/apps/{appId}/scheduled-notifications/{scheduledNotificationId}", { params: { path: { appId, scheduledNotificationId } } })),
  flowSchedules: (appId: number) => data(api.GET("/v1/apps/{appId}/workflow-schedules", { params: { path: { appId } } })),
  createFlowSchedule: (appId: number, body: components["schemas"]["CreateFlowScheduleDTO"]) =>
    data(api.POST("/v1/apps/{appId}/workflow-schedules", { params: { path: { appId } }, body })),
  pauseFlowSchedule: (appId: number, scheduleId: number, paused: boolean) =>
    data(api.PATCH("/v1/apps/{appId}/workflow-schedules/{scheduleId}", { params: { path: { appId, scheduleId } }, body: { paused } })),
  deleteFlowSchedule: (appId: number, scheduleId: number) =>
    data(api.DELETE("/v1/apps/{appId}/workflow-schedules/{scheduleId}", { params: { path: { appId, scheduleId } } })),

  uncommitted: (appId: number) => data(api.GET("/v1/apps/{appId}/uncommited-changes", { params: { path: { appId }, query: { limit: 100 } } })),
  commit: (appId: number, message: string) => data(api.POST("/v1/apps/{appId}/commits", { params: { path: { appId } }, body: { message } })),
  commits: (appId: number) => data(api.GET("/v1/apps/{appId}/commits", { params: { path: { appId }, query: { limit: 50 } } })),
  publishPreview: (appId: number, commitId: number, publishTo: number) =>
    data(api.POST("/v1/apps/{appId}/publish/preview", { params: { path: { appId } }, body: { commitId, publishTo } })),
  publish: (appId: number, commitId: number, publishTo: number) =>
    data(api.POST("/v1/apps/{appId}/publish", { params: { path: { appId } }, body: { commitId, publishTo } })),

  analyticsDays: (appId: number, query: { fromDate: string; toDate: string }) => data(api.GET("/v1/analytics/apps/{appId}", { params: { path: { appId }, query } })),
  analyticsChannels: (appId: number, query: { fromDate: string; toDate: string }) =>
    data(api.GET("/v1/analytics/apps/{appId}/channels", { params: { path: { appId }, query } })),
  analyticsTemplates: (appId: number, query: { fromDate: string; toDate: string }) =>
    data(api.GET("/v1/analytics/apps/{appId}/templates", { params: { path: { appId }, query } })),

  usage: (clientId: number) => data(api.GET("/v1/clients/{clientId}/usage", { params: { path: { clientId } } })),
  subscription: (clientId: number) => data(api.GET("/v1/clients/{clientId}/subscription", { params: { path: { clientId } } })),
  paymentMethods: (clientId: number) => data(api.GET("/v1/clients/{clientId}/paymentMethods", { params: { path: { clientId } } })),
  invoices: (clientId: number) => data(api.GET("/v1/clients/{clientId}/invoices", { params: { path: { clientId } } })),
  license: (clientId: number) => data(api.GET("/v1/clients/{clientId}/license", { params: { path: { clientId } } })),
};

/** useScheduled reads one page of the app's scheduled sends (all of them, or only pending ones). */
export const useScheduled = (appId: number, all: boolean, page: number, limit: number) =>
  useQuery({
    queryKey: keys.ops.scheduledPage(appId, all, page),
    queryFn: () => opsApi.scheduled(appId, all, page, limit),
    placeholderData: keepPreviousData,
  });

/** useFlowSchedules reads the app's recurring workflow schedules. */
export const useFlowSchedules = (appId: number) => useQuery({ queryKey: keys.ops.flowSchedules(appId), queryFn: () => opsApi.flowSchedules(appId) });

/** usePublishableWorkflows reads the app's workflows a schedule can run (filter on publishedVersion). */
export const usePublishableWorkflows = (appId: number) =>
  useQuery({ queryKey: keys.workflows.published(appId), queryFn: () => workflowsApi.list(appId) });

/** useUncommitted reads the app's changes not committed yet. */
export const useUncommitted = (appId: number) => useQuery({ queryKey: keys.ops.uncommitted(appId), queryFn: () => opsApi.uncommitted(appId) });

/** useCommits reads the app's commits, newest first. */
export const useCommits = (appId: number) => useQuery({ queryKey: keys.ops.commits(appId), queryFn: () => opsApi.commits(appId) });

/** usePublishPreview reads what publishing a commit to another app would change, when enabled. */
export const usePublishPreview = (appId: number, commitId: number, target: number | undefined, enabled: boolean) =>
  useQuery({
    queryKey: keys.ops.publishPreview(appId, commitId, target),
    queryFn: () => opsApi.publishPreview(appId, commitId, target ?? 0),
    enabled,
    staleTime: 0,
  });

/** useAnalytics reads the app's analytics between two days: per day, per channel and per template. */
export function useAnalytics(appId: number, from: string, to: string) {
  const query = { fromDate: from, toDate: to };
  const days = useQuery({ queryKey: keys.ops.analytics(appId, "days", from, to), queryFn: () => opsApi.analyticsDays(appId, query) });
  const channels = useQuery({ queryKey: keys.ops.analytics(appId, "channels", from, to), queryFn: () => opsApi.analyticsChannels(appId, query) });
  const templates = useQuery({ queryKey: keys.ops.analytics(appId, "templates", from, to), queryFn: () => opsApi.analyticsTemplates(appId, query) });
  return { days, channels, templates };
}

/** useUsage reads the team's usage this month against its plan. */
export const useUsage = (clientId: number) => useQuery({ queryKey: keys.clients.usage(clientId), queryFn: () => opsApi.usage(clientId) });

/** useSubscription reads the team's subscription. */
export const useSubscription = (clientId: number) =>
  useQuery({ queryKey: keys.clients.subscription(clientId), queryFn: () => opsApi.subscription(clientId) });

/** usePaymentMethods reads the team's payment methods, when enabled. */
export const usePaymentMethods = (clientId: number, enabled: boolean) =>
  useQuery({ queryKey: keys.clients.paymentMethods(clientId), queryFn: () => opsApi.paymentMethods(clientId), enabled });

/** useInvoices reads the team's invoices, when enabled. */
export const useInvoices = (clientId: number, enabled: boolean) =>
  useQuery({ queryKey: keys.clients.invoices(clientId), queryFn: () => opsApi.invoices(clientId), enabled });

/** useLicense reads the installation's licence as the team sees it. */
export const useLicense = (clientId: number) => useQuery({ queryKey: keys.clients.license(clientId), queryFn: () => opsApi.license(clientId) });
