// Package workflows_test checks that the workflow code replays the histories of runs
// recorded from earlier code (testdata/<set>/*.json, written by TestRecordHistories): a
// change that is not deterministic fails here instead of on a run that has been waiting
// for months. See "Workflow versioning" in docs/architecture.md.
package workflows_test

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"go.temporal.io/sdk/worker"

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

// newReplayer registers the workflows exactly as the worker does.
func newReplayer() worker.WorkflowReplayer {
	r := worker.NewWorkflowReplayer()
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
