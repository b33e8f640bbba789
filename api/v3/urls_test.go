package v3_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestSendRefusesScriptURLs: POST /v3/notifications answers 400 for a notification.url or
// a link in blocks whose scheme can run script, in every spelling a browser reads as that
// scheme, naming each field; nothing is stored; http(s), relative and app links pass.
func TestSendRefusesScriptURLs(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{})
	const rule = " must be an http or https URL, a relative reference or an app link "
	for _, u := range []string{
		"javascript:alert(1)", "JAVASCRIPT:alert(1)", " jaVa\tscript:alert(1)", "java\nscript:alert(1)",
		"\u0001javascript:alert(1)", "&#x6A;avascript:alert(1)", "vbscript:msgbox(1)", "data:text/html,<script>alert(1)</script>",
		"file:///etc/passwd", "blob:https://x.example/1",
	} {
		body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "Hi", "url": u}, "sendTo": map[string]any{"recipients": []string{"ann"}}})
		res := e.Do("POST", "/v3/notifications", string(body), e.AppHeaders())
		if res.Status != 400 {
			t.Errorf("%q: status %d", u, res.Status)
			continue
		}
		var out struct{ Message []string }
		res.JSON(t, &out)
		if len(out.Message) != 1 || (out.Message[0] != "notification.url must not contain control characters" &&
			(len(out.Message[0]) < len("notification.url"+rule) || out.Message[0][:len("notification.url"+rule)] != "notification.url"+rule)) {
			t.Errorf("%q: %q", u, out.Message)
		}
	}
	res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Hi","url":"javascript:void(0)","blocks":[{"type":"button","url":"data:,x"},{"cta":{"href":"vbscript:x"}}]},"sendTo":{"recipients":["ann"]}}`, e.AppHeaders())
	var out struct{ Message []string }
	res.JSON(t, &out)
	if want := []string{
		"notification.url" + rule + "(javascript: is not allowed)",
		"notification.blocks[0].url" + rule + "(data: is not allowed)",
		"notification.blocks[1].cta.href" + rule + "(vbscript: is not allowed)",
	}; res.Status != 400 || !slices.Equal(out.Message, want) {
		t.Errorf("every problem: %d %q", res.Status, out.Message)
	}
	if n := requestCount(t, e); n != 0 {
		t.Fatalf("refused sends stored %d requests", n)
	}
	// Credentials are checked first: a bad url without them is 401, not 400.
	if res := e.Do("POST", "/v3/notifications", `{"notification":{"title":"Hi","url":"javascript:x"},"sendTo":{"recipients":["ann"]}}`, stacktest.Headers{"X-SERVICE-API-KEY": e.App.APIKey}); res.Status != 401 {
		t.Errorf("without a secret: %d", res.Status)
	}
	for _, u := range []string{"https://shop.example/o/1", "/orders/1", "?tab=2", "#top", "//cdn.example/x", "myapp://orders/1"} {
		body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "Hi", "url": u, "blocks": []any{map[string]any{"url": u}}}, "sendTo": map[string]any{"recipients": []string{"ann"}}})
		if res := e.Do("POST", "/v3/notifications", string(body), e.AppHeaders()); res.Status != 202 {
			t.Errorf("%q: status %d %s", u, res.Status, res.Body)
		}
	}
}
