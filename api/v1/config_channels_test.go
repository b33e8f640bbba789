package v1_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestProviderCatalogue(t *testing.T) {
	f := newFixture(t)
	f.run(t, []call{
		{name: "every kind", method: "GET", path: "/v1/providers", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			var kinds []struct {
				Identifier, Channel string
				ConfigSchema        struct {
					Properties map[string]map[string]any
				}
			}
			res.JSON(t, &kinds)
			byID := map[string]string{}
			for _, k := range kinds {
				byID[k.Identifier] = k.Channel
				if k.Identifier == "smtp" && k.ConfigSchema.Properties["password"]["x-secret"] != true {
					t.Errorf("smtp password is not marked secret: %v", k.ConfigSchema.Properties)
				}
			}
			for id, ch := range map[string]string{"smtp": "email", "sendgrid": "email", "twilio-sms": "sms", "webhook": "webhook", "slack": "slack", "fcm": "mobilePush", "webpush": "webPush", "meta-whatsapp": "whatsapp"} {
				if byID[id] != ch {
					t.Errorf("%s: channel %q, want %q (catalogue %v)", id, byID[id], ch, byID)
				}
			}
		}},
		{name: "one channel", method: "GET", path: "/v1/providers?channel=email", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			var kinds []struct{ Identifier string }
			res.JSON(t, &kinds)
			var ids []string
			for _, k := range kinds {
				ids = append(ids, k.Identifier)
			}
			if strings.Join(ids, ",") != "mailgun,postmark,sendgrid,ses,smtp" {
				t.Errorf("email providers %v", ids)
			}
		}},
		{name: "in-app has no providers", method: "GET", path: "/v1/providers?channel=inApp", as: f.viewer, status: 400,
			msgs: []string{"channel must be one of email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"}},
	})
}

