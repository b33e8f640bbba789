package v1

import (
	"encoding/json"

	"regexp"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// OpenAPI serves the OpenAPI 3.1 document of the management API at /v1/openapi.json. The
// document is written by hand in openapi_routes.go (not derived from the router), and a
// test checks that both list the same routes.
type OpenAPI struct{}

// Register mounts the document.
func (OpenAPI) Register(r fiber.Router) {
	doc := Document()
	r.Get("/openapi.json", func(c *fiber.Ctx) error {
		c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSONCharsetUTF8)
		return c.Send(doc)
	})
}

// operation is one documented route.
type operation struct {
	method, path, tag, summary string
	// auth is "" (none), "session", "member" (session or CLI token) or "challenge".
	auth  string
	query []queryParam
	// headers are request headers the route reads (beyond credentials).
	headers []queryParam
	// body names a schema, "multipart" for a file upload, or "" for none.
	body string
	// status and resp describe the success answer; resp "" means no schema is given.
	status int
	resp   string
	// errors lists the error statuses worth naming beyond 401 (for authenticated routes).
	errors []int
}

type queryParam struct {
	name, typ string
	required  bool
	desc      string
}

// numericParams are the path parameters that are integers.
var numericParams = []string{"appId", "clientId", "id", "categoryId", "clientUserId", "invitationId", "tokenId",
	"routeId", "templateId", "topicId", "providerInstance", "userId", "subscriptionId", "scheduledNotificationId", "layoutId"}

var pathParam = regexp.MustCompile(`\{([A-Za-z]+)\}`)

// Document renders the OpenAPI document as JSON.
func Document() []byte {
	paths := map[string]map[string]any{}
	for _, op := range slices.Concat(operations, configOperations, opsOperations, observabilityOperations) {
		item := paths[op.path]
		if item == nil {
			item = map[string]any{}
			paths[op.path] = item
		}
		item[strings.ToLower(op.method)] = op.render()
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":   "Herald management API",
			"version": "1",
			"description": "The console's API: accounts, sessions, two-factor authentication, clients and members, apps, CLI tokens and files; " +
				"per app: channels, providers, instances and routes, templates, layouts, translations, topics, workflows, scheduled notifications, commits and publishing; " +
				"usage, plans, subscriptions, payments, licenses and the template assistant; message logs and delivery analytics; inbound payment and licensing webhooks. " +
				"Authenticate with `Authorization: Bearer <accessToken>` from sign-in (or a CLI token where allowed). Errors: 400 " +
				"`{\"status\":\"error\",\"message\":[rules]}`, others `{\"status\":\"error\",\"message\":\"…\"}`.",
		},
		"paths": paths,
		"components": map[string]any{
			"securitySchemes": map[string]any{
				"session": map[string]any{"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
					"description": "accessToken of a sign-in (15 minutes); renew with POST /v1/auth/refresh"},
				"cliToken": map[string]any{"type": "http", "scheme": "bearer",
					"description": "a CLI token (hcli_…): acts on its client with its creator's role"},
				"challenge": map[string]any{"type": "http", "scheme": "bearer", "bearerFormat": "JWT",
					"description": "challengeToken of a sign-in that needs a second factor (5 minutes)"},
			},
			"schemas": allSchemas(),
		},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic("openapi: " + err.Error())
	}
	return b
}

// allSchemas merges the schemas of every part of the document.
func allSchemas() map[string]any {
	return merged(schemas, configSchemas, opsSchemas, observabilitySchemas)
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

func (op operation) render() map[string]any {
	out := map[string]any{"tags": []string{op.tag}, "summary": op.summary, "operationId": strings.ToLower(op.method) + op.path}
	var params []any
	for _, m := range pathParam.FindAllStringSubmatch(op.path, -1) {
		typ := "string"
		if slices.Contains(numericParams, m[1]) {
			typ = "integer"
		}
		params = append(params, map[string]any{"name": m[1], "in": "path", "required": true, "schema": map[string]any{"type": typ}})
	}
	for _, q := range op.query {
		params = append(params, map[string]any{"name": q.name, "in": "query", "required": q.required, "description": q.desc, "schema": map[string]any{"type": q.typ}})
	}
	for _, h := range op.headers {
		params = append(params, map[string]any{"name": h.name, "in": "header", "required": h.required, "description": h.desc, "schema": map[string]any{"type": h.typ}})
	}
	if len(params) > 0 {
		out["parameters"] = params
	}
	switch op.body {
	case "":
	case "multipart":
		out["requestBody"] = map[string]any{"required": true, "content": map[string]any{"multipart/form-data": map[string]any{"schema": ref("FileUpload")}}}
	default:
		out["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": ref(op.body)}}}
	}
	switch op.auth {
	case "session":
		out["security"] = []any{map[string]any{"session": []string{}}}
	case "member":
		out["security"] = []any{map[string]any{"session": []string{}}, map[string]any{"cliToken": []string{}}}
	case "challenge":
		out["security"] = []any{map[string]any{"challenge": []string{}}}
	default:
		out["security"] = []any{}
	}
	status := op.status
	if status == 0 {
		status = 200
	}
	ok := map[string]any{"description": "success"}
	if op.resp != "" {
		ok["content"] = map[string]any{"application/json": map[string]any{"schema": ref(op.resp)}}
	}
	responses := map[string]any{itoa(status): ok}
	errs := op.errors
	if op.auth != "" {
		errs = append(errs, 401)
	}
	for _, s := range errs {
		schema := "Error"
		if s == 400 {
			schema = "ValidationError"
		}
		responses[itoa(s)] = map[string]any{"description": errorText[s], "content": map[string]any{"application/json": map[string]any{"schema": ref(schema)}}}
	}
	out["responses"] = responses
	return out
}

var errorText = map[int]string{
	400: "the request broke the listed rules; nothing was changed",
	401: "no or invalid credentials",
	403: "the caller's role (or credential kind) does not allow this",
	404: "no such resource for this caller (another client's ids included)",
	409: "conflicts with the current state",
	413: "too large",
	422: "well-formed but cannot be applied (e.g. the payment provider refused)",
	429: "too many failed attempts, or the monthly quota is used up; see Retry-After",
	503: "a dependency (database, email, captcha or code host) is unavailable",
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
