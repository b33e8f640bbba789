package channels

import (
	"reflect"
	"testing"

	herald "github.com/heraldhq/herald"
)

// A destination counts as changed only when its effective value does: a key left out is its
// schema default, spacing and key order do not matter.
func TestChangedDestinationsApplyDefaults(t *testing.T) {
	smtpSchema := schemaOf(t, "smtp")
	before := fields(t, `{"host":"smtp.example.com","password":"p","from":"a@b.co"}`)
	for _, tc := range []struct {
		after string
		want  []string
	}{
		{`{"host":"smtp.example.com","port":587,"security":"starttls","password":"p","from":"a@b.co","fromName":"x"}`, nil},
		{`{"host":"smtp.example.com","port":2525,"password":"p","from":"a@b.co"}`, []string{"port"}},
		{`{"host":"relay.example.com","security":"none","from":"a@b.co"}`, []string{"host", "security"}},
	} {
		if got := changedDestinations(smtpSchema, before, fields(t, tc.after)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.after, got, tc.want)
		}
	}
	webhookSchema := schemaOf(t, "webhook")
	if got := changedDestinations(webhookSchema, fields(t, `{"url":"https://a.example","headers":{"a":1,"b":2}}`), fields(t, `{"url":"https://a.example","headers":{"b":2,"a":1}}`)); got != nil {
		t.Errorf("reordered: %q", got)
	}
}

// checkRepoint: a change of destination is the admin's (403 otherwise), and every stored
// secret must come again in the patch (the mask does not count; null removes it).
func TestCheckRepoint(t *testing.T) {
	s := schemaOf(t, "webhook")
	stored := fields(t, `{"url":"https://a.example","secret":"0123456789abcdef","headers":{"Authorization":"Bearer x"}}`)
	var p herald.Problems
	if err := checkRepoint(s, []string{"url"}, stored, fields(t, `{"url":"https://b.example"}`), false, &p); herald.ErrorCode(err) != herald.EFORBIDDEN {
		t.Errorf("developer: %v", err)
	}
	if err := checkRepoint(s, []string{"url"}, stored, fields(t, `{"url":"https://b.example","secret":"********"}`), true, &p); err != nil {
		t.Fatal(err)
	}
	want := herald.Problems{
		"config.headers must be entered again to change config.url: a stored secret is never sent to a new destination",
		"config.secret must be entered again to change config.url: a stored secret is never sent to a new destination",
	}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("problems %q", p)
	}
	p = nil
	if err := checkRepoint(s, []string{"url"}, stored, fields(t, `{"secret":"fedcba9876543210","headers":null}`), true, &p); err != nil || len(p) != 0 {
		t.Errorf("entered again: %v %q", err, p)
	}
	if err := checkRepoint(s, nil, stored, nil, false, &p); err != nil || len(p) != 0 {
		t.Errorf("no change: %v %q", err, p)
	}
}
