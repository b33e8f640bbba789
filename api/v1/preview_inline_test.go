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

// TestWorkflowInlineContentCheckedAtSave: a workflow's inline step content is checked on save
// with the rules of template contents, every problem named by step and field, and an inline
// email step's layout must be one of the app's (another client's is not); nothing is stored
// when any is wrong.
func TestWorkflowInlineContentCheckedAtSave(t *testing.T) {
	f := newFixture(t)
	app := f.appPath
	f.do(t, f.dev, "POST", app+"/layouts", map[string]any{"identifier": "brand", "html": `<main>{{{content}}}</main>`}, 201)
	f.do(t, f.stranger, "POST", f.strangerApp+"/layouts", map[string]any{"identifier": "theirs", "html": `<main>{{{content}}}</main>`}, 201)
	flow := func(steps ...map[string]any) map[string]any {
		return map[string]any{"identifier": "receipt", "name": "Receipt", "definition": map[string]any{"steps": steps}}
	}
	res := f.Do("POST", app+"/workflows", flow(
		map[string]any{"id": "note", "type": "inApp", "content": map[string]string{"message": "{{#if x}}", "colour": "red"}, "next": "mail"},
		map[string]any{"id": "mail", "type": "email", "content": map[string]string{"html": "<p>x</p>"}, "layout": "theirs", "next": "sms"},
		map[string]any{"id": "sms", "type": "sms", "content": map[string]string{"body": "hi"}, "layout": "brand"},
	), bearer(f.dev))
	if res.Status != 400 {
		t.Fatalf("bad content: %d %s", res.Status, res.Body)
	}
	var got struct{ Message []string }
	res.JSON(t, &got)
	want := []string{
		"steps[0].content.colour is not a field of inApp content (fields: title, message, icon, url, blocks)",
		"steps[0].content.message: line 1: {{#if}} is not closed (missing {{/if}})",
		"steps[0]: inApp content needs title",
		`steps[1].layout: no layout "theirs" in this app`,
		"steps[1].content.subject should not be empty",
		"steps[2].layout applies to email steps with inline content only",
	}
	if !slices.Equal(got.Message, want) {
		t.Errorf("\n got %q\nwant %q", got.Message, want)
	}
	f.do(t, f.viewer, "GET", app+"/workflows/receipt", nil, 404)

	f.do(t, f.dev, "POST", app+"/workflows", flow(
		map[string]any{"id": "mail", "type": "email", "content": map[string]string{"subject": "Hi", "html": "<p>x</p>"}, "layout": "brand"},
	), 201)
}
