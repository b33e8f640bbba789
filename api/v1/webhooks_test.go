package v1_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/cli"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestWebhookEndpointRoutes(t *testing.T) {
	f := fixtureOn(t, newEnv(t, func(c *config.Config) { c.PrivateHosts = []string{"127.0.0.1"} }))
	base := f.appPath + "/webhooks"
	good := map[string]any{"url": "http://127.0.0.1:9/hooks", "eventTypes": []string{"message.failed", "notification.read"},
		"filter": map[string]any{"channels": []string{"email"}}, "description": "CRM"}
	var ep int64
	var secret string
	f.run(t, []call{
		{name: "no token", method: "POST", path: base, status: 401, body: good},
		{name: "viewer may not create", method: "POST", path: base, as: f.viewer, status: 403, body: good},
		{name: "stranger", method: "POST", path: base, as: f.stranger, status: 404, body: good},
		{name: "bad body", method: "POST", path: base, as: f.dev, status: 400,
			body: map[string]any{"url": 1, "eventTypes": []string{"message.sent", "nope"}, "filter": map[string]any{"channels": []string{"fax"}, "categories": "x"},
				"enabled": "yes", "description": strings.Repeat("d", 501)},
			msgs: []string{"url must be a string", "description must be at most 500 characters",
				`eventTypes: unknown event type "nope" (known: message.sent, message.delivered, message.failed, message.bounced, message.opened, message.clicked, notification.seen, notification.read, notification.clicked, notification.archived, notification.deleted, flow_run.completed, flow_run.failed, preference.changed, user.unsubscribed)`,
				"filter.categories must be an array of strings",
				`filter.channels: unknown channel "fax" (known: inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook)`,
				"enabled must be a boolean"}},
		{name: "missing fields", method: "POST", path: base, as: f.dev, status: 400, body: map[string]any{},
			msgs: []string{"url must be a string", "eventTypes must be an array of strings"}},
		{name: "not http", method: "POST", path: base, as: f.dev, status: 400, body: map[string]any{"url": "ftp://127.0.0.1/x", "eventTypes": []string{"message.sent"}},
			msgs: []string{"url must be an http or https URL"}},
		{name: "private address", method: "POST", path: base, as: f.dev, status: 400, body: map[string]any{"url": "http://10.1.2.3/x", "eventTypes": []string{"message.sent"}},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := errMessages(t, res); len(m) != 1 || !strings.Contains(m[0], "HERALD_PRIVATE_HOSTS") {
					t.Errorf("%q", m)
				}
			}},
		{name: "create", method: "POST", path: base, as: f.dev, status: 201, body: good, check: func(t *testing.T, res *stacktest.Response) {
			ep = id(t, res)
			secret, _ = res.Map(t)["secret"].(string)
			if !strings.HasPrefix(secret, "whsec_") || len(secret) < 6+32 {
				t.Errorf("secret %q", secret)
			}
		}},
		{name: "list hides the secret", method: "GET", path: base, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"url":"http://127.0.0.1:9/hooks"`, `"channels":["email"]`) || strings.Contains(string(res.Body), "whsec_") {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "stranger lists theirs", method: "GET", path: f.strangerApp + "/webhooks", as: f.stranger, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != `{"data":[]}` {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	one := fmt.Sprintf("%s/%d", base, ep)
	theirs := fmt.Sprintf("%s/webhooks/%d", f.strangerApp, ep)
	f.run(t, []call{
		{name: "get", method: "GET", path: one, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["enabled"] != true || m["ordered"] != false || strings.Contains(string(res.Body), "whsec_") {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "bad id", method: "GET", path: base + "/0", as: f.viewer, status: 400, msgs: []string{"webhookId must be a positive integer"}},
		{name: "unknown id", method: "GET", path: base + "/999999", as: f.viewer, status: 404},
		{name: "another tenant's id", method: "GET", path: theirs, as: f.stranger, status: 404},
		{name: "another tenant patches", method: "PATCH", path: theirs, as: f.stranger, status: 404, body: map[string]any{"enabled": false}},
		{name: "another tenant rotates", method: "POST", path: theirs + "/rotate-secret", as: f.stranger, status: 404},
		{name: "another tenant reads the log", method: "GET", path: theirs + "/deliveries", as: f.stranger, status: 404},
		{name: "another tenant replays", method: "POST", path: theirs + "/replay", as: f.stranger, status: 404, body: map[string]any{"since": "2020-01-01T00:00:00Z"}},
		{name: "another tenant deletes", method: "DELETE", path: theirs, as: f.stranger, status: 404},
		{name: "viewer may not patch", method: "PATCH", path: one, as: f.viewer, status: 403, body: map[string]any{"enabled": false}},
		{name: "bad patch", method: "PATCH", path: one, as: f.dev, status: 400, body: map[string]any{"eventTypes": []string{}, "ordered": 1},
			msgs: []string{"eventTypes should not be empty", "ordered must be a boolean"}},
		{name: "unchanged after a bad patch", method: "GET", path: one, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"eventTypes":["message.failed","notification.read"]`, `"ordered":false`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "patch", method: "PATCH", path: one, as: f.dev, status: 200, body: map[string]any{"enabled": false, "ordered": true, "eventTypes": []string{"message.sent"}},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["enabled"] != false || m["ordered"] != true || m["disabledReason"] != "" {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "viewer may not rotate", method: "POST", path: one + "/rotate-secret", as: f.viewer, status: 403},
		{name: "rotate", method: "POST", path: one + "/rotate-secret", as: f.dev, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			m := res.Map(t)
			if s, _ := m["secret"].(string); !strings.HasPrefix(s, "whsec_") || s == secret || m["previousSecretUntil"] == nil {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "empty log", method: "GET", path: one + "/deliveries", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != `{"data":[],"nextBefore":0}` {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "bad log query", method: "GET", path: one + "/deliveries?status=lost&limit=0", as: f.viewer, status: 400,
			msgs: []string{"status must be one of pending, succeeded, failed", "limit must not be less than 1"}},
		{name: "app log", method: "GET", path: f.appPath + "/webhook-deliveries?status=failed", as: f.viewer, status: 200},
		{name: "app log of another tenant", method: "GET", path: f.appPath + "/webhook-deliveries", as: f.stranger, status: 404},
		{name: "resend unknown", method: "POST", path: one + "/deliveries/12345/resend", as: f.dev, status: 404},
		{name: "resend bad id", method: "POST", path: one + "/deliveries/x/resend", as: f.dev, status: 400, msgs: []string{"deliveryId must be a positive integer"}},
		{name: "viewer may not replay", method: "POST", path: one + "/replay", as: f.viewer, status: 403, body: map[string]any{"since": "2020-01-01T00:00:00Z"}},
		{name: "bad replay", method: "POST", path: one + "/replay", as: f.dev, status: 400, body: map[string]any{"since": "yesterday"},
			msgs: []string{"since must be an RFC 3339 date-time"}},
		{name: "replay", method: "POST", path: one + "/replay", as: f.dev, status: 202, body: map[string]any{"since": "2020-01-01T00:00:00Z"},
			check: func(t *testing.T, res *stacktest.Response) {
				if string(res.Body) != `{"queued":0}` {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "viewer may not delete", method: "DELETE", path: one, as: f.viewer, status: 403},
		{name: "delete", method: "DELETE", path: one, as: f.dev, status: 204},
		{name: "deleted", method: "GET", path: one, as: f.viewer, status: 404},
		{name: "delete again", method: "DELETE", path: one, as: f.dev, status: 404},
	})
}

// herald logs --webhooks lists the app's deliveries through /v1 with a CLI token; --status
// narrows them.
func TestCLIListsWebhookDeliveries(t *testing.T) {
	f := fixtureOn(t, newEnv(t, func(c *config.Config) { c.PrivateHosts = []string{"127.0.0.1"} }))
	ep := id(t, f.do(t, f.dev, "POST", f.appPath+"/webhooks", map[string]any{"url": "http://127.0.0.1:9/h", "eventTypes": []string{"message.failed"}}, 201))
	if _, err := f.Stack.DB.Pool.Exec(t.Context(), `INSERT INTO webhook_deliveries (app_id, endpoint_id, event_type, data, status, attempts, last_status, last_latency_ms)
		VALUES ($1, $2, 'message.failed', '{}', 'succeeded', 2, 204, 12), ($1, $2, 'message.failed', '{}', 'failed', 9, 500, 30)`, f.appID, ep); err != nil {
		t.Fatal(err)
	}
	tok := f.do(t, f.viewer, "POST", fmt.Sprintf("/v1/clients/%d/cli-token", f.client), map[string]string{"name": "ci"}, 201).Map(t)["token"].(string)
	run := func(args ...string) string {
		var out, errb bytes.Buffer
		env := cli.Env{Getenv: func(k string) string {
			return map[string]string{"HERALD_URL": f.BaseURL, "HERALD_TOKEN": tok, "HERALD_CONFIG": filepath.Join(t.TempDir(), "c.json")}[k]
		}, Stdout: &out, Stderr: &errb}
		if err := cli.Run(context.Background(), append([]string{"logs", "--app", fmt.Sprint(f.appID), "--webhooks"}, args...), env); err != nil {
			t.Fatalf("herald logs --webhooks %v: %v %s", args, err, errb.String())
		}
		return out.String()
	}
	all := run()
	if !contains(all, "message.failed", "succeeded", "HTTP 204 12ms", "failed", "HTTP 500 30ms", "msg_") {
		t.Errorf("herald logs --webhooks:\n%s", all)
	}
	if failed := run("--status", "failed"); strings.Contains(failed, "succeeded") || !strings.Contains(failed, "HTTP 500") {
		t.Errorf("--status failed:\n%s", failed)
	}
}
