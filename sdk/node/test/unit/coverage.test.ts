// Every operation of the developer API has its SDK method: a new operation in
// api/v3/openapi.json fails here until it gets one.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { Herald, UserClient } from "@heraldhq/node";

const operations: Record<string, [typeof Herald | typeof UserClient, string]> = {
  sendNotification: [Herald, "send"],
  cancelWorkflowRuns: [Herald, "cancelWorkflowRuns"],
  createWorkflowSchedule: [Herald, "createSchedule"],
  listWorkflowSchedules: [Herald, "listSchedules"],
  deleteWorkflowSchedule: [Herald, "deleteSchedule"],
  createUser: [Herald, "createUser"],
  putUser: [Herald, "putUser"],
  deleteUser: [Herald, "deleteUser"],
  createCategory: [Herald, "createCategory"],
  deleteCategory: [Herald, "deleteCategory"],
  createTopic: [Herald, "createTopic"],
  listTopics: [Herald, "listTopics"],
  renameTopic: [Herald, "renameTopic"],
  deleteTopic: [Herald, "deleteTopic"],
  attachTopicUsers: [Herald, "subscribeUsers"],
  detachTopicUsers: [Herald, "unsubscribeUsers"],
  updateTopicSubscription: [Herald, "updateSubscription"],
  listUserSubscriptions: [Herald, "listSubscriptions"],
  getOpenAPI: [Herald, "openapi"],
  listNotifications: [UserClient, "listNotifications"], // and notifications(), every page
  getNotification: [UserClient, "notification"],
  deleteNotification: [UserClient, "deleteNotification"],
  clickNotification: [UserClient, "click"],
  markSeen: [UserClient, "markSeen"],
  markUnseen: [UserClient, "markUnseen"],
  markRead: [UserClient, "markRead"],
  markUnread: [UserClient, "markUnread"],
  setNotificationState: [UserClient, "setState"],
  snoozeNotification: [UserClient, "snooze"],
  unsnoozeNotification: [UserClient, "unsnooze"],
  markAllNotificationsAsSeen: [UserClient, "markAllSeen"],
  markAllNotificationsAsRead: [UserClient, "markAllRead"],
  markAllNotificationsAsDeleted: [UserClient, "deleteAll"],
  getProfile: [UserClient, "profile"],
  putProfile: [UserClient, "updateProfile"],
  patchProfile: [UserClient, "patchProfile"], // and mergeProfile (the object form)
  getPreferences: [UserClient, "preferences"],
  patchPreferences: [UserClient, "updatePreferences"],
  getChannelPreferences: [UserClient, "channelPreferences"],
  putChannelPreferences: [UserClient, "updateChannelPreferences"],
  getQuietHours: [UserClient, "quietHours"],
  putQuietHours: [UserClient, "updateQuietHours"],
  getWorkflowPreferences: [UserClient, "workflowPreferences"],
  patchWorkflowPreferences: [UserClient, "updateWorkflowPreferences"],
  listCategories: [UserClient, "categories"],
  getInAppTranslations: [UserClient, "translations"],
  connectDevice: [UserClient, "connectDevice"],
  requestRealtimeToken: [UserClient, "realtimeToken"],
  saveWebPushSubscription: [UserClient, "saveWebPushSubscription"],
};

// Operations the SDK leaves out, and why.
const leftOut = new Set([
  // A Server-Sent Events stream for browsers and the inbox widget; a backend uses event
  // webhooks (verifyWebhook), and realtimeToken() serves a front end.
  "realtimeEvents",
]);

describe("coverage", () => {
  it("has a method for every operation of api/v3/openapi.json", () => {
    const doc = JSON.parse(readFileSync(new URL("../../../../../api/v3/openapi.json", import.meta.url), "utf8")) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const ops = new Set<string>();
    for (const item of Object.values(doc.paths)) {
      for (const [m, op] of Object.entries(item)) if (["get", "post", "put", "patch", "delete"].includes(m) && op.operationId) ops.add(op.operationId);
    }
    const missing = [...ops].filter((o) => !(o in operations) && !leftOut.has(o));
    assert.deepEqual(missing, [], "operations without an SDK method");
    const stale = [...Object.keys(operations), ...leftOut].filter((o) => !ops.has(o));
    assert.deepEqual(stale, [], "operations no longer in the document");
    for (const [op, [cls, name]] of Object.entries(operations)) {
      assert.equal(typeof (cls.prototype as unknown as Record<string, unknown>)[name], "function", `${op}: ${cls.name}.${name}`);
    }
  });
});
