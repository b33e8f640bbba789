package pipeline

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/workflows/send"
)

// publishFlow creates and publishes a workflow; its inApp step's title says which version.
func publishFlow(t *testing.T, d *db.DB, appID int64, identifier, title string) *flow.Service {
	t.Helper()
	s := flow.NewService(d, nil)
	ctx := context.Background()
	body := `{"identifier":"` + identifier + `","name":"n","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"` + title + `"}}]}}`
	if _, err := s.Get(ctx, appID, identifier); err != nil {
		if _, err := s.Create(ctx, appID, []byte(body)); err != nil {
			t.Fatal(err)
		}
	} else if _, err := s.Update(ctx, appID, identifier, []byte(`{"name":"n","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"`+title+`"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Publish(ctx, appID, identifier); err != nil {
		t.Fatal(err)
	}
	return s
}

// However large the call's budget, one call hands out at most maxRunsPerCall workflow runs
// (each carries its recipient and payload, so the result must stay small).
func TestOneCallReturnsAtMostMaxRunsPerCall(t *testing.T) {
	d, appID, a, _ := setup(t)
	publishFlow(t, d, appID, "welcome", "v1")
	recipients := make([]string, maxRunsPerCall+300)
	for i := range recipients {
		recipients[i] = `"u` + strconv.Itoa(i) + `"`
	}
	req := accept(t, d, appID, `{"notification":{"workflow":{"identifier":"welcome"}},"sendTo":{"recipients":[`+strings.Join(recipients, ",")+`]}}`)
	a.BatchSize = 4000
	res, err := a.DeliverBatch(context.Background(), send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != maxRunsPerCall || len(res.Pending) != 1 {
		t.Fatalf("first call: %d runs, %d pending cursors; want %d and 1", len(res.Runs), len(res.Pending), maxRunsPerCall)
	}
	rest, err := a.DeliverBatch(context.Background(), send.DeliverInput{Cursors: res.Pending})
	if err != nil || len(rest.Runs) != 300 || len(rest.Pending) != 0 {
		t.Fatalf("second call: %d runs, pending %v, %v", len(rest.Runs), rest.Pending, err)
	}
}
