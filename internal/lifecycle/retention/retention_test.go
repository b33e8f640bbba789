package retention

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
)

func TestEveryTargetNamesASetting(t *testing.T) {
	for _, tg := range Targets {
		if _, ok := setting(tg.Setting); !ok {
			t.Errorf("target %s names unknown setting %q", tg.Table, tg.Setting)
		}
		if tg.Set != "" && tg.Where == "" {
			t.Errorf("target %s updates without excluding the rows already cleared", tg.Table)
		}
	}
	for _, s := range Settings {
		if s.Default < s.Min || s.Default > s.Max {
			t.Errorf("setting %s: default %d outside [%d, %d]", s.Name, s.Default, s.Min, s.Max)
		}
	}
}

func TestStatementDeletesOrClearsByCtid(t *testing.T) {
	got := Target{Table: "flow_logs", Time: "created_at"}.Statement()
	want := "DELETE FROM flow_logs WHERE ctid = ANY(ARRAY(SELECT ctid FROM flow_logs WHERE app_id = $1 AND created_at < $2 LIMIT $3))"
	if got != want {
		t.Fatalf("statement = %s", got)
	}
	got = Target{Table: "t", Time: "c", Where: "k IS NOT NULL", Set: "k = NULL"}.Statement()
	if !strings.HasPrefix(got, "UPDATE t SET k = NULL WHERE ctid") || !strings.Contains(got, "AND k IS NOT NULL LIMIT $3") {
		t.Fatalf("statement = %s", got)
	}
}

func TestParseListsEveryProblem(t *testing.T) {
	_, err := Parse([]byte(`{"messageLogs": 0, "inboxRead": "x", "nope": 3, "requests": 2.5, "flowLogs": 4000}`))
	var e *herald.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v", err)
	}
	got := e.Details
	want := []string{
		"inboxRead must be a whole number of days or null",
		"messageLogs must be between 1 and 3650 days",
		"flowLogs must be between 1 and 3650 days",
		"requests must be a whole number of days or null",
		"nope is not a kind of data with a retention (one of inboxRead, inboxUnread, messageLogs, flowLogs, requests, idempotencyKeys)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if _, err := Parse([]byte(`[1]`)); err == nil {
		t.Fatal("an array is accepted")
	}
	ch, err := Parse([]byte(`{"messageLogs": 30, "requests": null}`))
	if err != nil || *ch["messageLogs"] != 30 || ch["requests"] != nil {
		t.Fatalf("changes = %v, %v", ch, err)
	}
}

func TestEffectiveIgnoresUnknownAndOutOfRange(t *testing.T) {
	got := Effective(json.RawMessage(`{"messageLogs": 7, "gone": 3, "requests": 0}`))
	if got["messageLogs"] != 7 || got["requests"] != 30 || len(got) != len(Settings) {
		t.Fatalf("effective = %v", got)
	}
}
