package stack

import (
	"log/slog"

	"github.com/heraldhq/herald/activities"
	v3 "github.com/heraldhq/herald/api/v3"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/flow/fetch"
)

// FlowServices are the services of user-defined workflows.
type FlowServices struct {
	// Flows stores workflow definitions and cancels runs by key.
	Flows *flow.Service
	// FlowSchedules keeps flow schedules (Temporal Schedules).
	FlowSchedules *flow.ScheduleService
	// InboxSignals is the inbox service's publisher: it passes events on to Events and
	// wakes the runs waiting on notifications their steps wrote.
	InboxSignals *flow.InboxSignals
}

// openFlows builds the workflow services; call it after Events and Templates are set and
// before the inbox service is built.
func (s *Stack) openFlows(log *slog.Logger) {
	s.Flows = flow.NewService(s.DB, s.Templates.Exists)
	s.Flows.LayoutExists = s.Templates.LayoutExists
	s.FlowSchedules = flow.NewScheduleService(s.DB, s.Temporal, s.Cfg.TaskQueue, log.With("component", "recurring"))
	s.InboxSignals = flow.NewInboxSignals(s.DB, s.Temporal, s.Events, log.With("component", "inbox-signals"))
}

// flowActivities are the worker's activities of user-defined workflows.
func (s *Stack) flowActivities() *activities.Flows {
	return &activities.Flows{Runs: &flow.Runs{DB: s.DB, Sends: s.Notify}, Temporal: s.Temporal, TaskQueue: s.Cfg.TaskQueue,
		Fetcher: fetch.New(s.Cfg.FetchAllowedHosts)}
}

// workflowHandlers are the services behind /v3/workflows.
func (s *Stack) workflowHandlers() *v3.Workflows {
	return &v3.Workflows{Flows: s.Flows, Schedules: s.FlowSchedules, Canceler: s.Temporal, Log: s.Log.With("component", "workflows")}
}
