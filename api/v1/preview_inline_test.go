package v1_test

import (
	"slices"
	"strings"
	"testing"
)

// TestContentPreviewOfInlineContent: POST /v1/apps/{appId}/content-preview renders content
// that belongs to no template (a workflow step's inline content, as the designer edits it)
// with the preview route's body and answer: the named layout or the app's default, the
// missing variables warned; shape problems are one 400 listing each; content is required;
// any member may preview; another client's app is a 404.
func TestContentPreviewOfInlineContent(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": `<main>{{{content}}}</main>`}, 201)

	type result struct {
		Channels map[string]map[string]string
		Errors   map[string]string
		Warnings []warning
	}
	var r result
	body := map[string]any{"data": map[string]any{"n": 3}, "user": map[string]any{"identifier": "ann"}, "channels": []string{"email"}, "contents": map[string]any{
		"email": map[string]any{"layoutIdentifier": "brand", "content": map[string]string{"subject": "Hi {{user.identifier}}", "html": "<p>{{data.n}} {{data.missing}}</p>"}},
	}}
	must(t, f.Do("POST", app+"/content-preview", body, bearer(f.viewer)), 200, "preview").JSON(t, &r)
	if got := r.Channels["email"]; got["subject"] != "Hi ann" || !strings.Contains(got["html"], "<main><p>3 </p></main>") {
		t.Errorf("inline email: %v", got)
	}
	if !slices.ContainsFunc(r.Warnings, func(w warning) bool { return w.Channel == "email" && w.Variable == "data.missing" }) {
		t.Errorf("no warning for data.missing: %+v", r.Warnings)
	}
	sms := map[string]any{"contents": map[string]any{"sms": map[string]any{"content": map[string]string{"body": "{{#if}}"}}}}
	must(t, f.Do("POST", app+"/content-preview", sms, bearer(f.viewer)), 200, "broken preview").JSON(t, &r)
	if !strings.Contains(r.Errors["sms"], "sms.body") {
		t.Errorf("the unparsable body is not the channel's error: %v", r.Errors)
	}

	res := f.Do("POST", app+"/content-preview", map[string]any{"data": 3, "contents": map[string]any{
		"fax":   map[string]any{"content": map[string]string{"body": "x"}},
		"email": map[string]any{"content": map[string]string{"html": "x"}, "layoutIdentifier": "nope"},
	}}, bearer(f.viewer))
	if res.Status != 400 {
		t.Fatalf("bad contents: %d %s", res.Status, res.Body)
	}
	for _, want := range []string{"data must be an object", "contents.fax is not a channel", `contents.email.layoutIdentifier \"nope\" is not a layout of this app`} {
		if !strings.Contains(string(res.Body), want) {
			t.Errorf("the 400 does not say %q: %s", want, res.Body)
		}
	}
	if res := f.Do("POST", app+"/content-preview", map[string]any{"data": map[string]any{}}, bearer(f.viewer)); res.Status != 400 || !strings.Contains(string(res.Body), "contents must name at least one channel") {
		t.Errorf("no contents: %d %s", res.Status, res.Body)
	}

	if res := f.Do("POST", app+"/content-preview", sms, nil); res.Status != 401 {
		t.Errorf("no token: %d", res.Status)
	}
	if res := f.Do("POST", app+"/content-preview", sms, bearer(f.stranger)); res.Status != 404 {
		t.Errorf("another client's member: %d %s", res.Status, res.Body)
	}
	if res := f.Do("POST", f.strangerApp+"/content-preview", sms, bearer(f.dev)); res.Status != 404 {
		t.Errorf("another client's app: %d %s", res.Status, res.Body)
	}
}
