package outbox

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/workflows/schedule"
	"github.com/heraldhq/herald/workflows/send"
	"github.com/heraldhq/herald/workflows/visibility"
)

// FairnessKey is the Temporal fairness key of a run carrying the requests of appIDs: the
// app, as "app-<id>" (the relay packs one app's requests per run; a retried run started
// before that may carry several, keyed by the first).
func FairnessKey(appIDs []int64) string {
	if len(appIDs) == 0 {
		return ""
	}
	return "app-" + strconv.FormatInt(appIDs[0], 10)
}

// CriticalPriorityKey is the Temporal priority key of runs carrying critical requests:
// keys run from 1 (first) to 5; unset means the default, 3.
const CriticalPriorityKey = 1

// PriorityKey is the Temporal priority key of a run started with ctx: CriticalPriorityKey
// for critical requests (IsCritical), else 0 (the server's default).
func PriorityKey(ctx context.Context) int {
	if IsCritical(ctx) {
		return CriticalPriorityKey
	}
	return 0
}

// TemporalStarter starts send workflows on a Temporal task queue.
type TemporalStarter struct {
	Client    client.Client
	TaskQueue string
	// RegisterSearchAttributes, when set, is called after Temporal refused a start as
	// invalid, before one more try: the namespace may have lost the search attributes
	// registered at start-up (an in-memory dev server restarted behind a running Herald).
	RegisterSearchAttributes func(ctx context.Context) error
}

// Start starts the send workflow, or the schedule workflow for a schedule/ id; an id that is
// running or already finished counts as started, so retries never deliver twice. The run
// carries the search attributes HeraldAppId and HeraldRequestId (package visibility) and a
// summary for the Temporal Web UI.
func (s TemporalStarter) Start(ctx context.Context, workflowID string, requestIDs []uuid.UUID, appIDs []int64) error {
	name, input := send.WorkflowName, any(send.NewInput(requestIDs))
	summary := "Send " + requestIDs[0].String()
	if len(requestIDs) > 1 {
		summary = fmt.Sprintf("Pack of %d sends", len(requestIDs))
	}
	if schedule.IsWorkflowID(workflowID) {
		name, input = schedule.WorkflowName, schedule.Input{RequestID: requestIDs[0]}
		summary = "Scheduled send " + requestIDs[0].String()
	}
	ids := make([]string, len(requestIDs))
	for i, id := range requestIDs {
		ids[i] = id.String()
	}
	apps := make([]string, len(appIDs))
	for i, id := range appIDs {
		apps[i] = strconv.FormatInt(id, 10)
	}
	opts := client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                s.TaskQueue,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
		TypedSearchAttributes:    visibility.Send(appIDs, ids),
		StaticSummary:            summary,
		StaticDetails:            "**Apps:** " + strings.Join(apps, ", ") + "\n\n**Requests:** " + strings.Join(ids, ", "),
		// The app is the run's fairness key: a Temporal server with task queue fairness on
		// (matching.enableFairness) dispatches the tasks of different apps round-robin on
		// every queue; activities and child runs inherit it. Servers without it ignore the
		// key (docs/decisions.md, "Fairness between apps").
		// A run of critical requests (IsCritical) gets a higher priority key, so a server
		// with priority dispatch hands its tasks out before those of ordinary runs
		// (docs/decisions.md, "Critical sends first").
		Priority: temporal.Priority{FairnessKey: FairnessKey(appIDs), PriorityKey: PriorityKey(ctx)},
		// Eager start: when this process also runs a worker of the orchestration queue
		// (herald dev, a single-process deployment), the run's first workflow task comes
		// back with the start and runs on that worker at once, never waiting in the
		// queue behind other apps' tasks (issue 28: that wait was most of app B's tail
		// under app A's burst). Without a local worker, or on a server with eager start
		// off (system.enableEagerWorkflowStart), it is an ordinary start.
		EnableEagerStart: true,
	}
	_, err := s.Client.ExecuteWorkflow(ctx, opts, name, input)
	var invalid *serviceerror.InvalidArgument
	if errors.As(err, &invalid) && s.RegisterSearchAttributes != nil {
		if rerr := s.RegisterSearchAttributes(ctx); rerr != nil {
			return fmt.Errorf("%w (registering search attributes: %v)", err, rerr)
		}
		_, err = s.Client.ExecuteWorkflow(ctx, opts, name, input)
	}
	var already *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &already) {
		return nil
	}
	return err
}
