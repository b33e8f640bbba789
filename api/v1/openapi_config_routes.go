package v1

var (
	pageQ       = queryParam{"page", "integer", false, "1-based page (default 1)"}
	limitQ      = queryParam{"limit", "integer", false, "items per page, 1 to 100 (default 20)"}
	publishedQ  = queryParam{"published", "boolean", false, "true: only published; false: only unpublished"}
	testQ       = queryParam{"test", "boolean", false, "run the provider's connection test before saving (SMTP: connect, EHLO, STARTTLS, AUTH; nothing is sent); a failure is a 400 and nothing is saved. Same as the body's test: true"}
	eConflict   = []int{400, 403, 404, 409}
	eRoleGet    = []int{400, 403, 404}
	tagChannels = "channels"
)

// configOperations are the routes of an app's configuration (api/v1/configuration.go).
var configOperations = []operation{
	{method: "GET", path: "/v1/providers", tag: "providers", summary: "The provider kinds of this build with the JSON Schema of their configuration; keys marked \"x-secret\": true are sealed at rest and masked as ******** in answers", auth: "member",
		query: []queryParam{{"channel", "string", false, "only the providers of this channel"}}, resp: "ProviderList", errors: eBad},

	{method: "GET", path: "/v1/apps/{appId}/channels", tag: tagChannels, summary: "Every provider instance of the app (secrets masked)", auth: "member", resp: "ProviderInstanceList", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/channels/v1", tag: tagChannels, summary: "Each channel with whether it can deliver, the provider kinds offered on it, the app's instances of each and the number of routes", auth: "member", resp: "ChannelOverview", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/channels/v1/{channel}/providers", tag: tagChannels, summary: "The provider kinds of a channel, each with its schema and the app's instances of it", auth: "member", resp: "ChannelProviderList", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/channels/v1/{channel}/providers/{providerIdentifier}", tag: tagChannels, summary: "One provider kind of a channel with its schema and the app's instances of it", auth: "member", resp: "ChannelProvider", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/channels/{channel}/providers", tag: tagChannels, summary: "The app's provider instances on a channel", auth: "member", resp: "ProviderInstanceList", errors: eRoleGet},
	{method: "POST", path: "/v1/apps/{appId}/channels/{channel}/providers/{providerIdentifier}", tag: tagChannels, summary: "Enable a provider on a channel (developers): creates its instance with the configuration, validated against the provider's schema, or merges the configuration into the existing one and enables it", auth: "member",
		query: []queryParam{testQ}, body: "EnableChannelDTO", resp: "AppChannelProviderEntity", errors: eConflict},
	{method: "PATCH", path: "/v1/apps/{appId}/channels/{channel}/providers/{providerIdentifier}", tag: tagChannels, summary: "Change the provider's instance on the channel (developers); answers true", auth: "member",
		query: []queryParam{testQ}, body: "EnableChannelDTO", resp: "Boolean", errors: eConflict},
	{method: "POST", path: "/v1/apps/{appId}/channels/{channel}/providers/{providerIdentifier}/enable", tag: tagChannels, summary: "Enable the provider's instance on the channel (developers)", auth: "member", resp: "AppChannelProviderEntity", errors: eConflict},
	{method: "POST", path: "/v1/apps/{appId}/channels/{channel}/providers/{providerIdentifier}/disable", tag: tagChannels, summary: "Disable the provider's instance on the channel (developers)", auth: "member", resp: "AppChannelProviderEntity", errors: eConflict},
	{method: "PUT", path: "/v1/apps/{appId}/channels/{channel}/providers/{providerIdentifier}/routing", tag: tagChannels, summary: "Set the provider's priority in the channel's default order (developers; lower is tried first when no route decides); answers the channel's order", auth: "member",
		body: "UpdateProviderRoutingConfig", resp: "ChannelRouting", errors: eConflict},
	{method: "POST", path: "/v1/apps/{appId}/channels/{channel}/providerInstances", tag: tagChannels, summary: "Add a provider instance (developers); several instances of one provider may coexist", auth: "member",
		query: []queryParam{testQ}, body: "CreateProviderInstanceDto", status: 201, resp: "AppChannelProviderEntity", errors: eConflict},
	{method: "GET", path: "/v1/apps/{appId}/channels/{channel}/providerInstances", tag: tagChannels, summary: "The app's provider instances on a channel, by priority", auth: "member", resp: "ProviderInstanceList", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}", tag: tagChannels, summary: "A provider instance (secrets masked)", auth: "member", resp: "AppChannelProviderEntity", errors: eRoleGet},
	{method: "PATCH", path: "/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}", tag: tagChannels, summary: "Change a provider instance (developers): config is merged; a secret left out or sent as ******** keeps its value; null removes a key", auth: "member",
		query: []queryParam{testQ}, body: "UpdateProviderInstanceDto", resp: "AppChannelProviderEntity", errors: eConflict},
	{method: "PUT", path: "/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}/enable", tag: tagChannels, summary: "Enable a provider instance (developers)", auth: "member", resp: "AppChannelProviderEntity", errors: eRoleGet},
	{method: "PUT", path: "/v1/apps/{appId}/channels/{channel}/providerInstances/{providerInstance}/disable", tag: tagChannels, summary: "Disable a provider instance (developers)", auth: "member", resp: "AppChannelProviderEntity", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/channels/{channel}/routes", tag: tagChannels, summary: "The routes of a channel in evaluation order", auth: "member", resp: "RouteList", errors: eRoleGet},
	{method: "POST", path: "/v1/apps/{appId}/channels/{channel}/routes", tag: tagChannels, summary: "Add a route (developers): the sends matching its conditions go through its instances in order, failing over when set", auth: "member", body: "CreateRouteDto", status: 201, resp: "RouteEntity", errors: eConflict},
	{method: "GET", path: "/v1/routes/{routeId}", tag: tagChannels, summary: "A route", auth: "member", resp: "RouteEntity", errors: eRole},
	{method: "PUT", path: "/v1/routes/{routeId}", tag: tagChannels, summary: "Change a route (developers; absent fields stay)", auth: "member", body: "CreateRouteDto", resp: "RouteEntity", errors: eConflict},
	{method: "DELETE", path: "/v1/routes/{routeId}", tag: tagChannels, summary: "Delete a route (developers)", auth: "member", resp: "Boolean", errors: eRole},

	{method: "GET", path: "/v1/apps/{appId}/templates", tag: "templates", summary: "The app's templates (without contents)", auth: "member", resp: "TemplateList", errors: eRole},
	{method: "POST", path: "/v1/apps/{appId}/templates", tag: "templates", summary: "Create a template (developers)", auth: "member", body: "CreateTemplateDTO", status: 201, resp: "NotificationTemplateEntity", errors: eConflict},
	{method: "GET", path: "/v1/templates/{templateId}", tag: "templates", summary: "A template with its contents and content states", auth: "member", resp: "NotificationTemplateEntity", errors: eRole},
	{method: "PUT", path: "/v1/templates/{templateId}", tag: "templates", summary: "Rename a template or change its description (developers; the identifier is fixed)", auth: "member", body: "CreateTemplateDTO", resp: "NotificationTemplateEntity", errors: eRoleBad},
	{method: "DELETE", path: "/v1/templates/{templateId}", tag: "templates", summary: "Delete a template (developers)", auth: "member", resp: "Boolean", errors: eRole},
	{method: "POST", path: "/v1/templates/{templateId}/contents/order", tag: "templates", summary: "Order the template's channels (developers): the listed ones first, then the others", auth: "member", body: "ContentOrderDto", resp: "TemplateContentList", errors: eRoleBad},
	{method: "GET", path: "/v1/templates/{templateId}/contents/email/{fileName}", tag: "templates", summary: "One part of the email content as a file: subject.txt, content.html, content.txt, layout.html or layout.txt", auth: "member", resp: "TemplateFile", errors: eRole},
	{method: "GET", path: "/v1/templates/{templateId}/contents/{channel}", tag: "templates", summary: "The template's content on a channel", auth: "member", resp: "TemplateContent", errors: eRoleGet},
	{method: "PUT", path: "/v1/templates/{templateId}/contents/{channel}", tag: "templates", summary: "Set the content of a channel (developers); every field must parse as a template", auth: "member", body: "UpdateTemplateContentDTO", resp: "TemplateContent", errors: eRoleBad},
	{method: "PATCH", path: "/v1/templates/{templateId}/contents/{channel}", tag: "templates", summary: "Change some fields of a channel's content (developers): strings replace, null removes", auth: "member", body: "PatchTemplateContentDTO", resp: "TemplateContent", errors: eRoleBad},
	{method: "DELETE", path: "/v1/templates/{templateId}/contents/{channel}", tag: "templates", summary: "Remove a channel's content (developers): the template no longer delivers on it", auth: "member", resp: "Boolean", errors: eRoleGet},
	{method: "PUT", path: "/v1/templates/{templateId}/contents/{channel}/batchingContent", tag: "templates", summary: "Set the content used when a message carries a digest's batch (developers; {{batch.count}}, {{#each batch.items}}); content null removes it", auth: "member", body: "UpdateTemplateContentDTO", resp: "TemplateContent", errors: eConflict},
	{method: "PUT", path: "/v1/templates/{templateId}/duplicate", tag: "templates", summary: "Copy a template with its contents and states under a new identifier (developers)", auth: "member", body: "DuplicateTemplateDto", status: 201, resp: "NotificationTemplateEntity", errors: eConflict},
	{method: "POST", path: "/v1/templates/{templateId}/notification-content-state", tag: "templates", summary: "Declare a state the template's in-app notifications can be set to by their blocks (developers; declaring it again changes the label)", auth: "member", body: "CreateTemplateContentStateDto", status: 201, resp: "NotificationContentTemplateStateEntity", errors: eRoleBad},
	{method: "POST", path: "/v1/templates/{templateId}/preview", tag: "templates", summary: "Render the template with sample data, layouts and translations as delivery would; warnings list the variables the data does not hold (they render blank)", auth: "member", body: "TemplatePreviewDto", resp: "TemplatePreview", errors: eRoleBad},

	{method: "POST", path: "/v1/apps/{appId}/layouts", tag: "templates", summary: "Create an email layout (developers): html (and text) with {{{content}}}", auth: "member", body: "CreateLayoutDTO", status: 201, resp: "LayoutEntity", errors: eConflict},
	{method: "GET", path: "/v1/apps/{appId}/layouts", tag: "templates", summary: "The app's layouts; published means unchanged since the app's last commit", auth: "member", query: []queryParam{publishedQ}, resp: "LayoutList", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/layouts/default", tag: "templates", summary: "The app's default layout", auth: "member", resp: "LayoutEntity", errors: eRole},
	{method: "PUT", path: "/v1/apps/{appId}/layouts/{layoutId}", tag: "templates", summary: "Change a layout (developers; absent fields stay)", auth: "member", body: "CreateLayoutDTO", resp: "LayoutEntity", errors: eRoleBad},
	{method: "DELETE", path: "/v1/apps/{appId}/layouts/{layoutId}", tag: "templates", summary: "Delete a layout (developers); contents using it fall back to the default layout", auth: "member", resp: "Boolean", errors: eRoleGet},
	{method: "GET", path: "/v1/clients/{clientId}/email-layouts", tag: "templates", summary: "Herald's starter layouts and the layouts of the client's apps", auth: "member", resp: "EmailLayoutList", errors: eRole},
	{method: "POST", path: "/v1/apps/{appId}/translations", tag: "templates", summary: "Create or replace a locale's strings (developers); inapp.* keys translate the inbox UI", auth: "member", body: "CreateTranslationDTO", status: 201, resp: "TranslationEntity", errors: eRoleBad},
	{method: "GET", path: "/v1/apps/{appId}/translations", tag: "templates", summary: "A page of the app's translations by locale", auth: "member", query: []queryParam{pageQ, limitQ}, resp: "TranslationPage", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/translations/default", tag: "templates", summary: "The app's default translation", auth: "member", resp: "TranslationEntity", errors: eRole},

	{method: "POST", path: "/v1/apps/{appId}/topics", tag: "topics", summary: "Create a topic (developers)", auth: "member", body: "CreateTopicDto", status: 201, resp: "TopicEntity", errors: eConflict},
	{method: "GET", path: "/v1/apps/{appId}/topics", tag: "topics", summary: "The app's topics", auth: "member", resp: "TopicList", errors: eRole},
	{method: "PATCH", path: "/v1/topics/{topicId}", tag: "topics", summary: "Rename a topic (developers)", auth: "member", body: "UpdateTopicDto", resp: "TopicEntity", errors: eRoleBad},
	{method: "DELETE", path: "/v1/topics/{topicId}", tag: "topics", summary: "Delete a topic and its subscriptions (developers)", auth: "member", resp: "Boolean", errors: eRole},
	{method: "POST", path: "/v1/topics/{topicId}/users", tag: "topics", summary: "Subscribe users, with the channels each wants (developers); unknown users are created", auth: "member", body: "AttachUserToTopicDTO", status: 201, resp: "Count", errors: eRoleBad},
	{method: "GET", path: "/v1/topics/{topicId}/users", tag: "topics", summary: "A page of the topic's subscriptions", auth: "member",
		query: []queryParam{{"pageNo", "integer", false, "1-based page (default 1)"}, limitQ}, resp: "TopicUserPage", errors: eRoleGet},
	{method: "DELETE", path: "/v1/topics/{topicId}/users/{userId}", tag: "topics", summary: "Unsubscribe a user, by the user's id (developers)", auth: "member", resp: "Boolean", errors: eRoleGet},
	{method: "DELETE", path: "/v1/topics/{topicId}/subscriptions/{subscriptionId}", tag: "topics", summary: "Delete a subscription by its id (developers)", auth: "member", resp: "Boolean", errors: eRoleGet},

	{method: "POST", path: "/v1/apps/{appId}/workflows", tag: "workflows", summary: "Create a workflow's draft (developers); the definition is validated and the templates it names must exist", auth: "member", body: "CreateWorkflowDTO", status: 201, resp: "WorkflowEntity", errors: eConflict},
	{method: "GET", path: "/v1/apps/{appId}/workflows", tag: "workflows", summary: "The app's workflows", auth: "member", query: []queryParam{publishedQ}, resp: "WorkflowList", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/workflows/logs", tag: "workflows", summary: "A page of the workflow log (one line per step outcome), newest first", auth: "member", query: []queryParam{pageQ, limitQ}, resp: "WorkflowLogPage", errors: eRoleGet},
	{method: "GET", path: "/v1/apps/{appId}/workflows/{identifier}", tag: "workflows", summary: "A workflow: its draft and published version", auth: "member", resp: "WorkflowEntity", errors: eRole},
	{method: "PUT", path: "/v1/apps/{appId}/workflows/{identifier}", tag: "workflows", summary: "Replace a workflow's draft (developers); the published version is unchanged until the next publish", auth: "member", body: "UpdateWorkflowDTO", resp: "WorkflowEntity", errors: eRoleBad},
	{method: "POST", path: "/v1/apps/{appId}/workflows/{identifier}/publish", tag: "workflows", summary: "Publish the draft as the next immutable version, the one sends run (developers)", auth: "member", resp: "WorkflowPublished", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/scheduled-notifications", tag: "workflows", summary: "The app's scheduled notifications, soonest first", auth: "member",
		query: []queryParam{pageQ, limitQ, {"all", "boolean", false, "include sent and cancelled ones"}}, resp: "ScheduledNotificationList", errors: eRoleGet},
	{method: "DELETE", path: "/v1/apps/{appId}/scheduled-notifications/{scheduledNotificationId}", tag: "workflows", summary: "Cancel a scheduled notification before it goes out (developers)", auth: "member", resp: "Boolean", errors: []int{403, 404, 409}},

	{method: "GET", path: "/v1/apps/{appId}/uncommited-changes", tag: "commits", summary: "A page of what changed in the app since its last commit (or the last commit published to it): templates, layouts, translations, workflows, categories, provider instances (secrets excluded) and routes", auth: "member",
		query: []queryParam{pageQ, limitQ}, resp: "ChangePage", errors: eRoleGet},
	{method: "POST", path: "/v1/apps/{appId}/commits", tag: "commits", summary: "Commit the app's uncommitted changes with a message (developers): a snapshot of its configuration without secrets", auth: "member", body: "CommitChangeDTO", status: 201, resp: "Commit", errors: eConflict},
	{method: "GET", path: "/v1/apps/{appId}/commits", tag: "commits", summary: "A page of the app's commits, newest first, each with where it was published", auth: "member",
		query: []queryParam{pageQ, limitQ, {"publishTo", "integer", false, "only commits published to this app"}}, resp: "CommitPage", errors: eRoleGet},
	{method: "POST", path: "/v1/apps/{appId}/publish", tag: "commits", summary: "Apply a commit of this app to an app of the same client in one transaction (admins of the client); publishing an older commit rolls back. Provider instances keep the target's secrets", auth: "member",
		body: "PublishCommitDTO", resp: "Published", errors: eRoleGet},
}
