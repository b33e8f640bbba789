// Package workflows_test checks that the workflow code replays the histories of runs
// recorded from earlier code (testdata/<set>/*.json, written by TestRecordHistories): a
// change that is not deterministic fails here instead of on a run that has been waiting
// for months. See "Workflow versioning" in docs/architecture.md.
package workflows_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/heraldhq/herald/internal/platform/temporalcodec"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	herworker "github.com/heraldhq/herald/worker"
)

func TestMain(m *testing.M) { os.Exit(stacktest.Main(m)) }

// historyFiles are the recorded histories of every set. A set stays as long as runs of the
// code that recorded it may still be open (see the versioning policy).
func historyFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no recorded histories under testdata/")
	}
	sort.Strings(files)
	return files
}

// replayCodec stands for the worker's codec (internal/platform/temporalcodec): recorded
// histories are plain and must replay through it, as open runs written before payload
// encryption do.
var replayCodec = func() *temporalcodec.Codec {
	c, err := temporalcodec.FromConfig("replay-test-secret-key-0123456789", "")
	if err != nil {
		panic(err)
	}
	return c
}()

// newReplayer registers the workflows exactly as the worker does, with the worker's data
// and failure converters.
func newReplayer() worker.WorkflowReplayer {
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{
		DataConverter: replayCodec.DataConverter(), FailureConverter: replayCodec.FailureConverter(),
	})
	if err != nil {
		panic(err)
	}
	herworker.RegisterWorkflows(r)
	return r
}

func TestReplayHistories(t *testing.T) {
	for _, path := range historyFiles(t) {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Size() > 1<<20 {
				t.Errorf("%s is %d bytes; keep recorded histories under 1 MB", path, st.Size())
			}
			if err := newReplayer().ReplayWorkflowHistoryFromJSONFile(nil, path); err != nil {
				t.Errorf("replaying %s: %v", path, err)
			}
		})
	}
}

// Every recorded history with all its payloads encrypted, as runs write them now, replays
// through the same replayer: encrypted and plain histories both decode.
func TestReplayEncryptedHistories(t *testing.T) {
	for _, path := range historyFiles(t) {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			h, err := client.HistoryFromJSON(bytes.NewReader(b), client.HistoryJSONOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := replayCodec.EncodeHistory(h); err != nil {
				t.Fatal(err)
			}
			started := h.GetEvents()[0].GetWorkflowExecutionStartedEventAttributes()
			for _, p := range started.GetInput().GetPayloads() {
				if string(p.GetMetadata()["encoding"]) != temporalcodec.Encoding {
					t.Fatalf("input payload not encrypted: %s", p.GetMetadata()["encoding"])
				}
			}
			if err := newReplayer().ReplayWorkflowHistory(nil, h); err != nil {
				t.Errorf("replaying %s encrypted: %v", path, err)
			}
		})
	}
}
