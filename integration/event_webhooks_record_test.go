package integration

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/webhook"
)

// TestRecordWebhookHistory records the history of an event webhook delivery workflow that
// drains five events in batches of two (three activities, the last one not full) into
// workflows/testdata, for the replay test of workflows/webhook. It runs only when
// HERALD_RECORD_WEBHOOK_HISTORY names the file to write (e.g. webhook-deliveries-v1.json).
func TestRecordWebhookHistory(t *testing.T) {
	name := os.Getenv("HERALD_RECORD_WEBHOOK_HISTORY")
	if name == "" {
		t.Skip("set HERALD_RECORD_WEBHOOK_HISTORY=<file name> to record a webhook delivery history")
	}
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Webhooks.BatchSize, c.Webhooks.PollInterval = 2, time.Hour // started by hand below
	}})
	hooks := newHookServer(t, nil)
	ep := createEndpoint(t, e, map[string]any{"url": hooks.srv.URL + "/h", "eventTypes": []string{"notification.read"}})
	for i := range 5 {
		sendNotification(t, e, fmt.Sprintf(`{"notification": {"title": "n%d", "message": "m"}, "sendTo": {"recipients": ["alice"]}}`, i))
	}
	e.Eventually(60*time.Second, "five inbox items", func() bool { return inbox(t, e, "alice").Pagination.TotalCount == 5 })
	if res := e.Do("POST", "/v3/notifications/markAllNotificationsAsRead", nil, e.UserHeaders("alice")); res.Status >= 300 {
		t.Fatalf("mark all read: %d %s", res.Status, res.Body)
	}
	e.Stack.WebhookRelay.Tick(context.Background())
	e.Eventually(60*time.Second, "five deliveries", func() bool { return len(hooks.acknowledged("/h")) == 5 })
	id := webhook.WorkflowID(ep.ID)
	e.Eventually(60*time.Second, "the workflow to close", func() bool {
		d, err := e.Stack.Temporal.DescribeWorkflowExecution(context.Background(), id, "")
		return err == nil && d.WorkflowExecutionInfo.Status != enums.WORKFLOW_EXECUTION_STATUS_RUNNING
	})
	it := e.Stack.Temporal.GetWorkflowHistory(context.Background(), id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	var h historypb.History
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	if err := e.Stack.Codec.DecodeHistory(&h); err != nil {
		t.Fatal(err)
	}
	out, err := protojson.MarshalOptions{Indent: "  "}.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "workflows", "testdata", name)
	if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d events", path, len(h.Events))
}
