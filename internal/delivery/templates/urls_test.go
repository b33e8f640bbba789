package templates

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
)

func TestContentURLsAreCheckedOnSave(t *testing.T) {
	const tail = " must be an http or https URL, a relative reference or an app link "
	for _, tc := range []struct {
		channel, url string
		want         []string
	}{
		{"inApp", "javascript:alert(1)", []string{"content.url" + tail + "(javascript: is not allowed)"}},
		{"inApp", " jaVa\tscript:{{data.x}}", []string{"content.url" + tail + "(javascript: is not allowed)"}},
		{"webPush", "data:text/html,{{data.x}}", []string{"content.url" + tail + "(data: is not allowed)"}},
		{"mobilePush", "java{{! a comment }}script:x", []string{"content.url" + tail + "(javascript: is not allowed)"}},
		{"webhook", "&#x6A;avascript:x", []string{"content.url" + tail + "(javascript: is not allowed)"}},
		{"inApp", "https://x.example/{{data.id}}", nil},
		{"inApp", "{{data.link}}", nil}, // decided when rendered
		{"mobilePush", "myapp://orders/{{data.id}}", nil},
		{"inApp", "/orders/{{data.id}}", nil},
	} {
		body, _ := json.Marshal(map[string]string{"title": "t", "body": "b", "url": tc.url})
		if tc.channel == "inApp" {
			body, _ = json.Marshal(map[string]string{"title": "t", "url": tc.url})
		}
		if got := CheckContent(tc.channel, body); !reflect.DeepEqual([]string(got), tc.want) {
			t.Errorf("%s %q: %q, want %q", tc.channel, tc.url, got, tc.want)
		}
	}
}

func TestRenderedURLsAreChecked(t *testing.T) {
	s, app, _ := setup(t)
	ctx := context.Background()
	b, err := s.InlineBundle(ctx, app, `step "in"`, "inApp", json.RawMessage(`{"title":"Hi","url":"{{data.link}}"}`), "")
	if err != nil {
		t.Fatal(err)
	}
	data := func(link string) map[string]any { return map[string]any{"data": map[string]any{"link": link}} }
	for _, bad := range []string{"javascript:alert(1)", "JAVA\nSCRIPT:alert(1)", "\x01data:text/html,x", "vbscript:x"} {
		r, err := b.Render(ctx, "inApp", data(bad))
		if err == nil || !strings.HasPrefix(err.Error(), "inApp.url: the rendered url must ") || r.URL != "" {
			t.Errorf("%q: %+v %v", bad, r, err)
		}
		if strings.Contains(err.Error(), "alert") {
			t.Errorf("the error repeats the url: %v", err)
		}
	}
	if r, err := b.Render(ctx, "inApp", data("https://ok.example/x")); err != nil || r.URL != "https://ok.example/x" {
		t.Errorf("https: %+v %v", r, err)
	}
	// A send without a template: its own url is checked too (an outbox row from before the
	// send check, or one written by hand).
	nb, err := s.Bundle(ctx, app, "", herald.Content{Title: "t", URL: "javascript:alert(1)"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Render(ctx, "inApp", nil); err == nil {
		t.Error("a notification's own javascript: url rendered")
	}
	if _, err := nb.Render(ctx, "email", nil); err != nil {
		t.Errorf("email has no url: %v", err)
	}
}
