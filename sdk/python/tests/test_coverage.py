import json
import os
import unittest

import herald

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every operation of the developer API and the SDK method that calls it. A new operation in
# api/v3/openapi.json fails test_every_operation_has_a_method until it gets one here.
OPERATIONS = {
    "sendNotification": herald.Client.send,
    "cancelWorkflowRuns": herald.Client.cancel_workflow_runs,
    "createWorkflowSchedule": herald.Client.create_schedule,
    "listWorkflowSchedules": herald.Client.list_schedules,
    "deleteWorkflowSchedule": herald.Client.delete_schedule,
    "createUser": herald.Client.create_user,
    "putUser": herald.Client.put_user,
    "deleteUser": herald.Client.delete_user,
    "createCategory": herald.Client.create_category,
    "deleteCategory": herald.Client.delete_category,
    "createTopic": herald.Client.create_topic,
    "listTopics": herald.Client.list_topics,
    "renameTopic": herald.Client.rename_topic,
    "deleteTopic": herald.Client.delete_topic,
    "attachTopicUsers": herald.Client.subscribe,
    "detachTopicUsers": herald.Client.unsubscribe,
    "updateTopicSubscription": herald.Client.update_subscription,
    "listUserSubscriptions": herald.Client.list_subscriptions,
    "getOpenAPI": herald.Client.openapi,
    "listNotifications": herald.UserClient.list_notifications,
    "getNotification": herald.UserClient.notification,
    "deleteNotification": herald.UserClient.delete_notification,
    "clickNotification": herald.UserClient.click,
    "markSeen": herald.UserClient.mark_seen,
    "markUnseen": herald.UserClient.mark_unseen,
    "markRead": herald.UserClient.mark_read,
    "markUnread": herald.UserClient.mark_unread,
    "setNotificationState": herald.UserClient.set_state,
    "snoozeNotification": herald.UserClient.snooze,
    "unsnoozeNotification": herald.UserClient.unsnooze,
    "markAllNotificationsAsSeen": herald.UserClient.mark_all_seen,
    "markAllNotificationsAsRead": herald.UserClient.mark_all_read,
    "markAllNotificationsAsDeleted": herald.UserClient.delete_all,
    "getProfile": herald.UserClient.profile,
    "putProfile": herald.UserClient.update_profile,
    "patchProfile": herald.UserClient.patch_profile,  # and merge_profile (the object form)
    "getPreferences": herald.UserClient.preferences,
    "patchPreferences": herald.UserClient.update_preferences,
    "getChannelPreferences": herald.UserClient.channel_preferences,
    "putChannelPreferences": herald.UserClient.set_channel_preferences,
    "getQuietHours": herald.UserClient.quiet_hours,
    "putQuietHours": herald.UserClient.set_quiet_hours,
    "getWorkflowPreferences": herald.UserClient.workflow_preferences,
    "patchWorkflowPreferences": herald.UserClient.update_workflow_preferences,
    "listCategories": herald.UserClient.categories,
    "getInAppTranslations": herald.UserClient.translations,
    "connectDevice": herald.UserClient.connect_device,
    "requestRealtimeToken": herald.UserClient.realtime_token,
    "saveWebPushSubscription": herald.UserClient.save_web_push_subscription,
}

# Operations the SDK leaves out, and why.
LEFT_OUT = {
    # A Server-Sent Events stream for browsers and the inbox widget; a backend uses
    # webhooks, and realtime_token() serves a front end.
    "realtimeEvents",
}


class Coverage(unittest.TestCase):
    def test_every_operation_has_a_method(self):
        with open(os.path.join(ROOT, "..", "..", "api", "v3", "openapi.json"), encoding="utf-8") as f:
            doc = json.load(f)
        ops = {op["operationId"] for item in doc["paths"].values() for m, op in item.items()
               if m in ("get", "post", "put", "patch", "delete")}
        missing = ops - set(OPERATIONS) - LEFT_OUT
        self.assertFalse(missing, "operations of api/v3/openapi.json without an SDK method: %s" % sorted(missing))
        stale = (set(OPERATIONS) | LEFT_OUT) - ops
        self.assertFalse(stale, "operations no longer in the document: %s" % sorted(stale))
        for op, fn in OPERATIONS.items():
            self.assertTrue(fn.__doc__, "%s (%s) has no docstring" % (fn.__qualname__, op))


if __name__ == "__main__":
    unittest.main()
