package v1_test

import (
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestTemplateRoutes(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": "<main>{{app.name}}: {{{content}}}</main>", "text": "{{{content}}} -- {{app.name}}"}, 201)
	f.do(t, f.dev, "POST", app+"/translations", map[string]any{"locale": "fr", "entries": map[string]string{"hello": "Bonjour {{user.profile.name}}"}}, 201)
	f.do(t, f.dev, "POST", app+"/translations", map[string]any{"locale": "en", "default": true, "entries": map[string]string{"hello": "Hello {{user.profile.name}}"}}, 201)
	var tplID int64
	f.run(t, []call{
		{name: "wrong types are reported first", method: "POST", path: app + "/templates", as: f.dev, status: 400, body: map[string]any{"identifier": "bad id", "description": 3},
			msgs: []string{"description must be a string"}},
		{name: "create bad identifier", method: "POST", path: app + "/templates", as: f.dev, status: 400, body: map[string]any{"identifier": "bad id"},
			msgs: []string{"identifier may contain only letters, digits, '_', '.' and '-'"}},
		{name: "create without identifier", method: "POST", path: app + "/templates", as: f.dev, status: 400, body: map[string]any{},
			msgs: []string{"identifier should not be empty"}},
		{name: "not an object", method: "POST", path: app + "/templates", as: f.dev, status: 400, body: `[1]`, msgs: []string{"body must be a JSON object"}},
		{name: "create", method: "POST", path: app + "/templates", as: f.dev, status: 201, body: map[string]any{"identifier": "order-shipped", "name": "Order shipped"},
			check: func(t *testing.T, res *stacktest.Response) {
				m := res.Map(t)
				tplID = int64(m["id"].(float64))
				if m["identifier"] != "order-shipped" || len(m["contents"].([]any)) != 0 || len(m["contentStates"].([]any)) != 0 {
					t.Errorf("%v", m)
				}
			}},
		{name: "same identifier", method: "POST", path: app + "/templates", as: f.dev, status: 409, body: map[string]any{"identifier": "order-shipped"}},
	})
	tp := fmt.Sprintf("/v1/templates/%d", tplID)
	f.run(t, []call{
		{name: "rename", method: "PUT", path: tp, as: f.dev, status: 200, body: map[string]any{"name": "Shipped", "description": "sent when an order leaves"},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["name"] != "Shipped" || m["description"] != "sent when an order leaves" {
					t.Errorf("%v", m)
				}
			}},
		{name: "identifier is fixed", method: "PUT", path: tp, as: f.dev, status: 400, body: map[string]any{"identifier": "other"},
			msgs: []string{"identifier cannot change (duplicate the template instead)"}},
		{name: "bad content", method: "PUT", path: tp + "/contents/email", as: f.dev, status: 400,
			body: map[string]any{"content": map[string]any{"subject": "{{#if x}}", "html": 1, "body": "x"}, "layoutIdentifier": "nope"},
			msgs: []string{"content.body is not a field of email content (fields: subject, html, text)", "content.html must be a string",
				"content.subject: line 1: {{#if}} is not closed (missing {{/if}})", "email content needs html or text", "content.subject should not be empty",
				`layoutIdentifier "nope" is not a layout of this app`}},
		{name: "content missing", method: "PUT", path: tp + "/contents/email", as: f.dev, status: 400, body: map[string]any{}, msgs: []string{"content should not be empty"}},
		{name: "bad channel", method: "PUT", path: tp + "/contents/pager", as: f.dev, status: 400, body: map[string]any{"content": map[string]string{}},
			msgs: []string{"channel must be one of inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"}},
		{name: "email content", method: "PUT", path: tp + "/contents/email", as: f.dev, status: 200,
			body: map[string]any{"content": map[string]string{"subject": "Order #{{data.id}}", "html": "<p>{{t \"hello\"}}</p>", "text": "{{t \"hello\"}}"}, "layoutIdentifier": "brand"},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["layoutIdentifier"] != "brand" || m["batchingContent"] != nil {
					t.Errorf("%v", m)
				}
			}},
		{name: "in-app content", method: "PUT", path: tp + "/contents/inApp", as: f.dev, status: 200, body: map[string]any{"content": map[string]string{"title": "Shipped #{{data.id}}", "message": "On its way"}}},
		{name: "sms content", method: "PUT", path: tp + "/contents/sms", as: f.dev, status: 200, body: map[string]any{"content": map[string]string{"body": "Shipped {{data.id}}"}}},
		{name: "patch", method: "PATCH", path: tp + "/contents/inApp", as: f.dev, status: 200, body: map[string]any{"content": map[string]any{"message": nil, "url": "/orders/{{data.id}}"}},
			check: func(t *testing.T, res *stacktest.Response) {
				c := res.Map(t)["content"].(map[string]any)
				if c["title"] != "Shipped #{{data.id}}" || c["message"] != nil || c["url"] != "/orders/{{data.id}}" {
					t.Errorf("%v", c)
				}
			}},
		{name: "patch into an invalid content", method: "PATCH", path: tp + "/contents/inApp", as: f.dev, status: 400, body: map[string]any{"content": map[string]any{"title": nil}},
			msgs: []string{"inApp content needs title"}},
		{name: "patch a missing content", method: "PATCH", path: tp + "/contents/slack", as: f.dev, status: 404, body: map[string]any{"content": map[string]any{"body": "x"}}},
		{name: "get content", method: "GET", path: tp + "/contents/sms", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if res.Map(t)["content"].(map[string]any)["body"] != "Shipped {{data.id}}" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "order", method: "POST", path: tp + "/contents/order", as: f.dev, status: 200, body: map[string]any{"channels": []string{"sms", "email"}},
			check: func(t *testing.T, res *stacktest.Response) {
				var list []struct {
					Channel  string
					Position int
				}
				res.JSON(t, &list)
				if len(list) != 3 || list[0].Channel != "sms" || list[1].Channel != "email" || list[2].Channel != "inApp" || list[2].Position != 2 {
					t.Errorf("%+v", list)
				}
			}},
		{name: "bad order", method: "POST", path: tp + "/contents/order", as: f.dev, status: 400, body: map[string]any{"channels": []string{"sms", "slack", "sms", "fax"}},
			msgs: []string{"channels[1]: the template has no slack content", "channels must not repeat sms",
				"channels[3] must be one of inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook"}},
		{name: "order without channels", method: "POST", path: tp + "/contents/order", as: f.dev, status: 400, body: map[string]any{}, msgs: []string{"channels should not be empty"}},
		{name: "email file", method: "GET", path: tp + "/contents/email/content.html", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["content"] != `<p>{{t "hello"}}</p>` || m["contentType"] != "text/html; charset=utf-8" {
				t.Errorf("%v", m)
			}
		}},
		{name: "layout file", method: "GET", path: tp + "/contents/email/layout.txt", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if m := res.Map(t); m["content"] != "{{{content}}} -- {{app.name}}" {
				t.Errorf("%v", m)
			}
		}},
		{name: "unknown file", method: "GET", path: tp + "/contents/email/index.php", as: f.viewer, status: 404},
		{name: "batching before content", method: "PUT", path: tp + "/contents/webhook/batchingContent", as: f.dev, status: 409, body: map[string]any{"content": map[string]string{"title": "x"}}},
		{name: "bad batching", method: "PUT", path: tp + "/contents/sms/batchingContent", as: f.dev, status: 400, body: map[string]any{"content": map[string]string{"title": "x"}},
			msgs: []string{"content.title is not a field of sms content (fields: body)", "sms content needs body"}},
		{name: "batching", method: "PUT", path: tp + "/contents/sms/batchingContent", as: f.dev, status: 200,
			body: map[string]any{"content": map[string]string{"body": "{{batch.count}} orders shipped"}}, check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["batchingContent"].(map[string]any)["body"] != "{{batch.count}} orders shipped" || m["content"].(map[string]any)["body"] != "Shipped {{data.id}}" {
					t.Errorf("%v", m)
				}
			}},
		{name: "state", method: "POST", path: tp + "/notification-content-state", as: f.dev, status: 201, body: map[string]any{"state": "accepted", "label": "Accept"},
			check: func(t *testing.T, res *stacktest.Response) {
				if m := res.Map(t); m["state"] != "accepted" || m["label"] != "Accept" || m["templateId"] != float64(tplID) {
					t.Errorf("%v", m)
				}
			}},
		{name: "bad state", method: "POST", path: tp + "/notification-content-state", as: f.dev, status: 400,
			body: map[string]any{"state": string(make([]byte, 65))}, msgs: []string{"state must be at most 64 characters"}},
		{name: "empty state", method: "POST", path: tp + "/notification-content-state", as: f.dev, status: 400, body: map[string]any{"state": 4},
			msgs: []string{"state must be a string"}},
		{name: "preview", method: "POST", path: tp + "/preview", as: f.viewer, status: 200,
			body: map[string]any{"data": map[string]any{"id": 7}, "user": map[string]any{"identifier": "zoe", "profile": map[string]any{"name": "Zoë", "locale": "fr-CA"}}},
			check: func(t *testing.T, res *stacktest.Response) {
				var p struct {
					Channels map[string]map[string]string
					Errors   map[string]string
					Warnings []any
				}
				res.JSON(t, &p)
				if p.Warnings == nil || len(p.Warnings) != 0 {
					t.Errorf("complete data must give an empty warnings list: %s", res.Body)
				}
				e := p.Channels["email"]
				if e["subject"] != "Order #7" || e["html"] != "<main>Development: <p>Bonjour Zoë</p></main>" || e["text"] != "Bonjour Zoë -- Development" ||
					p.Channels["inApp"]["title"] != "Shipped #7" || p.Channels["inApp"]["url"] != "/orders/7" || p.Channels["sms"]["body"] != "Shipped 7" || len(p.Errors) != 0 {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "preview a digest", method: "POST", path: tp + "/preview", as: f.viewer, status: 200,
			body: map[string]any{"channels": []string{"sms"}, "batch": map[string]any{"count": 3, "items": []any{}}},
			check: func(t *testing.T, res *stacktest.Response) {
				if !contains(string(res.Body), `"channels":{"sms":{"body":"3 orders shipped"}}`) {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "bad preview", method: "POST", path: tp + "/preview", as: f.viewer, status: 400, body: map[string]any{"channels": []string{"fax"}, "data": []int{1}},
			msgs: []string{"channels[0] must be one of inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook", "data must be an object"}},
		{name: "duplicate", method: "PUT", path: tp + "/duplicate", as: f.dev, status: 201, body: map[string]any{"identifier": "order-shipped-v2"},
			check: func(t *testing.T, res *stacktest.Response) {
				var d struct {
					Name     string
					Contents []struct {
						Channel          string
						LayoutIdentifier string
						BatchingContent  map[string]string
					}
					ContentStates []struct{ State string }
				}
				res.JSON(t, &d)
				if d.Name != "Shipped (copy)" || len(d.Contents) != 3 || d.Contents[1].LayoutIdentifier != "brand" || d.Contents[0].BatchingContent["body"] == "" ||
					len(d.ContentStates) != 1 || d.ContentStates[0].State != "accepted" {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "duplicate onto a used identifier", method: "PUT", path: tp + "/duplicate", as: f.dev, status: 409, body: map[string]any{"identifier": "order-shipped-v2"}},
		{name: "list", method: "GET", path: app + "/templates", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"identifier":"order-shipped"`, `"identifier":"order-shipped-v2"`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "delete content", method: "DELETE", path: tp + "/contents/sms", as: f.dev, status: 200},
		{name: "deleted content", method: "GET", path: tp + "/contents/sms", as: f.viewer, status: 404},
		{name: "delete", method: "DELETE", path: tp, as: f.dev, status: 200},
		{name: "deleted", method: "GET", path: tp, as: f.viewer, status: 404},
		{name: "template id", method: "GET", path: "/v1/templates/x", as: f.viewer, status: 400, msgs: []string{"templateId must be a positive integer"}},
	})
}

func TestLayoutsTranslationsAndInAppStrings(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	var brand int64
	f.run(t, []call{
		{name: "bad layout", method: "POST", path: app + "/layouts", as: f.dev, status: 400, body: map[string]any{"identifier": "x", "html": "<p>no slot</p>", "default": "yes"},
			msgs: []string{"default must be a boolean"}},
		{name: "layout without slot", method: "POST", path: app + "/layouts", as: f.dev, status: 400, body: map[string]any{"identifier": "x", "html": "<p>no slot</p>"},
			msgs: []string{"html must contain {{{content}}} where the email body goes"}},
		{name: "layout", method: "POST", path: app + "/layouts", as: f.dev, status: 201, body: map[string]any{"identifier": "brand", "html": "<b>{{{content}}}</b>", "default": true},
			check: func(t *testing.T, res *stacktest.Response) {
				m := res.Map(t)
				brand = int64(m["id"].(float64))
				if m["default"] != true || m["published"] != false {
					t.Errorf("%v", m)
				}
			}},
		{name: "second layout", method: "POST", path: app + "/layouts", as: f.dev, status: 201, body: map[string]any{"identifier": "plain", "html": "{{{content}}}"}},
		{name: "default", method: "GET", path: app + "/layouts/default", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if res.Map(t)["identifier"] != "brand" {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "bad filter", method: "GET", path: app + "/layouts?published=maybe", as: f.viewer, status: 400, msgs: []string{"published must be true or false"}},
		{name: "commit", method: "POST", path: app + "/commits", as: f.dev, status: 201, body: map[string]any{"message": "layouts"}},
	})
	f.do(t, f.dev, "PUT", fmt.Sprintf("%s/layouts/%d", app, brand), map[string]any{"html": "<i>{{{content}}}</i>"}, 200)
	layouts := func(q string) (ids []string) {
		var list []struct {
			Identifier string
			Published  bool
		}
		f.do(t, f.viewer, "GET", app+"/layouts"+q, nil, 200).JSON(t, &list)
		for _, l := range list {
			ids = append(ids, fmt.Sprintf("%s:%v", l.Identifier, l.Published))
		}
		return ids
	}
	if got := fmt.Sprint(layouts("")); got != "[brand:false plain:true]" {
		t.Errorf("all layouts %s", got)
	}
	if got := fmt.Sprint(layouts("?published=true")); got != "[plain:true]" {
		t.Errorf("published layouts %s", got)
	}
	if got := fmt.Sprint(layouts("?published=false")); got != "[brand:false]" {
		t.Errorf("unpublished layouts %s", got)
	}
	f.run(t, []call{
		{name: "update missing layout", method: "PUT", path: app + "/layouts/999999", as: f.dev, status: 404, body: map[string]any{"html": "{{{content}}}"}},
		{name: "delete layout", method: "DELETE", path: fmt.Sprintf("%s/layouts/%d", app, brand), as: f.dev, status: 200},
		{name: "no default left", method: "GET", path: app + "/layouts/default", as: f.viewer, status: 404},
		{name: "email layouts", method: "GET", path: fmt.Sprintf("/v1/clients/%d/email-layouts", f.client), as: f.viewer, status: 200,
			check: func(t *testing.T, res *stacktest.Response) {
				var list []struct {
					Identifier string
					Starter    bool
					AppID      int64
				}
				res.JSON(t, &list)
				if len(list) != 3 || !list[0].Starter || list[2].Identifier != "plain" || list[2].AppID != f.appID {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "bad translation", method: "POST", path: app + "/translations", as: f.dev, status: 400, body: map[string]any{"locale": "english", "entries": map[string]any{"a": 1}},
			msgs: []string{"locale must be a language tag such as en or pt-BR", "entries.a must be a string"}},
		{name: "translation without locale", method: "POST", path: app + "/translations", as: f.dev, status: 400, body: map[string]any{"entries": map[string]any{}},
			msgs: []string{"locale should not be empty"}},
		{name: "en", method: "POST", path: app + "/translations", as: f.dev, status: 201,
			body: map[string]any{"locale": "en", "default": true, "entries": map[string]string{"inapp.title": "Inbox", "hello": "Hello"}}},
		{name: "fr", method: "POST", path: app + "/translations", as: f.dev, status: 201,
			body: map[string]any{"locale": "fr", "entries": map[string]string{"inapp.title": "Boîte de réception", "inapp.markAllAsRead": "Tout marquer comme lu"}}},
		{name: "pt-BR", method: "POST", path: app + "/translations", as: f.dev, status: 201,
			body: map[string]any{"locale": "pt-BR", "entries": map[string]string{"inapp.title": "Caixa de entrada"}}},
		{name: "page", method: "GET", path: app + "/translations?page=2&limit=2", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if !contains(string(res.Body), `"pagination":{"totalCount":3,"page":2,"limit":2}`, `"locale":"pt-BR"`) {
				t.Errorf("%s", res.Body)
			}
		}},
		{name: "bad page", method: "GET", path: app + "/translations?page=0&limit=101", as: f.viewer, status: 400,
			msgs: []string{"page must not be less than 1", "limit must not be greater than 100"}},
		{name: "default translation", method: "GET", path: app + "/translations/default", as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if res.Map(t)["locale"] != "en" {
				t.Errorf("%s", res.Body)
			}
		}},
	})

	// The inbox UI strings, with user credentials of the app.
	key := f.appEnt["apiKey"].(string)
	user := func(id string) stacktest.Headers {
		return stacktest.Headers{f.Cfg.HeaderPrefix + "API-KEY": key, f.Cfg.HeaderPrefix + "USER-ID": id}
	}
	appCreds := stacktest.Headers{f.Cfg.HeaderPrefix + "API-KEY": key, f.Cfg.HeaderPrefix + "API-SECRET": f.appEnt["apiSecret"].(string)}
	must(t, f.Do("PUT", "/v3/users/ana", map[string]string{"locale": "fr-FR"}, appCreds), 200, "user with a locale")
	strings := func(h stacktest.Headers, q string) map[string]any {
		return must(t, f.Do("GET", "/v3/translations/inapp"+q, nil, h), 200, "inapp").Map(t)
	}
	fr := strings(user("ana"), "")
	tr := fr["translations"].(map[string]any)
	if fr["locale"] != "fr" || tr["title"] != "Boîte de réception" || tr["markAllAsRead"] != "Tout marquer comme lu" || tr["empty"] != "No notifications yet" || tr["hello"] != nil {
		t.Errorf("fr-FR user: %v", fr)
	}
	pt := strings(user("bob"), "?locale=pt-BR")
	if pt["locale"] != "pt-BR" || pt["translations"].(map[string]any)["title"] != "Caixa de entrada" {
		t.Errorf("pt-BR: %v", pt)
	}
	if de := strings(user("bob"), ""); de["locale"] != "en" || de["translations"].(map[string]any)["title"] != "Inbox" {
		t.Errorf("no locale falls back to the default translation: %v", de)
	}
	if res := f.Do("GET", "/v3/translations/inapp?locale=xx_1", nil, user("bob")); res.Status != 400 {
		t.Errorf("bad locale: %d", res.Status)
	}
	if res := f.Do("GET", "/v3/translations/inapp", nil, stacktest.Headers{f.Cfg.HeaderPrefix + "API-KEY": key}); res.Status != 401 {
		t.Errorf("no user: %d", res.Status)
	}
}
