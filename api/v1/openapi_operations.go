package v1

import "maps"

// opsOperations document the usage, billing, licensing and assistant routes (Operations).
var opsOperations = []operation{
	{method: "GET", path: "/v1/apps/{appId}/usage", tag: "usage", summary: "The app's notifications and recipients this month (UTC) and the 11 months before", auth: "member", resp: "AppUsage", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/integration-status", tag: "apps", summary: "The app with whether it has sent, has connected devices and has providers configured", auth: "member", resp: "IntegrationStatus", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/profile-attributes", tag: "apps", summary: "Profile keys of the app's users, or the values of one key, most common first (for autocomplete; from the 10,000 newest users, at most 100 rows)", auth: "member",
		query: []queryParam{{"attribute", "string", false, "a profile key: list its values instead of the keys"}}, resp: "ProfileAttributeList", errors: eRoleBad},
	{method: "POST", path: "/v1/apps/{appId}/notifications", tag: "apps", summary: "Send a test notification from the console (developers): the body of POST /v3/notifications, accepted the same way", auth: "member", body: "SendRequest", status: 202, resp: "NotificationRequestResponse", errors: []int{400, 403, 404, 422, 429}},

	{method: "GET", path: "/v1/clients/{clientId}/usage", tag: "usage", summary: "The client's usage this month against its plan's quota, per app, and the months before", auth: "member", resp: "ClientUsage", errors: eRole},
	{method: "GET", path: "/v1/plans", tag: "billing", summary: "The plans on offer (only the free plan when billing is off)", resp: "PlanList"},
	{method: "GET", path: "/v1/clients/{clientId}/subscription", tag: "billing", summary: "The plan in force and what grants it (license, subscription or free)", auth: "member", resp: "Subscription", errors: eRole},
	{method: "PUT", path: "/v1/clients/{clientId}/subscription", tag: "billing", summary: "Move to a plan (admins): subscribe or change the price; the free plan cancels at the period's end", auth: "member", body: "UpdateSubscriptionDTO", resp: "Subscription", errors: []int{400, 403, 404, 422, 503}},
	{method: "DELETE", path: "/v1/clients/{clientId}/subscription", tag: "billing", summary: "Cancel the paid subscription at the end of the paid period, or at once with immediately=true (admins)", auth: "member",
		query: []queryParam{{"immediately", "boolean", false, "end it now instead of at the period's end"}}, resp: "Subscription", errors: []int{400, 403, 404, 503}},
	{method: "DELETE", path: "/v1/clients/{clientId}/subscription/cancellationRequest", tag: "billing", summary: "Withdraw a cancellation requested for the period's end (admins)", auth: "member", resp: "Subscription", errors: []int{403, 404, 503}},
	{method: "GET", path: "/v1/clients/{clientId}/paymentMethods", tag: "billing", summary: "Saved cards with the default one (admins)", auth: "member", resp: "PaymentMethods", errors: []int{403, 404, 503}},
	{method: "POST", path: "/v1/clients/{clientId}/paymentMethod/{paymentMethodId}/default", tag: "billing", summary: "Make a saved card the default for invoices (admins)", auth: "member", resp: "Boolean", errors: []int{400, 403, 404, 503}},
	{method: "DELETE", path: "/v1/clients/{clientId}/paymentMethod/{paymentMethodId}", tag: "billing", summary: "Remove a saved card (admins)", auth: "member", resp: "Boolean", errors: []int{400, 403, 404, 503}},
	{method: "GET", path: "/v1/clients/{clientId}/setupIntent", tag: "billing", summary: "Start adding a card: a client secret for the payment provider's script (admins)", auth: "member", resp: "SetupIntent", errors: []int{403, 404, 503}},
	{method: "GET", path: "/v1/clients/{clientId}/payment_method", tag: "billing", summary: "The default card, or null (admins)", auth: "member", resp: "DefaultPaymentMethod", errors: []int{403, 404, 503}},
	{method: "GET", path: "/v1/clients/{clientId}/invoices", tag: "billing", summary: "Invoices, newest first, as the payment provider reported them (admins)", auth: "member", resp: "Invoices", errors: eRole},
	{method: "GET", path: "/v1/clients/{clientId}/license", tag: "billing", summary: "The client's license (the token only to admins) and the plan in force", auth: "member", resp: "LicenseView", errors: eRole},
	{method: "POST", path: "/v1/auth/issue-license", tag: "billing", summary: "Sign a license for the caller's client on its current plan (admins; needs HERALD_LICENSE_SIGNING_KEY)", auth: "member",
		query: []queryParam{{"clientId", "integer", false, "required when the caller belongs to several clients"}}, status: 201, resp: "License", errors: []int{400, 403, 404, 503}},
	{method: "POST", path: "/v1/auth/issue-default-layout", tag: "billing", summary: "Give every app of the caller's client a default email layout from Herald's starter layout where it has none (developers): 201 when any was created, 200 when all had one", auth: "member",
		query: []queryParam{{"clientId", "integer", false, "required when the caller belongs to several clients"}}, status: 201, resp: "IssuedLayouts", errors: []int{400, 403, 404}},
	{method: "POST", path: "/v1/ai", tag: "assistant", summary: "Draft template content for a channel from a prompt, validated as a template (developers; needs HERALD_AI_BASE_URL)", auth: "member", body: "GeneratePromptDTO", status: 201, resp: "TemplateDraft", errors: []int{400, 403, 503}},
	{method: "POST", path: "/v1/webhook/payments", tag: "webhooks", summary: "Payment provider events, signed with Stripe-Signature (t=…,v1=HMAC-SHA256; at most 5 minutes old): 201 true when applied, 200 false for an event id applied before; 503 \"billing is not configured\" when HERALD_BILLING_PROVIDER=none", body: "PaymentEvent", status: 201, resp: "Boolean", errors: []int{400, 503}},
	{method: "POST", path: "/v1/webhook/licensing-server", tag: "webhooks", summary: "A license pushed by the licensing server, authenticated by its Ed25519 signature: 201 \"accepted\", 200 \"unchanged\" for a replayed or older one", body: "LicenseUpdate", status: 201, resp: "String", errors: []int{400, 401, 404, 503}},
}

