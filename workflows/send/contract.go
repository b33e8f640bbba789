// Package send is the workflow that delivers accepted send requests. This file is its
// contract: names, IDs and inputs shared with the relay that starts it and with the
// activities it runs.
package send

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/workflows/contract"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// WorkflowName is the registered name of the send workflow's current type (Workflow),
// which the relay and scheduled sends start: every versioned change below is in force in
// its runs without a version marker, and a run's first slice is a local activity (see
// LocalSliceSize).
const WorkflowName = "SendV3"

// WorkflowV2Name is the send workflow's second type (WorkflowV2), which runs started
// before WorkflowName have: every change but ExternalAfterInAppChange in force without a
// marker (that one asked when it first applies), and every slice an activity. It continues
// as new as itself.
const WorkflowV2Name = "SendV2"

// LocalSliceSize bounds the recipients of a run's first DeliverBatch call in runs of
// WorkflowName, which runs it as a local activity inside the run's first workflow task:
// a pack of single sends (at most the relay's 100 requests) is then delivered with one
// workflow task and no activity task, a scheduled, a started and a completed event fewer
// and a round trip through the server fewer before its inbox rows are written (issue 28:
// on the Temporal cluster an activity and a workflow task were most of the server's work
// for a single send). A larger send's first slice stops at this many; its later slices
// are activities of the usual size, heartbeating.
const LocalSliceSize = 100

// RampSliceSize bounds the recipients of a run's second DeliverBatch call (its first as an
// activity) in runs of WorkflowName; the later calls take the worker's usual size. A
// broadcast's start is when everything it set off begins at once (its run, its first
// slice, its first email batches, and the sends of the same app's backend beside it), and
// a full slice read and decided in one go then came on top of it: the ramp keeps that
// moment's slice small and leaves the full ones for a second later (issue 28). A retried
// or replayed call may take a different size: nothing depends on it but the cursors the
// call returns.
const RampSliceSize = 1000

// WorkflowV1Name is the send workflow's first type (WorkflowV1), which runs started before
// WorkflowName have: it keeps the workflow.GetVersion calls of the changes below, so those
// runs replay, and continues as new as itself. Scheduled sends whose schedule began before
// the change (SendTypeChange of package schedule) start it too.
const WorkflowV1Name = "Send"

// DeliverActivityName delivers a bounded slice of recipients of one or more requests.
const DeliverActivityName = "DeliverBatch"

// FailActivityName marks requests failed when delivery cannot go on.
const FailActivityName = "FailRequests"

// SendActivityName delivers one recipient × channel through the channel's providers.
const SendActivityName = "SendMessage"

// SendBatchActivityName delivers a batch of queued messages of one channel: runs of the
// batched version (see BatchedDeliveryChange) use it instead of SendMessage.
const SendBatchActivityName = "SendMessages"

// BatchedDeliveryChange is the workflow.GetVersion change id of batched external delivery:
// runs started before it (version workflow.DefaultVersion) keep one SendMessage activity
// per message, so their histories replay.
const BatchedDeliveryChange = "batched-external-delivery"

// InAppFirstChange is the workflow.GetVersion change id of runs whose in-app rows never
// wait for external channels: they keep resolving slices while external messages wait, and
// the messages beyond what the run queues stay queued in the message log (a Backlog) until
// LoadQueuedActivityName brings them back as the queue drains. Runs of earlier versions
// stop resolving while maxQueuedJobs messages wait.
const InAppFirstChange = "inapp-first"

// QuietHoursChange is the workflow.GetVersion change id of runs that hold external
// messages for their recipients' quiet hours: DeliverBatch returns such messages as Held
// groups (status held in the message log), and the run releases each group on a durable
// timer when its quiet hours end. Runs of earlier versions never ask DeliverBatch to hold
// (DeliverInput.HoldQuietHours), so their recorded histories replay unchanged.
const QuietHoursChange = "quiet-hours"

