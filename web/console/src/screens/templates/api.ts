// The templates feature's API module: templates and their per-channel contents, previews, test
// sends, layouts, translations and the writing assistant, typed calls and their queries keyed
// by src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import type { Body } from "../../api/body";
import { api, data } from "../../api/client";
import type { Channel } from "../../api/channels";
import { keys } from "../../api/keys";

/** templatesApi are the typed calls of the template screens. */
export const templatesApi = {
  list: (appId: number) => data(api.GET("/v1/apps/{appId}/templates", { params: { path: { appId } } })),
  create: (appId: number, body: Body<"/v1/apps/{appId}/templates", "post">) => data(api.POST("/v1/apps/{appId}/templates", { params: { path: { appId } }, body })),
  get: (templateId: number) => data(api.GET("/v1/templates/{templateId}", { params: { path: { templateId } } })),
  preview: (templateId: number, body: Body<"/v1/templates/{templateId}/preview", "post">) =>
    data(api.POST("/v1/templates/{templateId}/preview", { params: { path: { templateId } }, body })),
  putContent: (templateId: number, channel: Channel, body: Body<"/v1/templates/{templateId}/contents/{channel}", "put">) =>
    data(api.PUT("/v1/templates/{templateId}/contents/{channel}", { params: { path: { templateId, channel } }, body })),
  remove: (templateId: number) => data(api.DELETE("/v1/templates/{templateId}", { params: { path: { templateId } } })),
  deleteContent: (templateId: number, channel: Channel) =>
    data(api.DELETE("/v1/templates/{templateId}/contents/{channel}", { params: { path: { templateId, channel } } })),
  sendTest: (appId: number, body: Body<"/v1/apps/{appId}/notifications", "post">) =>
    data(api.POST("/v1/apps/{appId}/notifications", { params: { path: { appId } }, body })),

  layouts: (appId: number) => data(api.GET("/v1/apps/{appId}/layouts", { params: { path: { appId } } })),
  createLayout: (appId: number, body: Body<"/v1/apps/{appId}/layouts", "post">) => data(api.POST("/v1/apps/{appId}/layouts", { params: { path: { appId } }, body })),
  updateLayout: (appId: number, layoutId: number, body: Body<"/v1/apps/{appId}/layouts/{layoutId}", "put">) =>
    data(api.PUT("/v1/apps/{appId}/layouts/{layoutId}", { params: { path: { appId, layoutId } }, body })),
  deleteLayout: (appId: number, layoutId: number) => data(api.DELETE("/v1/apps/{appId}/layouts/{layoutId}", { params: { path: { appId, layoutId } } })),

  translations: (appId: number) => data(api.GET("/v1/apps/{appId}/translations", { params: { path: { appId }, query: { limit: 100 } } })),
  saveTranslation: (appId: number, body: Body<"/v1/apps/{appId}/translations", "post">) =>
    data(api.POST("/v1/apps/{appId}/translations", { params: { path: { appId } }, body })),

  assistant: () => data(api.GET("/v1/ai")),
  draft: (body: Body<"/v1/ai", "post">) => data(api.POST("/v1/ai", { body })),
};

/** useTemplates reads the app's templates. */
export const useTemplates = (appId: number) => useQuery({ queryKey: keys.templates.all(appId), queryFn: () => templatesApi.list(appId) });

/** useTemplate reads one template with its contents. */
export const useTemplate = (templateId: number) => useQuery({ queryKey: keys.templates.detail(templateId), queryFn: () => templatesApi.get(templateId) });

/** useLayouts reads the app's layouts. */
export const useLayouts = (appId: number) => useQuery({ queryKey: keys.templates.layouts(appId), queryFn: () => templatesApi.layouts(appId) });

/** useTranslations reads the app's translations (up to 100 locales). */
export const useTranslations = (appId: number) =>
  useQuery({ queryKey: keys.templates.translations(appId), queryFn: () => templatesApi.translations(appId) });

/** useAssistantStatus reads whether the assistant is configured (an error counts as not). */
export const useAssistantStatus = () => useQuery({ queryKey: keys.assistant(), staleTime: 5 * 60_000, retry: false, queryFn: () => templatesApi.assistant() });
