package v1_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestTemplatePreviewOfUnsavedContents: contents in the preview request replace the stored
// contents of the channels they name (the console previews what is being typed), with the
// named layout or the default; a field that does not parse is that channel's error; shape
// problems are one 400 listing each; auth and tenancy are those of the preview route; and
// nothing is saved.
func TestTemplatePreviewOfUnsavedContents(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": `<main>{{{content}}}</main><a href="{{unsubscribeUrl}}">Unsubscribe</a>`}, 201)
	tpl := int64(must(t, f.Do("POST", app+"/templates", map[string]any{"identifier": "welcome", "name": "Welcome"}, bearer(f.dev)), 201, "template").Map(t)["id"].(float64))
	tp := fmt.Sprintf("/v1/templates/%d", tpl)
	f.do(t, f.dev, "PUT", tp+"/contents/inApp", map[string]any{"content": map[string]string{"title": "Saved {{data.a}}"}}, 200)

	type result struct {
		Channels map[string]map[string]string
		Errors   map[string]string
		Warnings []warning
	}
	preview := func(body map[string]any) (int, result, string) {
		res := f.Do("POST", tp+"/preview", body, bearer(f.viewer))
		var r result
		if res.Status == 200 {
			res.JSON(t, &r)
		}
		return res.Status, r, string(res.Body)
	}
	status, r, body := preview(map[string]any{"data": map[string]any{"a": "A"}, "contents": map[string]any{
		"sms":   map[string]any{"content": map[string]string{"body": "Hi {{user.profile.firstName}} {{data.a}}"}},
		"email": map[string]any{"layoutIdentifier": "brand", "content": map[string]string{"subject": "S {{data.a}}", "html": `<p>{{data.a}}</p><a href="{{preferencesUrl}}">Preferences</a>`}},
		"slack": map[string]any{"content": map[string]string{"body": "{{#if}}"}},
		"inApp": map[string]any{"content": map[string]string{"title": ""}},
	}})
	if status != 200 {
		t.Fatalf("preview: %d %s", status, body)
	}
	if got := r.Channels["sms"]["body"]; got != "Hi  A" {
		t.Errorf("sms body %q", got)
	}
	if got := r.Channels["email"]["html"]; !strings.Contains(got, "<main><p>A</p>") {
		t.Errorf("email html is not in the named layout: %q", got)
	}
	// The layout and the content place the links; the preview shows sample ones.
	if got := r.Channels["email"]["html"]; !strings.Contains(got, `<a href="https://herald.example.com/unsubscribe/preview-sample-token">Unsubscribe</a>`) ||
		!strings.Contains(got, `<a href="https://herald.example.com/preferences/preview-sample-token">Preferences</a>`) {
		t.Errorf("the preview shows no sample unsubscribe and preference links: %q", got)
	}
	if _, ok := r.Channels["inApp"]; ok {
		t.Errorf("emptied in-app content still previews: %v", r.Channels["inApp"])
	}
	if !strings.Contains(r.Errors["slack"], "slack.body") {
		t.Errorf("the unparsable slack body is not its error: %v", r.Errors)
	}
	if !slices.ContainsFunc(r.Warnings, func(w warning) bool { return w.Channel == "sms" && w.Variable == "user.profile.firstName" }) {
		t.Errorf("no warning for the unsaved sms body: %+v", r.Warnings)
	}

	// Without contents the stored content is previewed: nothing was saved.
	if _, r, _ := preview(map[string]any{"data": map[string]any{"a": "A"}}); r.Channels["inApp"]["title"] != "Saved A" || len(r.Channels) != 1 {
		t.Errorf("stored contents changed: %v", r.Channels)
	}

	// Shape problems: one 400 listing each.
	res := f.Do("POST", tp+"/preview", map[string]any{"contents": map[string]any{
		"fax":     map[string]any{"content": map[string]string{"body": "x"}},
		"sms":     map[string]any{"content": map[string]any{"subject": "x", "body": 3}, "layoutIdentifier": "brand"},
		"email":   map[string]any{"content": map[string]string{"html": "x"}, "layoutIdentifier": "nope"},
		"webPush": "x",
	}}, bearer(f.viewer))
	if res.Status != 400 {
		t.Fatalf("bad contents: %d %s", res.Status, res.Body)
	}
	for _, want := range []string{"contents.fax is not a channel",
		"contents.sms.content.subject is not a field of sms content",
		"contents.sms.content.body must be a string",
		"contents.sms.layoutIdentifier applies to email content only",
		`contents.email.layoutIdentifier \"nope\" is not a layout of this app`,
		"contents.webPush must be an object"} {
		if !strings.Contains(string(res.Body), want) {
			t.Errorf("the 400 does not say %q: %s", want, res.Body)
		}
	}

	edit := map[string]any{"contents": map[string]any{"sms": map[string]any{"content": map[string]string{"body": "x"}}}}
	if res := f.Do("POST", tp+"/preview", edit, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
	if res := f.Do("POST", tp+"/preview", edit, bearer(f.stranger)); res.Status != 404 {
		t.Errorf("another client's member: %d %s", res.Status, res.Body)
	}
}
