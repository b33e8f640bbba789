// The categories feature's API module: the app's notification categories (create, rename,
// critical, the channels each starts off on, delete), typed calls and their query keyed by
// src/api/keys.ts.
import { useQuery } from "@tanstack/react-query";
import type { Body } from "../../api/body";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** categoriesApi are the typed calls of the categories screen. */
export const categoriesApi = {
  list: (appId: number) => data(api.GET("/v1/apps/{appId}/categories", { params: { path: { appId } } })),
  create: (appId: number, body: Body<"/v1/apps/{appId}/categories", "post">) => data(api.POST("/v1/apps/{appId}/categories", { params: { path: { appId } }, body })),
  update: (categoryId: number, body: Body<"/v1/categories/{categoryId}", "put">) => data(api.PUT("/v1/categories/{categoryId}", { params: { path: { categoryId } }, body })),
  remove: (categoryId: number) => data(api.DELETE("/v1/categories/{categoryId}", { params: { path: { categoryId } } })),
};

/** useCategories reads the app's categories. */
export const useCategories = (appId: number) => useQuery({ queryKey: keys.categories.all(appId), queryFn: () => categoriesApi.list(appId) });
