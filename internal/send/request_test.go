package send

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
)

func problems(t *testing.T, err error) []string {
	t.Helper()
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("want an EINVALID error, got %v", err)
	}
	return he.Details
}

func TestParseRejectsEveryViolatedRule(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"not an object", `[1]`, []string{"body must be a JSON object"}},
		{"invalid json", `{"notification":`, []string{"body must be a JSON object"}},
		{"missing everything", `{}`, []string{"notification must be an object", "sendTo must be an object"}},
		{"the three classic mistakes", `{"sendTo":"bob","recipients":[1,2]}`, []string{
			"notification must be an object", "sendTo must be an object", "recipients must be an array of strings"}},
		{"wrong field types", `{"notification":{"title":5,"blocks":{},"url":true},"sendTo":{"recipients":"bob","topics":[1]},"data":[],"override":{"channels":["inApp","fax"]},"category":7}`, []string{
			"notification.title must be a string", "notification.url must be a string", "notification.blocks must be an array",
			"sendTo.recipients must be an array", "sendTo.topics must be an array of strings", "category must be a string",
			"data must be an object", `override.channels: unknown channel "fax" (known: inApp, email, sms, whatsapp, webPush, mobilePush, slack, discord, msTeams, webhook)`}},
		{"empty title", `{"notification":{"title":"  "},"sendTo":{"recipients":["a"]}}`, []string{
			"notification.title should not be empty (or name a templateIdentifier or workflow)"}},
		{"bad recipients", `{"notification":{"title":"t"},"sendTo":{"recipients":["", {"email":"x"}, 3]}}`, []string{
			"each value in sendTo.recipients must be a string or an object with a string identifier",
			"each identifier in sendTo.recipients must be a non-empty string"}},
		{"no audience", `{"notification":{"title":"t"},"sendTo":{}}`, []string{"sendTo must name at least one recipient or topic"}},
		{"workflow without identifier", `{"notification":{"workflow":{}},"sendTo":{"recipients":["a"]}}`, []string{
			"notification.workflow.identifier must be a non-empty string"}},
		{"bad sendAt", `{"notification":{"title":"t"},"recipients":["a"],"sendAt":"next tuesday"}`, []string{
			`sendAt must be an ISO 8601 date-time with a time zone, e.g. 2026-12-24T18:00:00Z (got "next tuesday")`}},
		{"sendAt not a string", `{"notification":{"title":"t"},"recipients":["a"],"sendAt":5}`, []string{"sendAt must be an ISO 8601 date-time string"}},
		{"sendAt too far", `{"notification":{"title":"t"},"recipients":["a"],"sendAt":"2999-01-01T00:00:00Z"}`, []string{"sendAt must be within 366 days"}},
		{"script urls", `{"notification":{"title":"t","url":" jaVa\tscript:alert(1)","blocks":[{"type":"button","url":"data:text/html,x","label":"javascript:fine as text"},{"action":{"href":"&#x6A;avascript:x","imageUrl":"https://ok.example","deepLink":"vbscript:x"}},"javascript:not a link key"]},"recipients":["a"]}`, []string{
			"notification.url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
			"notification.blocks[0].url must be an http or https URL, a relative reference or an app link (data: is not allowed)",
			"notification.blocks[1].action.deepLink must be an http or https URL, a relative reference or an app link (vbscript: is not allowed)",
			"notification.blocks[1].action.href must be an http or https URL, a relative reference or an app link (javascript: is not allowed)"}},
		{"control character in url", `{"notification":{"title":"t","url":"https://x.example/\u0001"},"recipients":["a"]}`, []string{
			"notification.url must not contain control characters"}},
		{"long identifier", `{"notification":{"title":"t"},"recipients":["` + strings.Repeat("x", 256) + `"]}`, []string{
			"each identifier in recipients must be at most 255 characters"}},
		{"inbox blocks", `{"notification":{"title":"t","blocks":[{"type":"buttons","buttons":[{"label":"Go","url":"javascript:alert(1)"},{"label":"Approve"}]},{"type":"image","url":"http://x.example/a.png"}]},"recipients":["a"]}`, []string{
			"notification.blocks[0].buttons[0].url must be an http or https URL, a relative reference or an app link (javascript: is not allowed)",
			"notification.blocks[0].buttons[1] needs url or state",
			"notification.blocks[1].url must be an https URL",
			"notification.blocks[1].alt is required"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.body))
			if got := problems(t, err); !slices.Equal(got, tc.want) {
				t.Errorf("problems\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestParseAcceptsSafeURLs(t *testing.T) {
	for _, u := range []string{"https://example.com/a", "/inbox/1", "?x", "#y", "//cdn.example/x", "myapp://orders/42", "HTTP://X"} {
		body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "t", "url": u, "blocks": []any{map[string]any{"url": u}}}, "recipients": []string{"a"}})
		req, err := Parse(body)
		if err != nil || req.Notification.URL != u {
			t.Errorf("%q: %v", u, err)
		}
	}
}

func TestParseNormalisesRecipients(t *testing.T) {
	body := `{"notification":{"title":"Hi","category":"news"},
		"sendTo":{"recipients":["a",{"identifier":"b","email":"b@example.com"},"a",{"identifier":"b","name":"Bee"}],"topics":["t1"]},
		"recipients":["c","a"], "data":{"k":1}, "override":{"channels":["inApp"],"email":{"x":1}}, "unknownField":true}`
	req, err := Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range req.Recipients {
		ids = append(ids, r.Identifier)
	}
	if !slices.Equal(ids, []string{"a", "b", "c"}) {
		t.Errorf("recipients = %v, want a, b, c (deduplicated, in order)", ids)
	}
	var profile map[string]string
	if err := json.Unmarshal(req.Recipients[1].Profile, &profile); err != nil {
		t.Fatal(err)
	}
	if profile["email"] != "b@example.com" || profile["name"] != "Bee" || len(profile) != 2 {
		t.Errorf("profile of b = %v, want email and name merged", profile)
	}
	if len(req.Recipients[0].Profile) != 0 {
		t.Errorf("a string recipient has no profile, got %s", req.Recipients[0].Profile)
	}
	if req.Notification.Category != "news" || req.CreateCategory {
		t.Errorf("notification.category must not auto-create: %+v", req)
	}
	if !slices.Equal(req.Topics, []string{"t1"}) || !slices.Equal(req.Override.Channels, []string{"inApp"}) {
		t.Errorf("topics/override lost: %+v %+v", req.Topics, req.Override)
	}
}

func TestParseDeprecatedForm(t *testing.T) {
	req, err := Parse([]byte(`{"notification":{"title":"Hi"},"recipients":["u1","u2"],"category":"promo"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Recipients) != 2 || req.Notification.Category != "promo" || !req.CreateCategory {
		t.Errorf("deprecated recipients/category not honoured: %+v", req)
	}
}

func TestParseTooManyRecipients(t *testing.T) {
	ids := make([]string, herald.MaxInlineRecipients+1)
	for i := range ids {
		ids[i] = "u" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + itoa(i)
	}
	body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "t"}, "sendTo": map[string]any{"recipients": ids}})
	_, err := Parse(body)
	if got := problems(t, err); len(got) != 1 || !strings.Contains(got[0], "at most 50000 recipients") {
		t.Errorf("got %q", got)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
