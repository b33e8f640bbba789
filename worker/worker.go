// Package worker builds the Temporal worker that runs Herald's workflows and activities.
package worker

import (
	"fmt"
	"slices"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/retention"
	"github.com/heraldhq/herald/workflows/schedule"
	"github.com/heraldhq/herald/workflows/send"
	"github.com/heraldhq/herald/workflows/taskqueue"
	"github.com/heraldhq/herald/workflows/webhook"
)

// Options tune the workers of one process.
type Options struct {
	// Queues are the kinds of task queue to poll (package taskqueue); empty polls them all.
	Queues []string
	// Slots caps the activities running at once on each kind of queue; a kind without a
	// count (or with 0) gets 64.
	Slots map[string]int
	// StopTimeout is how long running activities get to finish on shutdown.
	StopTimeout time.Duration
	// WorkflowPollers is how many workflow-task polls the orchestration worker keeps open
	// (0: the SDK's default).
	WorkflowPollers int
}

// Set is the Temporal workers of one process: one per task queue it polls (see package
// taskqueue). Each queue has its own activity slots, so a provider that hangs holds only
// the slots of its own kind of queue, never the orchestration slots that in-app delivery
// and the other channels need.
type Set struct {
	workers []worker.Worker
	queues  []string
}

// New returns the workers of the selected kinds of queue, named after base (the
// orchestration queue, HERALD_TASK_QUEUE). The orchestration worker runs the workflows and
// every activity (runs recorded before the split scheduled provider calls on it); a
// provider worker runs activities only.
func New(c client.Client, base string, acts Activities, opts Options) *Set {
	kinds := opts.Queues
	if len(kinds) == 0 {
		kinds = taskqueue.Kinds
	}
	s := &Set{}
	for _, kind := range taskqueue.Kinds {
		if !slices.Contains(kinds, kind) {
			continue
		}
		slots := opts.Slots[kind]
		if slots <= 0 {
			slots = 64
		}
		q := taskqueue.Name(base, kind)
		wo := worker.Options{
			MaxConcurrentActivityExecutionSize: slots,
			WorkerStopTimeout:                  opts.StopTimeout,
			DisableWorkflowWorker:              kind != taskqueue.Orchestration,
		}
		if kind == taskqueue.Orchestration && opts.WorkflowPollers > 0 {
			wo.WorkflowTaskPollerBehavior = workflowPollers(opts.WorkflowPollers)
		}
		w := worker.New(c, q, wo)
		if kind == taskqueue.Orchestration {
			Register(w, acts)
		} else {
			registerActivities(w, acts)
		}
		s.workers = append(s.workers, w)
		s.queues = append(s.queues, q)
	}
	return s
}

// workflowPollers keeps n workflow-task polls open on the task queue and n on the worker's
// sticky queue, each set on its own. With one shared set (the SDK's "simple maximum"), the
// SDK sends every poll to the sticky queue while the server reports a backlog there: when
// a burst of one app's running workflows queued there (a provider's breaker opening under
// a hundred of its runs at once), no poll asked for another app's new run's first
// workflow task, which waits on the task queue itself, for seconds. The SDK's autoscaling
// behaviour polls the two queues with separate pollers; minimum = maximum keeps each at n.
func workflowPollers(n int) worker.PollerBehavior {
	return worker.NewPollerBehaviorAutoscaling(worker.PollerBehaviorAutoscalingOptions{
		InitialNumberOfPollers: n, MinimumNumberOfPollers: n, MaximumNumberOfPollers: n,
	})
}

// Queues names the task queues the set polls.
func (s *Set) Queues() []string { return s.queues }

// Start starts every worker; when one fails, those already started are stopped.
func (s *Set) Start() error {
	for i, w := range s.workers {
		if err := w.Start(); err != nil {
			for _, started := range s.workers[:i] {
				started.Stop()
			}
			return fmt.Errorf("worker on %s: %w", s.queues[i], err)
		}
	}
	return nil
}

// Stop stops every worker, letting running activities finish within the stop timeout.
func (s *Set) Stop() {
	for _, w := range s.workers {
		w.Stop()
	}
}

