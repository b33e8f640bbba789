package v1

func enum(values ...string) map[string]any { return map[string]any{"type": "string", "enum": values} }

func pageOf(item string) map[string]any {
	return object(nil, map[string]any{
		"pagination": object(nil, map[string]any{"totalCount": integer(), "page": integer(), "limit": integer()}),
		"data":       arrayOf(ref(item)),
	})
}

var channelEnum = enum("inApp", "email", "sms", "whatsapp", "webPush", "mobilePush", "slack", "discord", "msTeams", "webhook")

var condition = object([]string{"field", "operator"}, map[string]any{
	"field":    str("data.<key>…, user.identifier, user.profile.<key>…, category.identifier or template.identifier"),
	"operator": enum("eq", "neq", "in", "notIn", "exists", "notExists"),
	"value":    map[string]any{"description": "for eq/neq any JSON value; for in/notIn an array"},
})

var instanceConfig = map[string]any{"type": "object", "additionalProperties": true,
	"description": "the provider's configuration, validated against its configSchema; secret keys are answered as ********"}

// configSchemas are the schemas of the configuration routes.
var configSchemas = map[string]any{
	"ProviderEntity": object(nil, map[string]any{"identifier": str("e.g. smtp, sendgrid, twilio-sms"), "name": str(""), "channel": channelEnum,
		"configSchema": map[string]any{"type": "object", "description": "JSON Schema of the configuration; properties with \"x-secret\": true are secrets"}}),
	"ProviderList": arrayOf(ref("ProviderEntity")),
	"AppChannelProviderEntity": object(nil, map[string]any{"id": integer(), "appId": integer(), "channel": channelEnum, "providerIdentifier": str(""),
		"name": str("unique per channel"), "config": instanceConfig, "enabled": boolean(), "priority": integer(), "createdAt": stamp(), "updatedAt": stamp(),
		"connectionTest": enum("passed", "not supported")}),
	"ProviderInstanceList": arrayOf(ref("AppChannelProviderEntity")),
	"ChannelProvider": object(nil, map[string]any{"identifier": str(""), "name": str(""), "configSchema": map[string]any{"type": "object"},
		"instances": arrayOf(ref("AppChannelProviderEntity"))}),
	"ChannelProviderList": arrayOf(ref("ChannelProvider")),
	"ChannelOverview": arrayOf(object(nil, map[string]any{"channel": channelEnum, "configured": boolean(), "routes": integer(),
		"providers": arrayOf(ref("ChannelProvider"))})),
	"EnableChannelDTO": object(nil, map[string]any{"config": instanceConfig, "name": str("defaults to the provider identifier"), "priority": integer(),
		"enabled": boolean(), "test": map[string]any{"type": "boolean", "description": "run the connection test before saving"}}),
	"CreateProviderInstanceDto": object([]string{"providerIdentifier"}, map[string]any{"providerIdentifier": str("a provider of the channel"),
		"name": str("at most 100 characters; defaults to the provider identifier"), "config": instanceConfig, "priority": integer(), "enabled": boolean(),
		"test": map[string]any{"type": "boolean", "description": "run the connection test before saving"}}),
	"UpdateProviderInstanceDto":   object(nil, map[string]any{"name": str(""), "config": instanceConfig, "priority": integer(), "enabled": boolean(), "test": boolean()}),
	"UpdateProviderRoutingConfig": object([]string{"priority"}, map[string]any{"priority": integer()}),
	"ChannelRouting":              object(nil, map[string]any{"channel": channelEnum, "providerInstances": ref("ProviderInstanceList")}),
	"RouteEntity": object(nil, map[string]any{"id": integer(), "appId": integer(), "channel": channelEnum, "name": str(""),
		"providerInstanceIds": arrayOf(integer()), "conditions": arrayOf(condition), "failover": boolean(), "priority": integer(), "enabled": boolean(),
		"createdAt": stamp(), "updatedAt": stamp()}),
	"RouteList": arrayOf(ref("RouteEntity")),
	"CreateRouteDto": object(nil, map[string]any{"name": str("required on create"), "providerInstanceIds": map[string]any{"type": "array", "items": integer(), "minItems": 1, "maxItems": 10,
		"description": "instances of the app on the route's channel, in the order tried"}, "conditions": arrayOf(condition),
		"failover": map[string]any{"type": "boolean", "description": "try the next instance when one fails (default true)"}, "priority": integer(), "enabled": boolean()}),

	"CreateTemplateDTO": object(nil, map[string]any{"identifier": str("letters, digits, _ . -; fixed once created"), "name": str(""), "description": str("")}),
	"TemplateContent": object(nil, map[string]any{"channel": channelEnum, "content": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"},
		"description": "email: subject, html, text; inApp: title, message, icon, url; sms/whatsapp: body; push/webhook: title, body, icon, url; chat: title, body"},
		"batchingContent":  map[string]any{"type": []string{"object", "null"}, "additionalProperties": map[string]any{"type": "string"}},
		"layoutIdentifier": str("email only"), "position": integer(), "updatedAt": stamp()}),
	"TemplateContentList": arrayOf(ref("TemplateContent")),
	"NotificationContentTemplateStateEntity": object(nil, map[string]any{"id": integer(), "templateId": integer(), "state": str("at most 64 characters"),
		"label": str(""), "createdAt": stamp()}),
	"NotificationTemplateEntity": object(nil, map[string]any{"id": integer(), "appId": integer(), "identifier": str(""), "name": str(""), "description": str(""),
		"contents": ref("TemplateContentList"), "contentStates": arrayOf(ref("NotificationContentTemplateStateEntity")), "createdAt": stamp(), "updatedAt": stamp()}),
	"TemplateList":    arrayOf(ref("NotificationTemplateEntity")),
	"ContentOrderDto": object([]string{"channels"}, map[string]any{"channels": arrayOf(channelEnum)}),
	"TemplateFile":    object(nil, map[string]any{"fileName": str(""), "contentType": str(""), "content": str("")}),
	"UpdateTemplateContentDTO": object([]string{"content"}, map[string]any{"content": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		"layoutIdentifier": str("email: the layout; empty uses the app's default")}),
	"PatchTemplateContentDTO": object(nil, map[string]any{"content": map[string]any{"type": "object", "description": "fields to set (strings) or remove (null)"},
		"layoutIdentifier": str("")}),
	"DuplicateTemplateDto":          object([]string{"identifier"}, map[string]any{"identifier": str(""), "name": str("default: the original's name + (copy)"), "description": str("")}),
	"CreateTemplateContentStateDto": object([]string{"state"}, map[string]any{"state": str("at most 64 characters"), "label": str("at most 100 characters; default: the state")}),
	"TemplatePreviewDto": object(nil, map[string]any{"channels": arrayOf(channelEnum), "data": anyObject(),
		"user":  object(nil, map[string]any{"identifier": str(""), "profile": anyObject()}),
		"batch": object(nil, map[string]any{"count": integer(), "items": arrayOf(anyObject())})}),
	"TemplatePreview": object(nil, map[string]any{
		"channels": map[string]any{"type": "object", "additionalProperties": object(nil, map[string]any{"subject": str(""), "html": str(""), "text": str(""),
			"title": str(""), "message": str(""), "body": str(""), "icon": str(""), "url": str("")})},
		"errors": map[string]any{"type": "object", "additionalProperties": str("the channel's rendering error")},
		"warnings": arrayOf(object([]string{"channel", "field", "variable", "line", "message"}, map[string]any{
			"channel":     str("the channel whose content uses the variable"),
			"field":       str("the content field (subject, html, text, title, message, body, icon, url) or the layout's (layout.html, layout.text)"),
			"variable":    str("the path from the root of the template data, through {{#with}} and {{#each}} (elements are [*]): data.items[*].price"),
			"line":        integer(),
			"translation": str("the key of the {{t}} translation that uses the variable, if any"),
			"message":     str("variable <variable> is not in the data"),
		}))}),

	"CreateLayoutDTO": object([]string{"identifier", "html"}, map[string]any{"identifier": str(""), "name": str(""), "html": str("must contain {{{content}}}"),
		"text": str("default {{{content}}}"), "default": map[string]any{"type": "boolean", "description": "make it the app's default layout"}}),
	"LayoutEntity": object(nil, map[string]any{"id": integer(), "appId": integer(), "identifier": str(""), "name": str(""), "html": str(""), "text": str(""),
		"default": boolean(), "published": map[string]any{"type": "boolean", "description": "unchanged since the app's last commit"}, "createdAt": stamp(), "updatedAt": stamp()}),
	"LayoutList": arrayOf(ref("LayoutEntity")),
	"EmailLayoutEntity": object(nil, map[string]any{"id": integer(), "identifier": str(""), "name": str(""), "html": str(""), "text": str(""),
		"starter": map[string]any{"type": "boolean", "description": "one of Herald's starter layouts"}, "appId": integer(), "appName": str("")}),
	"EmailLayoutList": arrayOf(ref("EmailLayoutEntity")),
	"CreateTranslationDTO": object([]string{"locale", "entries"}, map[string]any{"locale": str("a language tag: en, pt-BR"),
		"entries": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}, "description": "key → text ({{…}} allowed); inapp.<key> translates the inbox UI"},
		"default": boolean()}),
	"TranslationEntity": object(nil, map[string]any{"locale": str(""), "default": boolean(), "entries": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		"createdAt": stamp(), "updatedAt": stamp()}),
	"TranslationPage": pageOf("TranslationEntity"),

	"CreateTopicDto":       object([]string{"identifier", "name"}, map[string]any{"identifier": str(""), "name": str("")}),
	"UpdateTopicDto":       object([]string{"name"}, map[string]any{"name": str("")}),
	"TopicEntity":          object(nil, map[string]any{"id": integer(), "identifier": str(""), "name": str(""), "createdAt": stamp(), "updatedAt": stamp()}),
	"TopicList":            arrayOf(ref("TopicEntity")),
	"AttachUserToTopicDTO": object([]string{"users"}, map[string]any{"users": arrayOf(object([]string{"identifier"}, map[string]any{"identifier": str(""), "channels": arrayOf(channelEnum)}))}),
	"Count":                object(nil, map[string]any{"count": integer()}),
	"TopicUserPage": object(nil, map[string]any{
		"pagination": object(nil, map[string]any{"totalCount": integer(), "pageNo": integer(), "limit": integer()}),
		"data": arrayOf(object(nil, map[string]any{"id": map[string]any{"type": "integer", "description": "the subscription's id"}, "userId": integer(), "identifier": str(""),
			"channels": arrayOf(channelEnum), "createdAt": stamp(), "updatedAt": stamp()}))}),

	"CreateWorkflowDTO": object([]string{"identifier", "name", "definition"}, map[string]any{"identifier": str(""), "name": str("1-200 characters"),
		"definition": map[string]any{"type": "object", "description": "steps (channel, delay, digest, branch, fetch, wait-for-read, throttle…), validated on save"}}),
	"UpdateWorkflowDTO": object([]string{"name", "definition"}, map[string]any{"name": str(""), "definition": map[string]any{"type": "object"}}),
	"WorkflowEntity": object(nil, map[string]any{"id": integer(), "identifier": str(""), "name": str(""), "definition": map[string]any{"type": "object", "description": "the draft"},
		"publishedVersion": map[string]any{"type": []string{"integer", "null"}}, "createdAt": stamp(), "updatedAt": stamp()}),
	"WorkflowList":      arrayOf(ref("WorkflowEntity")),
	"WorkflowPublished": object(nil, map[string]any{"version": integer(), "workflow": ref("WorkflowEntity")}),
	"WorkflowLogPage": object(nil, map[string]any{
		"pagination": object(nil, map[string]any{"totalCount": integer(), "page": integer(), "limit": integer()}),
		"data": arrayOf(object(nil, map[string]any{"id": integer(), "requestId": str(""), "workflow": str(""), "version": integer(), "userIdentifier": str(""),
			"stepId": str(""), "stepType": str(""), "outcome": str(""), "detail": str(""), "workflowId": str(""), "createdAt": stamp()}))}),
	"ScheduledNotificationEntity": object(nil, map[string]any{"id": integer(), "requestId": str(""), "workflowId": str(""), "sendAt": stamp(),
		"status": str(""), "notification": anyObject(), "recipientCount": integer(), "createdAt": stamp(), "cancelledAt": stamp(), "sentAt": stamp()}),
	"ScheduledNotificationList": arrayOf(ref("ScheduledNotificationEntity")),

	"Change": object(nil, map[string]any{"type": enum("category", "layout", "translation", "template", "workflow", "providerInstance", "route"),
		"key": str("identifier, locale, or channel/name"), "action": enum("created", "updated", "deleted")}),
	"ChangePage": object(nil, map[string]any{
		"pagination":   object(nil, map[string]any{"totalCount": integer(), "page": integer(), "limit": integer()}),
		"headCommitId": map[string]any{"type": []string{"integer", "null"}, "description": "the commit the changes are counted from"},
		"data":         arrayOf(ref("Change"))}),
	"CommitChangeDTO": object([]string{"message"}, map[string]any{"message": str("at most 500 characters")}),
	"Commit": object(nil, map[string]any{"id": integer(), "appId": integer(), "message": str(""), "changes": arrayOf(ref("Change")),
		"createdBy": map[string]any{"type": []string{"integer", "null"}}, "createdByEmail": str(""), "createdAt": stamp(),
		"publications": arrayOf(object(nil, map[string]any{"appId": integer(), "appName": str(""), "publishedAt": stamp()}))}),
	"CommitPage": pageOf("Commit"),
	"PublishCommitDTO": object([]string{"commitId", "publishTo"}, map[string]any{"commitId": map[string]any{"type": "integer", "description": "a commit of this app"},
		"publishTo": map[string]any{"type": "integer", "description": "an app of the same client (this app to roll it back)"}}),
	"Published": object(nil, map[string]any{"commitId": integer(), "publishTo": integer(), "publishedAt": stamp(), "changes": arrayOf(ref("Change")),
		"warnings": arrayOf(str("what needs attention in the target, e.g. a provider instance waiting for its secrets"))}),
}
