package send

import (
	"testing"

	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/internal/platform/temporalcodec"
)

// Histories recorded from earlier versions of the workflow (see
// integration.TestRecordSendExternalHistory) must replay on the current code: runs started
// by the old code are still running when a new worker picks them up.
func TestReplayRecordedHistories(t *testing.T) {
	for _, name := range []string{
		// Three emails as one SendMessage activity each, one refused permanently.
		"send-external-v1.json",
		// The same send on the batched version: one SendMessages activity for the three.
		"send-batched-v1.json",
		// The batched version with DeliverBatch sending a small slice itself (four emails:
		// one refused with 550, one with 451 and retried after its backoff in SendMessages).
		"send-batched-v2.json",
	} {
		t.Run(name, func(t *testing.T) {
			// The worker's converters: plain histories decode through the codec unchanged.
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
			r.RegisterWorkflowWithOptions(WorkflowV1, workflow.RegisterOptions{Name: WorkflowV1Name})
			if err := r.ReplayWorkflowHistoryFromJSONFile(nil, "../testdata/"+name); err != nil {
				t.Fatalf("replay %s: %v", name, err)
			}
		})
	}
}