func TestChannelProvidersAndInstances(t *testing.T) {
	f := newFixture(t)
	f.smtp.Username, f.smtp.Password = "mailer", "smtp-pass-6f1e"
	app := f.appPath
	smtp := app + "/channels/email/providers/smtp"
	var first int64
	f.run(t, []call{
		{name: "bad config", method: "POST", path: smtp, as: f.dev, status: 400,
			body: map[string]any{"config": map[string]any{"port": "25", "security": "maybe", "from": "nobody", "extra": 1}},
			msgs: []string{"config.host is required", "config.extra is not a known field", "config.from must be an email address",
				"config.port must be an integer", `config.security must be one of "starttls", "opportunistic", "tls", "none"`}},
		{name: "bad body types", method: "POST", path: smtp, as: f.dev, status: 400, body: map[string]any{"config": "x", "priority": "1", "test": "yes"},
			msgs: []string{"config must be an object", "priority must be an integer number", "test must be a boolean"}},
		{name: "not an email provider", method: "POST", path: app + "/channels/email/providers/twilio-sms", as: f.dev, status: 400, body: map[string]any{"config": map[string]any{}},
			msgs: []string{`providerIdentifier "twilio-sms" is not a provider of email (known: mailgun, postmark, sendgrid, ses, smtp)`}},
		{name: "not a channel", method: "POST", path: app + "/channels/pager/providers/smtp", as: f.dev, status: 400, body: map[string]any{},
			msgs: []string{"channel must be one of email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"}},
		{name: "failing connection test saves nothing", method: "POST", path: smtp + "?test=true", as: f.dev, status: 400,
			body: map[string]any{"config": f.smtpConfig(map[string]any{"username": "mailer", "password": "wrong-pass-99"})},
			check: func(t *testing.T, res *stacktest.Response) {
				m := errMessages(t, res)
				if len(m) != 1 || !strings.HasPrefix(m[0], "config: connection test failed: ") || strings.Contains(m[0], "wrong-pass-99") {
					t.Errorf("%q", m)
				}
			}},
		{name: "nothing configured yet", method: "GET", path: app + "/channels/email/providers", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if string(res.Body) != "[]" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "enable with a passing test", method: "POST", path: smtp, as: f.dev, status: 200,
			body: map[string]any{"config": f.smtpConfig(map[string]any{"username": "mailer", "password": "smtp-pass-6f1e"}), "test": true},
			check: func(t *testing.T, res *stacktest.Response) {
				m := res.Map(t)
				cfg := m["config"].(map[string]any)
				if m["connectionTest"] != "passed" || m["enabled"] != true || m["name"] != "smtp" || cfg["password"] != "********" || cfg["username"] != "mailer" {
					t.Errorf("%v", m)
				}
				first = int64(m["id"].(float64))
			}},
		{name: "patch keeps the masked secret", method: "PATCH", path: smtp + "?test=true", as: f.dev, status: 200,
			body: map[string]any{"config": map[string]any{"password": "********", "fromName": "Acme Ops"}}, check: func(t *testing.T, res *stacktest.Response) {
				if string(res.Body) != "true" {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "disable", method: "POST", path: smtp + "/disable", as: f.dev, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["enabled"] != false || m["config"].(map[string]any)["fromName"] != "Acme Ops" {
				t.Errorf("%v", m)
			}
		}},
		{name: "enable", method: "POST", path: smtp + "/enable", as: f.dev, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if res.Map(t)["enabled"] != true {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "routing without priority", method: "PUT", path: smtp + "/routing", as: f.dev, status: 400, body: map[string]any{},
			msgs: []string{"priority should not be empty"}},
		{name: "routing", method: "PUT", path: smtp + "/routing", as: f.dev, status: 200, body: map[string]any{"priority": 3},
			check: func(t *testing.T, res *stacktest.Response) {
				if !contains(string(res.Body), `"channel":"email"`, `"priority":3`) {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "unconfigured provider", method: "POST", path: app + "/channels/email/providers/sendgrid/enable", as: f.dev, status: 404},
		{name: "second instance", method: "POST", path: app + "/channels/email/providerInstances", as: f.dev, status: 201,
			body: map[string]any{"providerIdentifier": "smtp", "name": "backup", "priority": 5, "config": f.smtpConfig(map[string]any{"username": "mailer", "password": "smtp-pass-6f1e"})}},
		{name: "duplicate name", method: "POST", path: app + "/channels/email/providerInstances", as: f.dev, status: 409,
			body: map[string]any{"providerIdentifier": "smtp", "name": "backup", "config": f.smtpConfig(nil)}},
		{name: "instance without provider", method: "POST", path: app + "/channels/email/providerInstances", as: f.dev, status: 400,
			body: map[string]any{"name": "x"}, msgs: []string{"providerIdentifier should not be empty"}},
		{name: "provider routes need one instance", method: "POST", path: smtp + "/enable", as: f.dev, status: 409},
	})
	insts := f.instances(t, f.viewer, "email")
	if len(insts) != 2 || insts[0]["name"] != "smtp" || insts[1]["name"] != "backup" {
		t.Fatalf("instances %v", insts)
	}
	backup := int64(insts[1]["id"].(float64))
	inst := func(id int64) string { return fmt.Sprintf("%s/channels/email/providerInstances/%d", app, id) }
	f.run(t, []call{
		{name: "get instance", method: "GET", path: inst(backup), as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["priority"] != 5.0 || m["providerIdentifier"] != "smtp" {
				t.Errorf("%v", m)
			}
		}},
		{name: "instance under another channel", method: "GET", path: fmt.Sprintf("%s/channels/sms/providerInstances/%d", app, backup), as: f.viewer, status: 404},
		{name: "instance id not a number", method: "GET", path: app + "/channels/email/providerInstances/abc", as: f.viewer, status: 400,
			msgs: []string{"providerInstance must be a positive integer"}},
		{name: "patch instance", method: "PATCH", path: inst(backup), as: f.dev, status: 200, body: map[string]any{"priority": -1, "name": "backup-1"},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["priority"] != -1.0 || m["name"] != "backup-1" {
					t.Errorf("%v", m)
				}
			}},
		{name: "patch with a bad config", method: "PATCH", path: inst(backup), as: f.dev, status: 400, body: map[string]any{"config": map[string]any{"timeoutSeconds": 0}},
			msgs: []string{"config.timeoutSeconds must not be less than 1"}},
		{name: "disable instance", method: "PUT", path: inst(backup) + "/disable", as: f.dev, status: 200},
		{name: "enable instance", method: "PUT", path: inst(backup) + "/enable", as: f.dev, status: 200},
		{name: "overview", method: "GET", path: app + "/channels/v1", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			var list []struct {
				Channel    string
				Configured bool
				Providers  []struct {
					Identifier string
					Instances  []map[string]any
				}
			}
			res.JSON(t, &list)
			got := map[string]bool{}
			for _, c := range list {
				got[c.Channel] = c.Configured
				if c.Channel == "email" {
					for _, p := range c.Providers {
						if p.Identifier == "smtp" && len(p.Instances) != 2 {
							t.Errorf("smtp instances %v", p.Instances)
						}
					}
				}
			}
			if !got["inApp"] || !got["email"] || got["sms"] || len(list) != 10 {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "channel's kinds", method: "GET", path: app + "/channels/v1/sms/providers", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"identifier":"twilio-sms"`, `"configSchema"`, `"instances":[]`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "one kind", method: "GET", path: app + "/channels/v1/email/providers/smtp", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); len(m["instances"].([]any)) != 2 || m["configSchema"] == nil {
				t.Errorf("%v", m)
			}
		}},
		{name: "unknown kind", method: "GET", path: app + "/channels/v1/email/providers/pigeon", as: f.viewer, status: 404},
		{name: "all channels' instances", method: "GET", path: app + "/channels", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			var list []map[string]any
			res.JSON(t, &list)
			if len(list) != 2 {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	if got := f.instances(t, f.viewer, "email"); got[0]["id"] != float64(backup) || got[1]["id"] != float64(first) {
		t.Errorf("order after backup's priority -1: %v", got)
	}
}

func TestRoutesWithConditionsAndFailover(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	a := id(t, f.do(t, f.dev, "POST", app+"/channels/email/providerInstances", map[string]any{"providerIdentifier": "smtp", "name": "a", "config": f.smtpConfig(nil)}, 201))
	b := id(t, f.do(t, f.dev, "POST", app+"/channels/email/providerInstances", map[string]any{"providerIdentifier": "smtp", "name": "b", "config": f.smtpConfig(nil)}, 201))
	hook := id(t, f.do(t, f.dev, "POST", app+"/channels/webhook/providerInstances", map[string]any{"providerIdentifier": "webhook",
		"config": map[string]any{"url": "https://hooks.example.com/x", "secret": "0123456789abcdef0123"}}, 201))
	var route int64
	f.run(t, []call{
		{name: "bad route", method: "POST", path: app + "/channels/email/routes", as: f.dev, status: 400,
			body: map[string]any{"providerInstanceIds": []any{"x"}, "conditions": []map[string]any{{"field": "secret.x", "operator": "like"}}},
			msgs: []string{"providerInstanceIds must be an array of ids"}},
		{name: "bad conditions", method: "POST", path: app + "/channels/email/routes", as: f.dev, status: 400,
			body: map[string]any{"name": "eu", "providerInstanceIds": []int64{b, hook}, "conditions": []map[string]any{{"field": "secret.x", "operator": "like"}}},
			msgs: []string{"conditions[0].field must be a path under data, user, category, template (for example data.region)",
				"conditions[0].operator must be one of eq, neq, in, notIn, exists, notExists"}},
		{name: "instance of another channel", method: "POST", path: app + "/channels/email/routes", as: f.dev, status: 400,
			body: map[string]any{"name": "eu", "providerInstanceIds": []int64{b, hook}},
			msgs: []string{fmt.Sprintf("providerInstanceIds: %d is not a provider instance of this app on email", hook)}},
		{name: "create", method: "POST", path: app + "/channels/email/routes", as: f.dev, status: 201,
			body: map[string]any{"name": "eu", "providerInstanceIds": []int64{b, a}, "failover": false,
				"conditions": []map[string]any{{"field": "data.region", "operator": "in", "value": []string{"eu"}}}},
			check: func(t *testing.T, res *stacktest.Response) {
				m := res.Map(t)
				route = int64(m["id"].(float64))
				if m["failover"] != false || fmt.Sprint(m["providerInstanceIds"]) != fmt.Sprintf("[%d %d]", b, a) {
					t.Errorf("%v", m)
				}
			}},
		{name: "same name", method: "POST", path: app + "/channels/email/routes", as: f.dev, status: 409,
			body: map[string]any{"name": "eu", "providerInstanceIds": []int64{a}}},
		{name: "list", method: "GET", path: app + "/channels/email/routes", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"name":"eu"`, `"field":"data.region"`) {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	rp := fmt.Sprintf("/v1/routes/%d", route)
	f.run(t, []call{
		{name: "get", method: "GET", path: rp, as: f.viewer, status: 200},
		{name: "update", method: "PUT", path: rp, as: f.dev, status: 200, body: map[string]any{"failover": true, "providerInstanceIds": []int64{a}},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["failover"] != true || m["name"] != "eu" || fmt.Sprint(m["providerInstanceIds"]) != fmt.Sprintf("[%d]", a) {
					t.Errorf("%v", m)
				}
			}},
		{name: "update to nothing", method: "PUT", path: rp, as: f.dev, status: 400, body: map[string]any{"providerInstanceIds": []int64{}},
			msgs: []string{"providerInstanceIds must contain at least 1 element"}},
		{name: "bad id", method: "GET", path: "/v1/routes/0", as: f.viewer, status: 400, msgs: []string{"routeId must be a positive integer"}},
		{name: "delete", method: "DELETE", path: rp, as: f.dev, status: 200},
		{name: "gone", method: "GET", path: rp, as: f.viewer, status: 404},
	})
}

// instances lists an app's instances on a channel.
func (f *fixture) instances(t *testing.T, as, channel string) []map[string]any {
	t.Helper()
	var out []map[string]any
	f.do(t, as, "GET", f.appPath+"/channels/"+channel+"/providerInstances", nil, 200).JSON(t, &out)
	return out
}

// A provider instance's send rate (config.sendRate, messages per second) is set, answered,
// refused when it is not a positive number (with the provider's own problems), and removed
// with null, through the /v1 API.
func TestProviderInstanceSendRate(t *testing.T) {
	f := newFixture(t)
	instances := f.appPath + "/channels/webhook/providerInstances"
	var id int64
	rate := func(want any) func(t *testing.T, res *stacktest.Response) {
		return func(t *testing.T, res *stacktest.Response) {
			var inst struct {
				ID     int64
				Config map[string]any
			}
			res.JSON(t, &inst)
			id = inst.ID
			if got, ok := inst.Config["sendRate"]; got != want || (want == nil && ok) {
				t.Errorf("config.sendRate %v (present %v), want %v: %s", got, ok, want, res.Body)
			}
		}
	}
	f.run(t, []call{
		{name: "bad rate and bad url", method: "POST", path: instances, as: f.dev, status: 400,
			body: map[string]any{"providerIdentifier": "webhook", "config": map[string]any{"url": "nope", "secret": "0123456789abcdef", "sendRate": -1}},
			msgs: []string{"config.url must be an absolute URL", "config.sendRate must be more than 0 and at most 100000 messages per second"}},
		{name: "rate not a number", method: "POST", path: instances, as: f.dev, status: 400,
			body: map[string]any{"providerIdentifier": "webhook", "config": map[string]any{"url": "https://example.com/hook", "secret": "0123456789abcdef", "sendRate": "fast"}},
			msgs: []string{"config.sendRate must be a number (messages per second)"}},
		{name: "with a rate", method: "POST", path: instances, as: f.dev, status: 201,
			body:  map[string]any{"providerIdentifier": "webhook", "config": map[string]any{"url": "https://example.com/hook", "secret": "0123456789abcdef", "sendRate": 2.5}},
			check: rate(2.5)},
	})
	inst := fmt.Sprintf("%s/%d", instances, id)
	f.run(t, []call{
		{name: "viewer cannot change it", method: "PATCH", path: inst, as: f.viewer, status: 403, body: map[string]any{"config": map[string]any{"sendRate": 1}}},
		{name: "change", method: "PATCH", path: inst, as: f.dev, status: 200, body: map[string]any{"config": map[string]any{"sendRate": 7}}, check: rate(7.0)},
		{name: "kept by other changes", method: "PATCH", path: inst, as: f.dev, status: 200, body: map[string]any{"name": "paced"}, check: rate(7.0)},
		{name: "bad change keeps it", method: "PATCH", path: inst, as: f.dev, status: 400, body: map[string]any{"config": map[string]any{"sendRate": 0}},
			msgs: []string{"config.sendRate must be more than 0 and at most 100000 messages per second"}},
		{name: "read", method: "GET", path: inst, as: f.viewer, status: 200, check: rate(7.0)},
		{name: "removed", method: "PATCH", path: inst, as: f.dev, status: 200, body: map[string]any{"config": map[string]any{"sendRate": nil}}, check: rate(nil)},
	})
}