// ChannelHoldChange is the workflow.GetVersion change id of runs that hold a channel's
// queue while its provider is unavailable: once a batch of a channel comes back with
// messages held (Retry.Hold: every route's circuit breaker open) and none sent, the run
// starts no further batch of that channel until the earliest of their retry times, and its
// other queued messages of the channel wait on the same timer. Runs of earlier versions
// send every queued batch, each coming back held at once: a broadcast's hundred batches
// of a hung provider's email cost a hundred activities within a second of the breaker
// opening, which loaded the Temporal server every other app's runs wait on (issue 28).
const ChannelHoldChange = "channel-hold"

// SharedHoldChange is the workflow.GetVersion change id of runs that learn a channel's hold
// from DeliverBatch: the activity reports the channels whose every enabled instance of the
// app has an open circuit breaker (DeliverResult.Holds, asked by DeliverInput.HoldChannels),
// and the run holds its new messages of those channels until the earliest cool-down ends
// (as ChannelHoldChange does after a batch came back held). Runs of earlier versions send a
// batch to learn it, one activity per run: while a hung provider's breaker was open, every
// new run of its app paid an activity and a workflow task for nothing (issue 28).
const SharedHoldChange = "shared-hold"

// ExternalAfterInAppChange is the workflow.GetVersion change id of runs that write a
// broadcast's inbox rows before they start its external batches: while slices are left to
// resolve and the last one wrote inbox rows, the run resolves the next slice and starts no
// batch (its external messages wait in the queue or the message log's backlog). The run
// asks for the version only when that first happens, so single sends, and broadcasts
// without in-app messages, carry no marker. Runs of earlier versions started a
// broadcast's first eight batches with its first slice: their claims, the provider's
// connections and the inbox writes of the next slices all came in the same half-second,
// and every other app's commits waited behind them (issue 28).
const ExternalAfterInAppChange = "external-after-inapp"

// DropHeldActivityName records that a cancelled run's held messages will never be sent
// (QuietHoursChange).
const DropHeldActivityName = "DropHeldMessages"

// DropHeldInput names the held messages of a cancelled run.
type DropHeldInput struct {
	LogIDs []int64
}

// LoadQueuedActivityName loads the next messages of a run's Backlog from the message log.
const LoadQueuedActivityName = "LoadQueuedJobs"

// GiveUpActivityName records the messages whose retries ran out.
const GiveUpActivityName = "RecordGiveUps"

// WorkflowID names the run that carries a group of requests: send/<id> for one request,
// sends/<first id> for a pack of several (docs/delivery.md).
func WorkflowID(requestIDs []uuid.UUID) string {
	if len(requestIDs) == 1 {
		return "send/" + requestIDs[0].String()
	}
	return "sends/" + requestIDs[0].String()
}

// IsSendWorkflowID reports whether id names a send workflow.
func IsSendWorkflowID(id string) bool {
	return strings.HasPrefix(id, "send/") || strings.HasPrefix(id, "sends/")
}

// Input starts (or continues) a send run.
type Input struct {
	// Cursors are the requests still to deliver and where each stands.
	Cursors []Cursor
	// Jobs are external deliveries decided by an earlier run and not started yet.
	Jobs []Job `json:",omitempty"`
	// Runs are runs of user-defined workflows decided by an earlier run and not started yet.
	Runs []flowrun.RunInput `json:",omitempty"`
	// Backlog names the external deliveries left queued in the message log rather than
	// in Jobs (InAppFirstChange).
	Backlog *Backlog `json:",omitempty"`
	// Held are the messages waiting for their recipients' quiet hours to end
	// (QuietHoursChange), carried across continue-as-new.
	Held []Held `json:",omitempty"`
}

// Held is a group of external messages of one channel held for quiet hours until the same
// moment (Until, Unix milliseconds): many recipients in the same time zone and window share
// one group, so a run holding thousands of messages carries a few small groups.
type Held struct {
	Until   int64
	Channel string
	LogIDs  []int64
}