// Activities are the activity structs the worker runs.
type Activities struct {
	Pipeline  *activities.Pipeline
	Schedules *activities.Schedules
	// Flows backs user-defined workflows (their channel steps run on Delivery).
	Flows *activities.Flows
	// Retention purges expired data (workflows/retention).
	Retention *activities.Retention
	// Webhooks delivers event webhooks (nil: not registered, for tests without them).
	Webhooks *activities.Webhooks
}

// Register adds Herald's workflows and activities to a worker or a test environment.
func Register(r worker.Registry, a Activities) {
	RegisterWorkflows(r)
	registerActivities(r, a)
}

// registerActivities adds every activity: a provider queue's worker runs only its kind's
// (the workflows schedule nothing else there), but registering all keeps one list.
func registerActivities(r worker.ActivityRegistry, a Activities) {
	send.LoadQueuedJobs.Register(r, a.Pipeline.LoadQueuedJobs)
	send.DeliverBatch.Register(r, a.Pipeline.DeliverBatch)
	send.FailRequests.Register(r, a.Pipeline.FailRequests)
	send.SendMessage.Register(r, a.Pipeline.SendMessage)
	send.SendMessages.Register(r, a.Pipeline.SendMessages)
	send.RecordGiveUps.Register(r, a.Pipeline.RecordGiveUps)
	send.DropHeldMessages.Register(r, a.Pipeline.DropHeldMessages)

	schedule.LoadSchedule.Register(r, a.Schedules.LoadSchedule)
	schedule.BeginScheduledSend.Register(r, a.Schedules.BeginScheduledSend)

	registerFlows(r, a)

	retention.ListApps.Register(r, a.Retention.ListApps)
	retention.PurgeApp.Register(r, a.Retention.PurgeApp)
	if a.Webhooks != nil {
		webhook.DeliverWebhooks.Register(r, a.Webhooks.DeliverWebhooks)
	}
}

// RegisterWorkflows adds Herald's workflows under their registered names: the worker does
// it through Register, and the replay test (workflows/replay_test.go) registers exactly the
// same for replaying recorded histories.
func RegisterWorkflows(r worker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(send.Workflow, workflow.RegisterOptions{Name: send.WorkflowName})
	r.RegisterWorkflowWithOptions(send.WorkflowV2, workflow.RegisterOptions{Name: send.WorkflowV2Name})
	r.RegisterWorkflowWithOptions(send.WorkflowV1, workflow.RegisterOptions{Name: send.WorkflowV1Name})
	r.RegisterWorkflowWithOptions(schedule.Workflow, workflow.RegisterOptions{Name: schedule.WorkflowName})
	r.RegisterWorkflowWithOptions(flowrun.Workflow, workflow.RegisterOptions{Name: flowrun.WorkflowName})
	r.RegisterWorkflowWithOptions(flowrun.DigestWorkflow, workflow.RegisterOptions{Name: flowrun.DigestWorkflowName})
	r.RegisterWorkflowWithOptions(flowrun.FlowScheduleWorkflow, workflow.RegisterOptions{Name: flowrun.FlowScheduleWorkflowName})
	r.RegisterWorkflowWithOptions(retention.Workflow, workflow.RegisterOptions{Name: retention.WorkflowName})
	r.RegisterWorkflowWithOptions(webhook.Workflow, workflow.RegisterOptions{Name: webhook.WorkflowName})
}

// registerFlows adds the activities of user-defined workflows (the interpreter, its digest
// collector and its flow schedule).
func registerFlows(r worker.ActivityRegistry, a Activities) {
	flowrun.DeliverStep.Register(r, a.Pipeline.DeliverStep)
	flowrun.DropHeldStep.Register(r, a.Pipeline.DropHeldStep)
	flowrun.StepStates.Register(r, a.Flows.StepStates)
	flowrun.Fetch.Register(r, a.Flows.Fetch)
	flowrun.Throttle.Register(r, a.Flows.Throttle)
	flowrun.DigestEnqueue.Register(r, a.Flows.DigestEnqueue)
	flowrun.RecordStep.Register(r, a.Flows.RecordStep)
	flowrun.LoadRun.Register(r, a.Flows.LoadRun)
	flowrun.FinishRun.Register(r, a.Flows.FinishRun)
	flowrun.FlowScheduleSend.Register(r, a.Flows.ScheduleSend)
}
