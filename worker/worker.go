// Package worker builds the Temporal worker that runs Herald's workflows and activities.
package worker

import (
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/heraldhq/herald/activities"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/schedule"
	"github.com/heraldhq/herald/workflows/send"
)

// Options tune the worker.
type Options struct {
	// MaxConcurrentActivities caps activities running at once in this process.
	MaxConcurrentActivities int
	// StopTimeout is how long running activities get to finish on shutdown.
	StopTimeout time.Duration
}

// New returns a worker on taskQueue with every workflow and activity registered.
func New(c client.Client, taskQueue string, acts Activities, opts Options) worker.Worker {
	if opts.MaxConcurrentActivities <= 0 {
		opts.MaxConcurrentActivities = 64
	}
	w := worker.New(c, taskQueue, worker.Options{
		MaxConcurrentActivityExecutionSize: opts.MaxConcurrentActivities,
		WorkerStopTimeout:                  opts.StopTimeout,
	})
	Register(w, acts)
	return w
}

// Activities are the activity structs the worker runs.
type Activities struct {
	Delivery  *activities.Delivery
	Schedules *activities.Schedules
	// Flows backs user-defined workflows (their channel steps run on Delivery).
	Flows *activities.Flows
}

// Register adds Herald's workflows and activities to a worker or a test environment.
func Register(r worker.Registry, a Activities) {
	RegisterWorkflows(r)
	r.RegisterActivityWithOptions(a.Delivery.DeliverBatch, activity.RegisterOptions{Name: send.DeliverActivityName})
	r.RegisterActivityWithOptions(a.Delivery.FailRequests, activity.RegisterOptions{Name: send.FailActivityName})
	r.RegisterActivityWithOptions(a.Delivery.SendMessage, activity.RegisterOptions{Name: send.SendActivityName})
	r.RegisterActivityWithOptions(a.Delivery.SendMessages, activity.RegisterOptions{Name: send.SendBatchActivityName})
	r.RegisterActivityWithOptions(a.Delivery.RecordGiveUps, activity.RegisterOptions{Name: send.GiveUpActivityName})

	r.RegisterActivityWithOptions(a.Schedules.LoadSchedule, activity.RegisterOptions{Name: schedule.LoadActivityName})
	r.RegisterActivityWithOptions(a.Schedules.BeginScheduledSend, activity.RegisterOptions{Name: schedule.BeginSendActivityName})

	registerFlows(r, a)
}

// RegisterWorkflows adds Herald's workflows under their registered names: the worker does
// it through Register, and the replay test (workflows/replay_test.go) registers exactly the
// same for replaying recorded histories.
func RegisterWorkflows(r worker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(send.Workflow, workflow.RegisterOptions{Name: send.WorkflowName})
	r.RegisterWorkflowWithOptions(schedule.Workflow, workflow.RegisterOptions{Name: schedule.WorkflowName})
	r.RegisterWorkflowWithOptions(flowrun.Workflow, workflow.RegisterOptions{Name: flowrun.WorkflowName})
	r.RegisterWorkflowWithOptions(flowrun.DigestWorkflow, workflow.RegisterOptions{Name: flowrun.DigestWorkflowName})
	r.RegisterWorkflowWithOptions(flowrun.ScheduleWorkflow, workflow.RegisterOptions{Name: flowrun.ScheduleWorkflowName})
}

// registerFlows adds the activities of user-defined workflows (the interpreter, its digest
// collector and its flow schedule).
func registerFlows(r worker.Registry, a Activities) {
	r.RegisterActivityWithOptions(a.Delivery.DeliverStep, activity.RegisterOptions{Name: flowrun.DeliverStepActivity})
	for name, fn := range map[string]any{
		flowrun.StepStatesActivity:    a.Flows.StepStates,
		flowrun.FetchActivity:         a.Flows.Fetch,
		flowrun.ThrottleActivity:      a.Flows.Throttle,
		flowrun.DigestEnqueueActivity: a.Flows.DigestEnqueue,
		flowrun.RecordStepActivity:    a.Flows.RecordStep,
		flowrun.LoadRunActivity:       a.Flows.LoadRun,
		flowrun.FinishRunActivity:     a.Flows.FinishRun,
		flowrun.ScheduleSendActivity:  a.Flows.ScheduleSend,
	} {
		r.RegisterActivityWithOptions(fn, activity.RegisterOptions{Name: name})
	}
}
