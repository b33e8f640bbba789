package v1

// rangeParams are the date range of the log and analytics routes.
var rangeParams = []queryParam{
	{"fromDate", "string", false, "YYYY-MM-DD (from its first instant, UTC) or an RFC 3339 date-time; default: 29 days before toDate's day"},
	{"toDate", "string", false, "YYYY-MM-DD (through its last instant, UTC) or an RFC 3339 date-time; default: today; at most 366 days after fromDate"},
}

var pageParams = []queryParam{
	{"page", "integer", false, "1-based, default 1"},
	{"limit", "integer", false, "1 to 100, default 20"},
}

const countsHelp = "Counts per UTC day of the event: sent (in-app row written or provider accepted), delivered (in-app row written or provider reported delivery), " +
	"failed (incl. bounced), skipped, and for in-app seen/read/clicked (read and clicked also from provider open/click reports). Messages in that state: marking unread takes one back out of read."

// observabilityOperations document the message log and analytics routes (Observability).
var observabilityOperations = []operation{
	{method: "GET", path: "/v1/apps/{appId}/logs", tag: "logs", auth: "member", resp: "MessageLogPage", errors: eRoleBad,
		summary: "The message log: one row per recipient × channel (× workflow step) of each send, newest first, with its request id and Temporal workflow id; no total is counted, hasMore and nextCursor continue",
		query: append(append(append([]queryParam{}, rangeParams...), pageParams...),
			queryParam{"cursor", "string", false, "the nextCursor of the previous page (instead of page; fast at any depth)"},
			queryParam{"providerIdentifier", "string", false, "provider kind, e.g. smtp or webhook"},
			queryParam{"event", "string", false, "status (latest event): queued, sent, delivered, failed, skipped, bounced, opened or clicked"},
			queryParam{"channel", "string", false, "inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams or webhook"},
			queryParam{"userIdentifier", "array", false, "user identifiers, repeated (userIdentifier=a&userIdentifier=b, or userIdentifier[]=a); at most 100"})},
	{method: "GET", path: "/v1/analytics/apps/{appId}", tag: "analytics", auth: "member", resp: "AnalyticsDays", errors: eRoleBad, query: rangeParams,
		summary: "The app's counts for every day of the range. " + countsHelp},
	{method: "GET", path: "/v1/analytics/apps/{appId}/templates", tag: "analytics", auth: "member", resp: "TemplatesAnalytics", errors: eRoleBad, query: rangeParams,
		summary: "Counts of each template of the app (deleted ones with counts have a null id), and of sends without a template, with totals and days"},
	{method: "GET", path: "/v1/analytics/apps/{appId}/channels", tag: "analytics", auth: "member", resp: "ChannelsAnalytics", errors: eRoleBad, query: rangeParams,
		summary: "Counts of each channel with events in the range, with totals and days"},
	{method: "GET", path: "/v1/analytics/apps/{appId}/templates/{templateId}", tag: "analytics", auth: "member", resp: "TemplateAnalytics", errors: eRoleBad, query: rangeParams,
		summary: "One template's counts, all channels together, with totals and days"},
	{method: "GET", path: "/v1/analytics/apps/{appId}/templates/{templateId}/channels", tag: "analytics", auth: "member", resp: "ChannelsAnalytics", errors: eRoleBad, query: rangeParams,
		summary: "One template's counts per channel, with totals and days"},
	{method: "GET", path: "/v1/analytics/apps/{appId}/templates/{templateId}/notifications", tag: "analytics", auth: "member", resp: "TemplateSendPage", errors: eRoleBad,
		query:   append(append([]queryParam{}, rangeParams...), pageParams...),
		summary: "The template's sends made in the range (by their first message), newest first, each with its workflow id and the counts of its messages (all days)"},
}

var countProps = map[string]any{"sent": integer(), "delivered": integer(), "failed": integer(), "skipped": integer(),
	"seen": integer(), "read": integer(), "clicked": integer()}

var dayCounts = object(nil, merged(countProps, map[string]any{"date": str("YYYY-MM-DD (UTC)")}))

var seriesProps = map[string]any{"totals": object(nil, countProps), "days": arrayOf(dayCounts)}

var optTime = map[string]any{"type": []string{"string", "null"}, "format": "date-time"}

var optStr = map[string]any{"type": []string{"string", "null"}}

// observabilitySchemas are the bodies of observabilityOperations.
var observabilitySchemas = map[string]any{
	"MessageLogPage": object(nil, map[string]any{
		"pagination": object(nil, map[string]any{"page": integer(), "limit": integer(), "hasMore": boolean()}),
		"nextCursor": optStr,
		"data": arrayOf(object(nil, map[string]any{"id": integer(), "requestId": str("uuid"), "workflowId": str("the Temporal workflow (send/<requestId>, sends/<first requestId> or flow/…)"),
			"userIdentifier": str(""), "channel": str(""), "stepKey": str("the workflow step, '' for a plain send"), "status": str("queued, sent, delivered, failed, skipped, bounced, opened or clicked"),
			"reason": optStr, "error": optStr, "templateIdentifier": optStr, "providerIdentifier": optStr,
			"providerInstanceId": map[string]any{"type": []string{"integer", "null"}}, "providerMessageId": optStr, "providerResponse": optStr,
			"idempotencyKey": str("<requestId>:<user>:<channel>"), "attempts": integer(), "createdAt": stamp(), "updatedAt": stamp(),
			"sentAt": optTime, "deliveredAt": optTime, "failedAt": optTime, "bouncedAt": optTime, "openedAt": optTime, "clickedAt": optTime})),
	}),
	"AnalyticsDays": arrayOf(dayCounts),
	"TemplateAnalytics": object(nil, merged(seriesProps, map[string]any{"id": map[string]any{"type": []string{"integer", "null"}},
		"identifier": str(""), "name": str("")})),
	"TemplatesAnalytics": object(nil, map[string]any{"fromDate": stamp(), "toDate": stamp(), "templates": arrayOf(ref("TemplateAnalytics")),
		"withoutTemplate": object(nil, seriesProps)}),
	"ChannelsAnalytics": arrayOf(object(nil, merged(seriesProps, map[string]any{"channel": str("")}))),
	"TemplateSendPage": object(nil, map[string]any{
		"pagination": object(nil, map[string]any{"totalCount": integer(), "page": integer(), "limit": integer()}),
		"data": arrayOf(object(nil, merged(countProps, map[string]any{"requestId": str("uuid"), "workflowId": str("the Temporal workflow that carried the send"),
			"createdAt": stamp()}))),
	}),
}
