package integration

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestRecordSendExternalHistory records the history of a send workflow that delivers email
// to four users (one refused permanently, one refused once with 451 and then accepted) into
// workflows/testdata, for the replay
// tests of workflows/send. It runs only when HERALD_RECORD_HISTORY names the file to write
// (e.g. send-external-v1.json): a recorded history is kept as it is, so that a change to the
// workflow is checked against what older code really did.
func TestRecordSendExternalHistory(t *testing.T) {
	name := os.Getenv("HERALD_RECORD_HISTORY")
	if name == "" {
		t.Skip("set HERALD_RECORD_HISTORY=<file name> to record a send workflow history")
	}
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	srv.Reject("carol@example.com", 550)
	srv.Reject("dave@example.com", 451)
	smtpInstance(t, e, srv)
	req := sendNotification(t, e, `{
		"notification": {"title": "Hello", "message": "History to replay"},
		"override": {"channels": ["email"]},
		"sendTo": {"recipients": [
			{"identifier": "amelie", "email": "amelie@example.com"},
			{"identifier": "bob", "email": "bob@example.com"},
			{"identifier": "carol", "email": "carol@example.com"},
			{"identifier": "dave", "email": "dave@example.com"}
		]}
	}`)
	e.Eventually(60*time.Second, "dave's first attempt to fail", func() bool {
		return messageLogs(t, e, req)["dave/email"].Error != ""
	})
	srv.Accept("dave@example.com")
	waitForLogs(t, e, req, "amelie/email", "bob/email", "carol/email", "dave/email")
	id := "send/" + req
	e.Eventually(60*time.Second, "the send workflow to close", func() bool {
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
	// Stored decoded (the stack's key is random): the replay tests encrypt them themselves.
	if err := e.Stack.Codec.DecodeHistory(&h); err != nil {
		t.Fatal(err)
	}
	out, err := protojson.MarshalOptions{Indent: "  "}.Marshal(&h)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "workflows", "testdata", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d events", path, len(h.Events))
}
