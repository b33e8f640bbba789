// Package activities holds the Temporal activities: structs that carry their dependencies
// and whose methods are adapters: each decodes its input, calls one service method (the
// delivery pipeline is internal/delivery/pipeline) and maps its error to Temporal's retry
// semantics.
package activities

import (
	"context"
	"sync"

	"go.temporal.io/sdk/activity"

	"github.com/heraldhq/herald/internal/audience/unsubscribe"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/workflows/flowrun"
	"github.com/heraldhq/herald/workflows/send"
)

// Delivery delivers send requests: the activities of the send workflow and of a flow's
// channel steps, over the delivery pipeline.
type Delivery struct {
	*pipeline.Service
	// InstanceConcurrency bounds the provider calls SendMessages has in flight per provider
	// instance in this worker (0: DefaultInstanceConcurrency).
	InstanceConcurrency int
	// Throttle, when set, is called before each provider call with the instance it goes
	// to, and may wait: the stack paces instances that have a send rate (config.sendRate)
	// with a token bucket shared by every worker. An error fails the call as a transient
	// failure of Herald's.
	Throttle func(ctx context.Context, c *channels.Candidate) error
	// Unsubscribe builds the one-click unsubscribe links of non-critical emails
	// (List-Unsubscribe, {{unsubscribeUrl}}); nil: emails carry none.
	Unsubscribe *unsubscribe.Links

	// slots holds a semaphore per provider instance (see admit).
	slots sync.Map
	// breakers holds the circuit breaker of each provider instance (breaker.go).
	breakers  sync.Map
	cacheOnce sync.Once
	cache     *sendCache
}

// NewService builds the delivery pipeline the activities run, telling it about the
// Temporal activity each call runs in.
func NewService(s *pipeline.Service) *pipeline.Service {
	s.Worker = temporalWorker{}
	return s
}

// temporalWorker answers the pipeline's questions about the activity of a call.
type temporalWorker struct{}

// WorkflowID names the run the activity of ctx belongs to.
func (temporalWorker) WorkflowID(ctx context.Context) string { return workflowID(ctx) }

// Stopping reports whether the worker running the activity of ctx is shutting down.
func (temporalWorker) Stopping(ctx context.Context) bool { return workerStopping(ctx) }

// DeliverBatch delivers the next slice of recipients of the given requests
// (pipeline.Service.DeliverBatch), heartbeating meanwhile. A call asked to (SendSmall)
// sends a small result's external messages itself rather than handing them to SendMessages
// batches: a pack of single-recipient sends then costs one activity, not two. A retried call
// finds the messages it sent no longer queued (not handed out again) and claims the others
// again.
func (a *Delivery) DeliverBatch(ctx context.Context, in send.DeliverInput) (send.DeliverResult, error) {
	defer keepAlive(ctx, nil)()
	res, err := a.Service.DeliverBatch(ctx, in)
	if err != nil {
		return send.DeliverResult{}, err
	}
	if in.SendSmall && len(res.Jobs) > 0 && len(res.Jobs) <= pipeline.MaxSmallSends && !workerStopping(ctx) {
		out, err := a.SendMessages(ctx, send.SendBatchInput{Jobs: res.Jobs})
		if err != nil {
			return send.DeliverResult{}, err
		}
		res.Jobs, res.Sent, res.Failed, res.Retries = nil, out.Sent, out.Failed, out.Retries
	}
	return res, nil
}

// FailRequests records that requests could not be delivered.
func (a *Delivery) FailRequests(ctx context.Context, in send.FailInput) error {
	return a.Service.FailRequests(ctx, in)
}

// RecordGiveUps marks failed the messages whose retries ran out.
func (a *Delivery) RecordGiveUps(ctx context.Context, in send.GiveUpInput) error {
	return a.Service.RecordGiveUps(ctx, in)
}

// DropHeldMessages records that a cancelled run's held messages will never be sent.
func (a *Delivery) DropHeldMessages(ctx context.Context, in send.DropHeldInput) error {
	return a.Service.DropHeldMessages(ctx, in)
}

// workflowID names the run an activity belongs to, for the message log.
func workflowID(ctx context.Context) string {
	if !activity.IsActivity(ctx) {
		return ""
	}
	return activity.GetInfo(ctx).WorkflowExecution.ID
}

// DropHeldStep records that a cancelled run's held step will never be sent.
func (a *Delivery) DropHeldStep(ctx context.Context, in flowrun.DropHeldStepInput) error {
	return a.Service.DropHeldStep(ctx, in)
}

// LoadQueuedJobs returns the next queued external messages of a send run's backlog
// (pipeline.Service.LoadQueuedJobs).
func (a *Delivery) LoadQueuedJobs(ctx context.Context, in send.LoadQueuedInput) (send.LoadQueuedResult, error) {
	return a.Service.LoadQueuedJobs(ctx, in)
}
