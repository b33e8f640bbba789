// Names for the schemas of the developer API, all taken from api.gen.ts (generated from
// api/v3/openapi.json by openapi-typescript): a field added to the API appears here with
// the next `npm run gen`.
import type { components, operations } from "./api.gen.js";

type S = components["schemas"];

/** A delivery channel (inApp, email, sms, …). */
export type Channel = S["Channel"];
/** A category of notifications. */
export type Category = S["Category"];
/** The body of POST /v3/categories. */
export type CategoryCreate = S["CategoryCreate"];
/** A notification of a user's inbox. */
export type Notification = S["Notification"];
/** One page of a user's inbox. */
export type NotificationPage = S["NotificationPage"];
/** The answer of the bulk marks (markAllNotificationsAs…). */
export type BulkResult = S["BulkResult"];
/** The answer of a delete. */
export type Deleted = S["Deleted"];
/** The stored browser push subscription of a device. */
export type WebPushSubscription = S["WebPushSubscription"];
/** The body of PUT /v3/notifications/{id}/state. */
export type StateChange = S["StateChange"];
/** The body of PUT /v3/notifications/{id}/snooze. */
export type SnoozeRequest = S["SnoozeRequest"];
/** The answer of a snooze. */
export type Snoozed = S["Snoozed"];
/** A content block of an in-app notification (text, image, avatar, buttons). */
export type Block = S["Block"];
/** The body of POST /v3/notifications, as the API defines it. */
export type SendRequest = S["SendRequest"];
/** The answer of an accepted send. */
export type SendAccepted = S["SendAccepted"];
/** A user's free-form profile. */
export type Profile = S["Profile"];
/** A user. */
export type User = S["User"];
/** The body of POST /v3/users. */
export type UserCreate = S["UserCreate"];
/** RFC 6902 operations (PATCH /v3/profile). */
export type JsonPatch = S["JsonPatch"];
/** An RFC 7386 merge patch (PATCH /v3/profile). */
export type ProfileMergePatch = S["ProfileMergePatch"];
/** A user's channel preferences for one category. */
export type Preference = S["Preference"];
/** The body of PATCH /v3/preferences. */
export type PreferenceUpdate = S["PreferenceUpdate"];
/** A topic. */
export type Topic = S["Topic"];
/** The body of POST /v3/topics. */
export type TopicCreate = S["TopicCreate"];
/** A user to subscribe to a topic, with optional channels. */
export type TopicAttachUser = S["TopicAttach"]["users"][number];
/** A user's subscription to a topic. */
export type Subscription = S["Subscription"];
/** The device types of POST /v3/sdk/connect. */
export type DeviceType = S["ConnectRequest"]["deviceType"];
/** The answer of POST /v3/sdk/connect. */
export type Connection = S["Connection"];
/** A browser push subscription (PushSubscription.toJSON()). */
export type PushSubscription = S["PushSubscription"];
/** The answer of POST /v3/sdk/realtimeTokenRequests. */
export type RealtimeToken = S["RealtimeToken"];
/** The inbox UI strings of a locale. */
export type InAppTranslations = S["InAppTranslations"];
/** The body of POST /v3/workflows/cancel. */
export type WorkflowCancel = S["WorkflowCancel"];
/** The answer of POST /v3/workflows/cancel. */
export type WorkflowCancellation = S["WorkflowCancellation"];
/** The body of POST /v3/workflows/schedules. */
export type WorkflowScheduleCreate = S["WorkflowScheduleCreate"];
/** A recurring workflow trigger. */
export type WorkflowSchedule = S["WorkflowSchedule"];
/** A user's switch per whole channel. */
export type ChannelSwitches = S["ChannelSwitches"];
/** A user's quiet hours as Herald answers them (GET/PUT /v3/preferences/quiet-hours). */
export type QuietHours = S["QuietHours"];
/** A change of quiet hours: {start, end, days?, timezone?}, or {enabled: false} to remove them. */
export type QuietHoursUpdate = S["QuietHoursUpdate"];
/** A user's switches for one workflow. */
export type FlowPreference = S["FlowPreference"];
/** The body of PATCH /v3/preferences/workflows. */
export type FlowPreferenceUpdate = S["FlowPreferenceUpdate"];
/** The filters of the inbox list. */
export type Filter = NonNullable<NonNullable<operations["listNotifications"]["parameters"]["query"]>["filter"]>;

/** A recipient given inline: the user is created or updated with these fields first. */
export type Recipient = Exclude<NonNullable<NonNullable<SendRequest["sendTo"]>["recipients"]>[number], string>;

/**
 * The body of a send: the API's SendRequest, except that sendAt may also be a Date
 * (serialised as ISO 8601).
 */
export type SendParams = Omit<SendRequest, "sendAt"> & { sendAt?: string | Date };

export type { components, operations, paths } from "./api.gen.js";