var plan = object(nil, map[string]any{"id": str(""), "name": str(""), "monthlyQuota": map[string]any{"type": []string{"integer", "null"}, "description": "notifications a month; null is unlimited"},
	"price": map[string]any{"type": "integer", "description": "per month, in the currency's minor unit"}, "currency": str(""), "interval": str("month")})

var usageMonth = map[string]any{"month": str("YYYY-MM (UTC)"), "notifications": integer(), "recipients": integer()}

// merged returns the union of maps (later ones win).
func merged(ms ...map[string]any) map[string]any {
	out := map[string]any{}
	for _, m := range ms {
		maps.Copy(out, m)
	}
	return out
}

// opsSchemas are the bodies of opsOperations.
var opsSchemas = map[string]any{
	"AppUsage": object(nil, merged(usageMonth, map[string]any{"appId": integer(), "history": arrayOf(object(nil, usageMonth))})),
	"ClientUsage": object(nil, merged(usageMonth, map[string]any{"clientId": integer(), "plan": str("plan id"), "planName": str(""),
		"quota": map[string]any{"type": []string{"integer", "null"}}, "remaining": map[string]any{"type": []string{"integer", "null"}},
		"overQuota": boolean(), "enforcement": map[string]any{"type": "string", "enum": []string{"off", "report", "enforce"}}, "resetsAt": stamp(),
		"apps":    arrayOf(object(nil, map[string]any{"appId": integer(), "name": str(""), "notifications": integer(), "recipients": integer()})),
		"history": arrayOf(object(nil, usageMonth))})),
	"IntegrationStatus": object(nil, map[string]any{"id": integer(), "clientId": integer(), "name": str(""), "apiKey": str(""),
		"integrationStatus": object(nil, map[string]any{"hasSent": boolean(), "hasConnectedDevices": boolean(), "hasProvidersConfigured": boolean()})}),
	"ProfileAttributeList":        arrayOf(object(nil, map[string]any{"attribute": str("a profile key (without ?attribute)"), "value": str("a value (with ?attribute)"), "users": integer()})),
	"SendRequest":                 anyObject(),
	"NotificationRequestResponse": object(nil, map[string]any{"requestId": str("uuid")}),
	"PlanList":                    arrayOf(plan),
	"UpdateSubscriptionDTO":       object([]string{"plan"}, map[string]any{"plan": str("a plan id from GET /v1/plans")}),
	"Subscription": object(nil, map[string]any{"plan": plan, "source": map[string]any{"type": "string", "enum": []string{"license", "subscription", "free"}},
		"status": str("active, past_due, canceled, incomplete, …"), "provider": str("stripe or none"), "currentPeriodEnd": stamp(),
		"cancelAtPeriodEnd": boolean(), "canceledAt": stamp(), "licenseExpired": boolean(), "clientSecret": str("confirms the first payment while incomplete")}),
	"PaymentMethod":        object(nil, map[string]any{"id": str(""), "brand": str(""), "last4": str(""), "expMonth": integer(), "expYear": integer(), "default": boolean()}),
	"PaymentMethods":       object(nil, map[string]any{"paymentMethods": arrayOf(ref("PaymentMethod")), "defaultPaymentMethod": ref("PaymentMethod")}),
	"DefaultPaymentMethod": object(nil, map[string]any{"paymentMethod": ref("PaymentMethod")}),
	"SetupIntent":          object(nil, map[string]any{"id": str(""), "clientSecret": str(""), "publishableKey": str("")}),
	"Invoices": object(nil, map[string]any{"invoices": arrayOf(object(nil, map[string]any{"id": str(""), "number": str(""), "status": str(""), "currency": str(""),
		"amountDue": integer(), "amountPaid": integer(), "periodStart": stamp(), "periodEnd": stamp(), "hostedInvoiceUrl": str(""), "invoicePdf": str(""), "createdAt": stamp()}))}),
	"License": object(nil, map[string]any{"id": str(""), "clientId": integer(), "plan": str(""),
		"limits":   object(nil, map[string]any{"monthlyNotifications": map[string]any{"type": []string{"integer", "null"}}}),
		"issuedAt": stamp(), "expiresAt": stamp(), "token": str("EdDSA JWT")}),
	"LicenseView": object(nil, map[string]any{"status": map[string]any{"type": "string", "enum": []string{"none", "valid", "expired"}}, "license": ref("License"),
		"entitlement": object(nil, map[string]any{"plan": plan, "source": str(""), "licenseExpired": boolean()})}),
	"LicenseUpdate": object([]string{"license"}, map[string]any{"license": str("the signed license (a bare token body works too)")}),
	"PaymentEvent":  anyObject(),
	"IssuedLayouts": arrayOf(object([]string{"appId", "created", "layout"}, map[string]any{
		"appId": integer(), "created": map[string]any{"type": "boolean"}, "layout": ref("LayoutEntity")})),
	"GeneratePromptDTO": object([]string{"prompt", "channel"}, map[string]any{"prompt": str("at most 4000 characters"),
		"channel": str("inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams or webhook")}),
	"TemplateDraft": object(nil, map[string]any{"channel": str(""), "content": map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"},
		"description": "the channel's fields, e.g. subject/html/text for email"}, "model": str("")}),
}
