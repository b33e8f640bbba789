// Package security holds the abuse and attack suites of issue 11, run against the real
// API on a test database: an HTTP fuzz pass over every registered route, a tenant
// isolation matrix generated from the route table, authentication attacks, limits, secrets
// at rest and in logs, and a review of secret comparisons. The route-driven suites read
// Fiber's route list, so a route added later is fuzzed and checked for isolation without
// anyone remembering to: a route whose path parameter has no fixture fails the matrix
// with a message naming the fixture to add (tenancy_test.go).
package security

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/flowrun"
)

func TestMain(m *testing.M) { stacktest.Main(m) }

const password = "correct horse battery staple"

// tenant is one customer with one of each resource: a console account owning a client
// with an app, and in the app a user with an inbox, a category, a topic the user is
// subscribed to, a device, a provider instance, a route, a template with e-mail content,
// a default layout, a default translation, a workflow, a flow schedule and
// a scheduled send; in the client an invitation, a CLI token, files, and a customer with
// a saved card at the payment provider. Display names carry the tenant's marker
// ("TenantA"/"TenantB") so a response that leaks another tenant's data shows it;
// identifiers that travel in paths do not, so an echo of the path is no leak.
type tenant struct {
	name, marker string
	login        stacktest.SignIn
	consoleUser  int64
	client, app  int64
	creds        apps.Credentials

	user, device, topicIdent, categoryIdent, templateIdent, locale string
	userID, notification, category, topic                          int64
	invitation                                                     int64
	invitationCode, cliToken                                       string
	cliTokenID, instance, route, template, layout, scheduled       int64
	file, layoutFile, upload                                       string
	workflowIdent, paymentMethod, flowRequest                      string
	topicSubscription, recurring                                   int64
	// webhook is an event webhook endpoint, webhookDelivery a row of its delivery log.
	webhook, webhookDelivery int64
}

// world is two tenants on one stack. The stack bills through Stripe (a local fake) and
// holds the licensing keys, so the billing and licensing routes work in full rather than
// answering "billing is off" or "not configured".
type world struct {
	e       *stacktest.Env
	console *stacktest.Console
	a, b    *tenant
	// stripe is the payment provider's fake; its state is part of every snapshot.
	stripe *stripeFake
	// licenseKey signs licenses; the stack verifies them with its public half.
	licenseKey ed25519.PrivateKey
}

// stripeWebhookSecret signs the payment provider's webhooks to the world's stack.
const stripeWebhookSecret = "whsec_security_suite"

func newWorld(t *testing.T) *world {
	t.Helper()
	return newWorldWith(t, stacktest.Options{})
}

// newWorldWith builds the world on a stack started with opts (whose Configure runs after
// the world's own configuration).
func newWorldWith(t *testing.T, opts stacktest.Options) *world {
	t.Helper()
	w := &world{stripe: newStripeFake(t)}
	_, w.licenseKey, _ = ed25519.GenerateKey(nil)
	then := opts.Configure
	opts.Configure = func(c *config.Config) {
		c.Ops.BillingProvider = "stripe"
		c.Ops.StripeSecretKey = "sk_test_" + secrets.HexToken(8)
		c.Ops.StripeWebhookSecret = stripeWebhookSecret
		c.Ops.StripePublishableKey = "pk_test_security"
		c.Ops.StripeAPIURL = w.stripe.URL
		c.Ops.LicenseSigningKey = base64.StdEncoding.EncodeToString(w.licenseKey.Seed())
		c.Ops.LicensePublicKey = base64.StdEncoding.EncodeToString(w.licenseKey.Public().(ed25519.PublicKey))
		// The codec server of Temporal payloads, so its routes are in the route table.
		c.Codec.ServerToken = "codec-" + secrets.HexToken(16)
		c.Codec.ServerOrigins = config.OriginList{"https://temporal-ui.example"}
		if then != nil {
			then(c)
		}
	}
	e, c := stacktest.NewWithConsole(t, opts)
	w.e, w.console = e, c
	w.a = w.tenant(t, "a")
	w.b = w.tenant(t, "b")
	return w
}

