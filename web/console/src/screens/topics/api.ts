// The topics feature's API module: the app's topics and each one's subscribers, typed calls
// and their queries keyed by src/api/keys.ts.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, data } from "../../api/client";
import { keys } from "../../api/keys";

/** topicsApi are the typed calls of the topic screens. */
export const topicsApi = {
  list: (appId: number) => data(api.GET("/v1/apps/{appId}/topics", { params: { path: { appId } } })),
  subscribers: (topicId: number, pageNo: number, limit: number) =>
    data(api.GET("/v1/topics/{topicId}/users", { params: { path: { topicId }, query: { limit, pageNo } } })),
  subscriberCount: (topicId: number) =>
    data(api.GET("/v1/topics/{topicId}/users", { params: { path: { topicId }, query: { limit: 1 } } })).then((p) => p.pagination?.totalCount ?? 0),
};

/** useTopicList reads the app's topics. */
export const useTopicList = (appId: number) => useQuery({ queryKey: keys.topics.all(appId), queryFn: () => topicsApi.list(appId) });

/** subscriberCountQuery is the query of a topic's subscriber count (for useQueries). */
export const subscriberCountQuery = (topicId: number) => ({ queryKey: keys.topics.userCount(topicId), queryFn: () => topicsApi.subscriberCount(topicId) });

/** useSubscribers reads one page of a topic's subscribers once the topic is known. */
export const useSubscribers = (topicId: number | undefined, page: number, limit: number) =>
  useQuery({
    queryKey: keys.topics.users(topicId, page),
    enabled: topicId !== undefined,
    placeholderData: keepPreviousData,
    queryFn: () => topicsApi.subscribers(topicId!, page, limit),
  });