// Backlog is where a run's external deliveries wait in the message log instead of in the
// run: the queued rows of its requests from FromLogID on, in id order. Slices are resolved
// one at a time and each writes ids above every earlier one, so the rows at or past
// FromLogID are exactly the ones the run has not handed to a batch yet.
type Backlog struct {
	RequestIDs []uuid.UUID
	FromLogID  int64
}

// LoadQueuedInput asks for up to Limit messages of a backlog.
type LoadQueuedInput struct {
	Backlog Backlog
	Limit   int
}

// LoadQueuedResult is the next messages of a backlog, in id order.
type LoadQueuedResult struct {
	Jobs []Job `json:",omitempty"`
}

// NewInput starts every request at its first recipient.
func NewInput(requestIDs []uuid.UUID) Input {
	in := Input{Cursors: make([]Cursor, len(requestIDs))}
	for i, id := range requestIDs {
		in.Cursors[i] = Cursor{RequestID: id}
	}
	return in
}

// Cursor is one request's progress through its recipients: first the inline recipients,
// then the members of each topic in turn, paged by user id so a topic of millions is read
// with bounded memory and history.
type Cursor struct {
	RequestID uuid.UUID
	// Offset is the number of inline recipients already delivered.
	Offset int
	// Topic is the index in the request's topics of the topic being paged; it counts only
	// once the inline recipients are done.
	Topic int `json:",omitempty"`
	// AfterUser is the last user id delivered in that topic (keyset paging).
	AfterUser int64 `json:",omitempty"`
	// FlowVersion is the version of the user-defined workflow a send naming one runs,
	// pinned by its first slice so every recipient runs the same version; FlowUnavailable
	// when the workflow or its published version is missing (the send fails).
	FlowVersion int32 `json:",omitempty"`
}

// FlowUnavailable marks a send whose workflow cannot run.
const FlowUnavailable = -1

// DeliverInput asks for the next slice of work of some requests.
type DeliverInput struct {
	Cursors []Cursor
	// SendSmall asks the activity to send the slice's external messages itself when they
	// are few (a pack of single-recipient sends): one activity instead of two. Set by
	// batched runs only.
	SendSmall bool `json:",omitempty"`
	// Spill tells the activity that the run leaves its external messages in the message
	// log (its backlog): the result names only the first of them (SpillFrom) and their
	// count, not every job, so the run's history carries each job once (InAppFirstChange).
	Spill bool `json:",omitempty"`
	// HoldQuietHours asks the activity to hold the non-critical external messages of
	// recipients in their quiet hours and return them as Held (QuietHoursChange).
	HoldQuietHours bool `json:",omitempty"`
	// HoldChannels asks the activity to report the channels held by open circuit breakers
	// (DeliverResult.Holds), and to note the hold on their new messages (SharedHoldChange).
	HoldChannels bool `json:",omitempty"`
	// Limit, when set, bounds the call's recipients below the worker's own slice size: a
	// run's first call, a local activity, resolves at most LocalSliceSize.
	Limit int `json:",omitempty"`
}

// DeliverResult tells the workflow what is left. Requests that completed or failed are not
// in Pending.
type DeliverResult struct {
	Pending   []Cursor
	Delivered int
	// Jobs are the external deliveries of the slice, queued in the message log.
	Jobs []Job `json:",omitempty"`
	// Sent, Failed and Retries are the outcomes of the external deliveries the activity
	// sent itself (SendSmall), as SendBatchResult has them; those are not in Jobs.
	Sent, Failed int     `json:",omitempty"`
	Retries      []Retry `json:",omitempty"`
	// Runs are the runs of user-defined workflows to start for the slice's recipients of
	// sends naming a workflow (small inputs: each run loads its definition and data).
	Runs []flowrun.RunInput `json:",omitempty"`
	// Spilled counts the external messages left queued in the message log instead of in
	// Jobs (DeliverInput.Spill); SpillFrom is the least of their log ids.
	Spilled   int   `json:",omitempty"`
	SpillFrom int64 `json:",omitempty"`
	// Held are the slice's messages held for quiet hours (DeliverInput.HoldQuietHours),
	// neither in Jobs nor in the backlog: the run queues them when their group's time comes.
	Held []Held `json:",omitempty"`
	// Holds are the channels whose every enabled instance has an open circuit breaker, each
	// with the earliest end of their cool-downs (Unix ms): the run starts no batch of them
	// until then (DeliverInput.HoldChannels).
	Holds map[string]int64 `json:",omitempty"`
}