func (w *world) tenant(t *testing.T, name string) *tenant {
	t.Helper()
	e, ctx := w.e, context.Background()
	tn := &tenant{name: name, marker: "Tenant" + strings.ToUpper(name)}
	tn.login = w.console.User("owner-"+name+"@"+strings.ToLower(tn.marker)+".example", password)
	tok := tn.login.AccessToken
	tn.consoleUser = int64(e.Must(e.Do("GET", "/v1/auth/me", nil, stacktest.Bearer(tok)), 200, "me").Map(t)["id"].(float64))
	tn.client = w.console.Client(tok, tn.marker+" Corp")
	app := w.console.App(tok, tn.client, tn.marker+" App")
	tn.app = int64(app["id"].(float64))
	sec := e.Must(e.Do("GET", fmt.Sprintf("/v1/apps/%d/secret", tn.app), nil, stacktest.Bearer(tok)), 200, "secret").Map(t)
	tn.creds = apps.Credentials{AppID: tn.app, APIKey: sec["apiKey"].(string), APISecret: sec["apiSecret"].(string)}

	// Developer API resources, created through the API.
	tn.user, tn.device = "user-"+name, "device-"+name
	tn.topicIdent, tn.categoryIdent = "topic-"+name, "category-"+name
	must := func(method, path string, body any, status int) map[string]any {
		t.Helper()
		res := e.Must(e.Do(method, path, body, tn.appUserHeaders(e)), status, method+" "+path)
		if len(res.Body) == 0 || res.Body[0] != '{' {
			return nil
		}
		return res.Map(t)
	}
	must("POST", "/v3/users", map[string]any{"identifier": tn.user, "profile": map[string]any{"name": tn.marker + " Person", "email": "person@" + name + ".example"}}, 200)
	tn.category = int64(must("POST", "/v3/categories", map[string]any{"identifier": tn.categoryIdent, "name": tn.marker + " Category"}, 200)["id"].(float64))
	tn.topic = int64(must("POST", "/v3/topics", map[string]any{"identifier": tn.topicIdent, "name": tn.marker + " Topic"}, 201)["id"].(float64))
	must("POST", fmt.Sprintf("/v3/topics/%d/users", tn.topic), map[string]any{"users": []any{map[string]any{"identifier": tn.user}}}, 200)
	must("POST", "/v3/sdk/connect", map[string]any{"deviceType": "browser"}, 200)
	must("POST", "/v3/devices/"+tn.device+"/webPushSubscription", map[string]any{"endpoint": "https://push.example/" + name, "keys": map[string]any{"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM", "auth": "tBHItJI5svbpez7KI4CCXg"}}, 200)
	must("PATCH", "/v3/preferences", map[string]any{"preference": []any{map[string]any{"categoryId": tn.category, "channels": []any{map[string]any{"channel": "email", "enabled": false}}}}}, 200)
	db := e.Stack.DB.Pool
	if err := db.QueryRow(ctx, "SELECT id FROM users WHERE app_id = $1 AND identifier = $2", tn.app, tn.user).Scan(&tn.userID); err != nil {
		t.Fatal(err)
	}
	// Inbox rows and scheduled sends come from workflows: this stack runs none, so the
	// fixture writes them as delivery would.
	if err := db.QueryRow(ctx, `INSERT INTO notifications (app_id, user_id, request_id, title, message)
		VALUES ($1, $2, gen_random_uuid(), $3, 'inbox secret') RETURNING id`, tn.app, tn.userID, tn.marker+" Inbox Title").Scan(&tn.notification); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, `WITH r AS (
			INSERT INTO notification_requests (id, app_id, payload, send_at, status) VALUES (gen_random_uuid(), $1, $2, now() + interval '1 day', 'started') RETURNING id, send_at)
		INSERT INTO scheduled_notifications (app_id, request_id, send_at) SELECT $1, id, send_at FROM r RETURNING id`,
		tn.app, fmt.Sprintf(`{"notification":{"title":%q},"recipients":[{"identifier":%q}]}`, tn.marker+" Scheduled", tn.user)).Scan(&tn.scheduled); err != nil {
		t.Fatal(err)
	}

	// An event webhook endpoint and one delivery of its log (written as the triggers would).
	ep, err := e.Stack.Webhooks.Create(ctx, tn.app, []byte(`{"url":"http://127.0.0.1:9/`+name+`","eventTypes":["message.sent"],"description":"`+tn.marker+` Hook"}`))
	if err != nil {
		t.Fatal(err)
	}
	tn.webhook = ep.ID
	if err := db.QueryRow(ctx, `INSERT INTO webhook_deliveries (app_id, endpoint_id, event_type, data, status)
		VALUES ($1, $2, 'message.sent', jsonb_build_object('userIdentifier', $3::text), 'succeeded') RETURNING id`, tn.app, tn.webhook, tn.user).Scan(&tn.webhookDelivery); err != nil {
		t.Fatal(err)
	}

	// Configuration, through the services the management routes use.
	cfg := []byte(`{"host":"127.0.0.1","port":2525,"security":"none","from":"noreply@` + name + `.example","fromName":"` + tn.marker + ` Mailer"}`)
	inst, err := e.Stack.Channels.CreateInstance(ctx, tn.app, "email", channels.InstanceInput{Provider: "smtp", Name: tn.marker + " SMTP", Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	tn.instance = inst.ID
	route, err := e.Stack.Channels.CreateRoute(ctx, tn.app, "email", channels.RouteInput{Name: tn.marker + " Route", InstanceIDs: []int64{inst.ID}})
	if err != nil {
		t.Fatal(err)
	}
	tn.route = route.ID
	tn.templateIdent, tn.locale = "template-"+name, "fr"
	tpl, err := e.Stack.Templates.Create(ctx, tn.app, templates.TemplateInput{Identifier: tn.templateIdent, Name: tn.marker + " Template"})
	if err != nil {
		t.Fatal(err)
	}
	tn.template = tpl.ID
	isDefault := true
	layout, err := e.Stack.Templates.CreateLayout(ctx, tn.app, templates.LayoutInput{Identifier: "layout-" + name, Name: tn.marker + " Layout", HTML: "<p>" + tn.marker + "</p>{{{content}}}", Default: &isDefault})
	if err != nil {
		t.Fatal(err)
	}
	tn.layout = layout.ID
	if _, err := e.Stack.Templates.PutTranslation(ctx, tn.app, tn.locale, templates.TranslationInput{Entries: []byte(`{"hello":"` + tn.marker + ` bonjour"}`), Default: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Stack.Templates.SetContent(ctx, tn.app, tn.template, "email", templates.ContentInput{
		Fields: []byte(`{"subject":"` + tn.marker + ` Subject","html":"<p>Hello {{name}}</p>","text":"Hello {{name}}"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(ctx, "SELECT id FROM topic_subscriptions WHERE topic_id = $1 AND user_id = $2", tn.topic, tn.userID).Scan(&tn.topicSubscription); err != nil {
		t.Fatal(err)
	}

	// Client resources, through the management API.
	mustV1 := func(method, path string, body any, status int) *stacktest.Response {
		t.Helper()
		return e.Must(e.Do(method, path, body, stacktest.Bearer(tok)), status, method+" "+path)
	}
	mustV1("POST", fmt.Sprintf("/v1/clients/%d/invite-users", tn.client), []string{"invitee-" + name + "@" + strings.ToLower(tn.marker) + ".example"}, 200)
	var invs []map[string]any
	mustV1("GET", fmt.Sprintf("/v1/clients/%d/clientUserInvitations", tn.client), nil, 200).JSON(t, &invs)
	tn.invitation = int64(invs[0]["id"].(float64))
	tn.invitationCode = w.console.Mail.Last(t, "invitee-"+name+"@"+strings.ToLower(tn.marker)+".example").Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	tn.workflowIdent = "workflow-" + name
	mustV1("POST", fmt.Sprintf("/v1/apps/%d/workflows", tn.app), map[string]any{"identifier": tn.workflowIdent, "name": tn.marker + " Workflow",
		"definition": map[string]any{"steps": []any{map[string]any{"id": "mail", "type": "email", "template": tn.templateIdent}}}}, 201)
	// A flow schedule of the workflow. Creating one through the API also creates its
	// Temporal Schedule, and this stack runs no Temporal: the fixture writes the row as
	// flow.ScheduleService.Create does.
	if err := db.QueryRow(ctx, `INSERT INTO flow_schedules (app_id, schedule_id, flow_identifier, cron, timezone, send_body)
		VALUES ($1, $2, $3, '0 9 * * 1', 'UTC', $4) RETURNING id`, tn.app, flowrun.FlowScheduleID(secrets.HexToken(8)), tn.workflowIdent,
		fmt.Sprintf(`{"notification":{"workflow":{"identifier":%q}},"sendTo":{"recipients":[%q]},"data":{"owner":%q}}`, tn.workflowIdent, tn.user, tn.marker+" Recurring")).Scan(&tn.recurring); err != nil {
		t.Fatal(err)
	}
	// A run of the workflow started by a send (its request), as the worker records it.
	if err := db.QueryRow(ctx, `WITH r AS (
			INSERT INTO notification_requests (id, app_id, payload, send_at, status) VALUES (gen_random_uuid(), $1, '{}', now(), 'started') RETURNING id)
		INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id)
		SELECT $1, r.id, $2, $3, 'flow/' || $2 || '/' || r.id || '/' || $3 FROM r RETURNING request_id::text`,
		tn.app, tn.workflowIdent, tn.user).Scan(&tn.flowRequest); err != nil {
		t.Fatal(err)
	}
	// A customer at the payment provider (created by the first setup intent) with a card
	// saved through it.
	mustV1("GET", fmt.Sprintf("/v1/clients/%d/setupIntent", tn.client), nil, 200)
	tn.paymentMethod = w.stripe.addCard(t, tn.client)
	cli := mustV1("POST", fmt.Sprintf("/v1/clients/%d/cli-token", tn.client), map[string]string{"name": tn.marker + " laptop"}, 201).Map(t)
	tn.cliToken, tn.cliTokenID = cli["token"].(string), int64(cli["id"].(float64))
	tn.file = w.upload(t, tok, "workflows", "flow-"+name+".json", []byte(`{"owner":"`+tn.marker+`"}`))
	tn.layoutFile = w.upload(t, tok, "layouts", "layout-"+name+".html", []byte(`<html><body>`+tn.marker+`</body></html>`))
	// A signing key, so user tokens can be minted for the app.
	mustV1("POST", fmt.Sprintf("/v1/apps/%d/rsa-key", tn.app), nil, 200)
	tn.upload = w.upload(t, tok, "uploads", "logo-"+name+".png", append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, 64)...))
	return tn
}

// upload stores a file through POST /v1/files and returns its name.
func (w *world) upload(t *testing.T, tok, folder, filename string, content []byte) string {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("folder", folder)
	fw, _ := mw.CreateFormFile("file", filename)
	_, _ = fw.Write(content)
	mw.Close()
	req, _ := http.NewRequest("POST", w.e.BaseURL+"/v1/files", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	r := &stacktest.Response{Status: res.StatusCode, Body: body, Header: res.Header}
	return w.e.Must(r, 201, "upload "+filename).Map(t)["filename"].(string)
}

// appUserHeaders authenticate every kind of developer API route at once: app credentials
// (API key and secret), the user (user id) and the device (device id). App routes read the
// first pair, user routes the key and user id, device routes all but the secret.
func (tn *tenant) appUserHeaders(e *stacktest.Env) stacktest.Headers {
	p := e.Cfg.HeaderPrefix
	return stacktest.Headers{p + "API-KEY": tn.creds.APIKey, p + "API-SECRET": tn.creds.APISecret, p + "USER-ID": tn.user, p + "DEVICE-ID": tn.device}
}

// headers are the tenant's credentials for a path: the console session for /v1, the app
// and user for /v3.
func (tn *tenant) headers(e *stacktest.Env, path string) stacktest.Headers {
	if strings.HasPrefix(path, "/v1/") {
		return stacktest.Bearer(tn.login.AccessToken)
	}
	return tn.appUserHeaders(e)
}
