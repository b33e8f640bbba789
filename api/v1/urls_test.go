package v1_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// urlRule is the end of every refusal of a script-capable url (internal/platform/safeurl).
const urlRule = " must be an http or https URL, a relative reference or an app link "

// TestScriptURLsAreRefusedOnSave: template contents (main and batching, PUT and PATCH),
// workflow definitions' inline content and the console's test send refuse a url whose
// scheme can run script, naming the field, and store nothing; a url a template writes
// from data is judged per recipient, so saving it passes and the preview shows the
// channel's error; the routes keep their auth and tenancy.
func TestScriptURLsAreRefusedOnSave(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	tpl := id(t, f.do(t, f.dev, "POST", app+"/templates", map[string]any{"identifier": "links", "name": "Links"}, 201))
	tp := fmt.Sprintf("/v1/templates/%d", tpl)
	content := func(fields map[string]string) map[string]any { return map[string]any{"content": fields} }
	unchanged := func(want string) func(t *testing.T, res *stacktest.Response) {
		return func(t *testing.T, res *stacktest.Response) {
			if got := f.do(t, f.viewer, "GET", tp+"/contents/inApp", nil, 200).Map(t)["content"].(map[string]any)["url"]; got != want {
				t.Errorf("stored url %v, want %q", got, want)
			}
		}
	}
	flow := func(url string) map[string]any {
		return map[string]any{"identifier": "nudge", "name": "Nudge", "definition": map[string]any{"steps": []map[string]any{
			{"id": "in", "type": "inApp", "content": map[string]string{"title": "Hi", "url": url}}}}}
	}
	f.run(t, []call{
		{name: "javascript url", method: "PUT", path: tp + "/contents/inApp", as: f.dev, status: 400,
			body: content(map[string]string{"title": "Hi", "url": "javascript:alert(document.cookie)"}),
			msgs: []string{"content.url" + urlRule + "(javascript: is not allowed)"}},
		{name: "nothing stored", method: "GET", path: tp + "/contents/inApp", as: f.viewer, status: 404},
		{name: "every problem at once", method: "PUT", path: tp + "/contents/webPush", as: f.dev, status: 400,
			body: content(map[string]string{"title": "{{#if x}}", "body": "b", "url": " jaVa\tscript:{{data.x}}"}),
			msgs: []string{"content.title: line 1: {{#if}} is not closed (missing {{/if}})", "content.url" + urlRule + "(javascript: is not allowed)"}},
		{name: "data url on mobile push", method: "PUT", path: tp + "/contents/mobilePush", as: f.dev, status: 400,
			body: content(map[string]string{"title": "t", "body": "b", "url": "DATA:text/html,<script>x</script>"}),
			msgs: []string{"content.url" + urlRule + "(data: is not allowed)"}},
		{name: "https url", method: "PUT", path: tp + "/contents/inApp", as: f.dev, status: 200,
			body: content(map[string]string{"title": "Hi", "url": "https://shop.example/orders/{{data.id}}"})},
		{name: "patch to a vbscript url", method: "PATCH", path: tp + "/contents/inApp", as: f.dev, status: 400,
			body: content(map[string]string{"url": "vbscript:msgbox(1)"}), msgs: []string{"content.url" + urlRule + "(vbscript: is not allowed)"},
			check: unchanged("https://shop.example/orders/{{data.id}}")},
		{name: "batching content", method: "PUT", path: tp + "/contents/inApp/batchingContent", as: f.dev, status: 400,
			body: content(map[string]string{"title": "{{batch.count}} new", "url": "java\nscript:alert(1)"}), msgs: []string{"content.url" + urlRule + "(javascript: is not allowed)"}},
		{name: "a url from data is decided per recipient", method: "PATCH", path: tp + "/contents/inApp", as: f.dev, status: 200,
			body: content(map[string]string{"url": "{{data.link}}"}), check: unchanged("{{data.link}}")},
		{name: "preview shows the rendered url's refusal", method: "POST", path: tp + "/preview", as: f.viewer, status: 200,
			body: map[string]any{"data": map[string]any{"link": "javascript:alert(1)"}, "channels": []string{"inApp"}},
			check: func(t *testing.T, res *stacktest.Response) {
				if errs, _ := res.Map(t)["errors"].(map[string]any); !strings.HasPrefix(fmt.Sprint(errs["inApp"]), "inApp.url: the rendered url"+urlRule) {
					t.Errorf("%s", res.Body)
				}
			}},
		{name: "viewer", method: "PUT", path: tp + "/contents/inApp", as: f.viewer, status: 403, body: content(map[string]string{"title": "Hi", "url": "javascript:x"})},
		{name: "no credentials", method: "PUT", path: tp + "/contents/inApp", status: 401, body: content(map[string]string{"title": "Hi", "url": "javascript:x"})},
		{name: "another client's member", method: "PUT", path: tp + "/contents/inApp", as: f.stranger, status: 404, body: content(map[string]string{"title": "Hi", "url": "https://x.example"})},
		{name: "workflow inline content", method: "POST", path: app + "/workflows", as: f.dev, status: 400, body: flow("&#x6A;avascript:alert(1)"),
			msgs: []string{"steps[0].content.url" + urlRule + "(javascript: is not allowed)"}},
		{name: "workflow with an app link", method: "POST", path: app + "/workflows", as: f.dev, status: 201, body: flow("myapp://orders/{{data.id}}")},
		{name: "workflow update", method: "PUT", path: app + "/workflows/nudge", as: f.dev, status: 400, body: flow("file:///etc/passwd"),
			msgs: []string{"steps[0].content.url" + urlRule + "(file: is not allowed)"}},
		{name: "workflow on another client's app", method: "POST", path: f.strangerApp + "/workflows", as: f.dev, status: 404, body: flow("javascript:x")},
		{name: "test send", method: "POST", path: app + "/notifications", as: f.dev, status: 400,
			body: map[string]any{"notification": map[string]any{"title": "Hi", "url": " \tJavaScript:alert(1)"}, "sendTo": map[string]any{"recipients": []string{"ann"}}},
			msgs: []string{"notification.url" + urlRule + "(javascript: is not allowed)"}},
	})
	var n int
	if err := f.Stack.DB.Pool.QueryRow(t.Context(), "SELECT count(*) FROM notification_requests").Scan(&n); err != nil || n != 0 {
		t.Errorf("refused test send stored %d requests (%v)", n, err)
	}
}