// Job is one external delivery: a queued message log row (recipient × channel). The
// activity loads everything else from it, so jobs stay small in workflow history.
type Job struct {
	LogID   int64
	Channel string
	// Attempts counts the batches that tried the message and left it to retry; Since is when
	// the first of them ended and Due when the next may start (Unix milliseconds, workflow
	// time). Zero for a message not tried yet (and in runs of the unbatched version).
	Attempts int   `json:",omitempty"`
	Since    int64 `json:",omitempty"`
	Due      int64 `json:",omitempty"`
	// Held marks a message waiting for its channel's provider (Retry.Hold, or the channel's
	// hold): runs of ChannelHoldChange send it as soon as a batch of its channel gets
	// through, rather than at Due.
	Held bool `json:",omitempty"`
}

// SendBatchInput is a batch of queued messages of one channel.
type SendBatchInput struct {
	Jobs []Job
}

// SendBatchResult is what a batch came to. Messages sent or failed for good are in the
// message log and only counted here, so the result stays small; the others come back to
// be retried.
type SendBatchResult struct {
	Sent, Failed int
	Retries      []Retry `json:",omitempty"`
}

// Retry is a message left queued by a transient failure.
type Retry struct {
	LogID   int64
	Channel string
	// After is the least wait before the next attempt: a provider's Retry-After, or the
	// lease of another attempt holding the message. Zero means the usual backoff.
	After time.Duration `json:",omitempty"`
	// Error is the failure (shortened), kept for the message log when retries run out.
	Error string `json:",omitempty"`
	// Hold: the message was not tried, every route's circuit breaker being open; it waits
	// for After without counting an attempt or its retry window (nothing is dropped while
	// a provider is down).
	Hold bool `json:",omitempty"`
}

// SendResult is what a delivered job reports.
type SendResult struct {
	// Status is the message log status after the attempt: sent, or the status a previous
	// attempt already reached.
	Status   string
	Provider string `json:",omitempty"`
}

// GiveUpInput names the jobs whose retries ran out, with the last error seen.
type GiveUpInput struct {
	LogIDs []int64
	Reason string
	// Backlog, when set, gives up the queued messages of a run's backlog too.
	Backlog *Backlog `json:",omitempty"`
}

// FailInput names requests to mark failed and why.
type FailInput struct {
	RequestIDs []uuid.UUID
	Reason     string
}

// The send workflow's activities, as typed descriptors (workflows/contract): the workflow
// calls them and the worker registers them through these, under the durable names above.
var (
	DeliverBatch     = contract.Define[DeliverInput, DeliverResult](DeliverActivityName)
	FailRequests     = contract.DefineAction[FailInput](FailActivityName)
	SendMessage      = contract.Define[Job, SendResult](SendActivityName)
	SendMessages     = contract.Define[SendBatchInput, SendBatchResult](SendBatchActivityName)
	RecordGiveUps    = contract.DefineAction[GiveUpInput](GiveUpActivityName)
	DropHeldMessages = contract.DefineAction[DropHeldInput](DropHeldActivityName)
	LoadQueuedJobs   = contract.Define[LoadQueuedInput, LoadQueuedResult](LoadQueuedActivityName)
)
