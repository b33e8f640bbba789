package v1_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestPublishRefusesADraftThatDoesNotCompile: a draft saved while its template and layout
// existed, both deleted since, is refused at publish (400, every problem listed), nothing is
// published (a send naming the workflow still finds no published version), and it publishes
// once the draft compiles again.
func TestPublishRefusesADraftThatDoesNotCompile(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	tpl := id(t, f.do(t, f.dev, "POST", app+"/templates", map[string]any{"identifier": "welcome"}, 201))
	layout := id(t, f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": "<div>{{{content}}}</div>"}, 201))
	def := map[string]any{"steps": []map[string]any{
		{"id": "a", "type": "email", "template": "welcome", "next": "b"},
		{"id": "b", "type": "email", "content": map[string]string{"subject": "Hi", "text": "Hello"}, "layout": "brand"},
	}}
	f.do(t, f.dev, "POST", app+"/workflows", map[string]any{"identifier": "onboarding", "name": "Onboarding", "definition": def}, 201)
	f.do(t, f.dev, "DELETE", fmt.Sprintf("/v1/templates/%d", tpl), nil, 200)
	f.do(t, f.dev, "DELETE", fmt.Sprintf("%s/layouts/%d", app, layout), nil, 200)
	wf := app + "/workflows/onboarding"
	send := map[string]any{"notification": map[string]any{"workflow": map[string]string{"identifier": "onboarding"}}, "sendTo": map[string]any{"recipients": []string{"ann"}}}
	f.run(t, []call{
		{name: "refused with every problem", method: "POST", path: wf + "/publish", as: f.dev, status: 400, msgs: []string{
			`steps[0].template: no template "welcome" in this app`,
			`steps[1].layout: no layout "brand" in this app`,
		}},
		{name: "nothing published", method: "GET", path: wf, as: f.viewer, status: 200, check: func(t *testing.T, res *stacktest.Response) {
			if v := res.Map(t)["publishedVersion"]; v != nil {
				t.Errorf("publishedVersion = %v after a refused publish", v)
			}
		}},
		{name: "a send still finds no version", method: "POST", path: app + "/notifications", as: f.dev, body: send, status: 422, check: func(t *testing.T, res *stacktest.Response) {
			if !strings.Contains(string(res.Body), `has no published version`) {
				t.Errorf("%s", res.Body)
			}
		}},
	})
	f.do(t, f.dev, "POST", app+"/templates", map[string]any{"identifier": "welcome"}, 201)
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": "<div>{{{content}}}</div>"}, 201)
	f.do(t, f.dev, "POST", wf+"/publish", nil, 200)
}
