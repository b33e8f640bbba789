package webhook

import (
	"testing"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/internal/platform/temporalcodec"
)

// Histories recorded from the delivery workflow (integration.TestRecordWebhookHistory)
// must replay on the current code: a run may be draining when a new worker picks it up.
func TestReplayRecordedHistories(t *testing.T) {
	for _, name := range []string{
		// Five events drained in batches of two: three DeliverWebhooks activities.
		"webhook-deliveries-v1.json",
	} {
		t.Run(name, func(t *testing.T) {
			codec, err := temporalcodec.FromConfig("replay-test-secret-key-0123456789", "")
			if err != nil {
				t.Fatal(err)
			}
			r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
				DataConverter: codec.DataConverter(), FailureConverter: codec.FailureConverter(),
			})
			if err != nil {
				t.Fatal(err)
			}
			r.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, "../testdata/"+name); err != nil {
				t.Fatalf("replay %s: %v", name, err)
			}
		})
	}
}
