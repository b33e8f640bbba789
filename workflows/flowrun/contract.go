// Package flowrun is the interpreter of user-defined workflows (flowdef): one run per
// recipient, walking the step graph durably on Temporal, and the digest collector that
// gathers triggers with the same key. This file is the contract: names, IDs, inputs and the
// activities the interpreter calls.
package flowrun

import (
	"strconv"
	"time"

	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/workflows/contract"
)

// Registered names.
const (
	WorkflowName       = "Flow"
	DigestWorkflowName = "FlowDigest"

	DeliverStepActivity   = "FlowDeliverStep"
	StepStatesActivity    = "FlowStepStates"
	FetchActivity         = "FlowFetch"
	ThrottleActivity      = "FlowThrottle"
	DigestEnqueueActivity = "FlowDigestEnqueue"
	RecordStepActivity    = "FlowRecordStep"
	LoadRunActivity       = "FlowLoadRun"
	FinishRunActivity     = "FlowFinishRun"

	// DigestSignal carries one more trigger to a digest collector.
	DigestSignal = "digest-trigger"
	// InboxStateSignal tells a waiting run that one of its notifications changed state.
	InboxStateSignal = "inbox-state"
)

// WorkflowID names the run of a workflow for one recipient of one send.
func WorkflowID(workflow, requestID, user string) string {
	return "flow/" + workflow + "/" + requestID + "/" + user
}

// DigestWorkflowID names the collector of one digest key.
func DigestWorkflowID(appID int64, workflow, stepID, key string) string {
	return "digest/" + strconv.FormatInt(appID, 10) + "/" + workflow + "/" + stepID + "/" + key
}

// Recipient is the user a run is for.
type Recipient struct {
	UserID     int64
	Identifier string
	Profile    map[string]any
	// Channels are the channels of the topic subscription that reached the user (empty:
	// every channel); channel steps outside them are skipped.
	Channels []string `json:",omitempty"`
}

// Ref names a workflow definition and the version a run executes.
type Ref struct {
	Identifier string
	Version    int
}

// RunInput starts a run. A run keeps the version it started with whatever happens to the
// definition afterwards: either the definition travels in the input, or (runs started by a
// send, whose inputs stay small in the parent's history) the input names the pinned
// version and the run's first activity loads it with the data and the profile.
type RunInput struct {
	AppID     int64
	RequestID string
	// Flow is the flow and version the run executes. Its JSON key stays "Workflow", as
	// every recorded input carries it (so for each Flow field of this file).
	Flow            Ref `json:"Workflow"`
	CancellationKey string
	Category        string
	Definition      flowdef.Definition
	Recipient       Recipient
	Data            map[string]any
	// StartAt is the step to start at; empty means the definition's start. A digest
	// collector continues at the step after the digest.
	StartAt string
	// Batch is the collected digest, for the steps after a digest.
	Batch *Batch
}

// Batch is what a digest collected.
type Batch struct {
	Count int              `json:"count"`
	Items []map[string]any `json:"items"`
}

// RunResult summarises a run.
type RunResult struct {
	// Outcome is completed, digested (handed to a collector), throttled or failed.
	Outcome string
	Steps   []string
}

// DeliverStepInput delivers one channel step to the recipient.
type DeliverStepInput struct {
	AppID     int64
	RequestID string
	Flow      Ref `json:"Workflow"`
	Category  string
	Step      flowdef.Step
	Recipient Recipient
	Data      map[string]any
	Batch     *Batch
	// HoldQuietHours asks the activity to hold a non-critical external step of a recipient
	// in their quiet hours (QuietHoursChange) instead of sending it: the result is held.
	HoldQuietHours bool `json:",omitempty"`
	// Release: the run slept through the quiet hours; the held step is delivered now.
	Release bool `json:",omitempty"`
}

// QuietHoursChange is the workflow.GetVersion change id of runs whose external channel
// steps wait for the recipient's quiet hours: the step's activity answers held (with
// HeldUntil), the run sleeps on a durable timer, then delivers the step (Release). A run
// cancelled while it sleeps drops the step (DropHeldStepActivity).
const QuietHoursChange = "flow-quiet-hours"

// DigestTimeOfDayChange is the workflow.GetVersion change id of digest collectors whose
// step has a timeOfDay: the collector's timer ends at the next such time in the
// recipient's time zone instead of after a window. It is asked only when the step has a
// timeOfDay, so collectors recorded before it (which had none) replay unchanged.
const DigestTimeOfDayChange = "digest-time-of-day"

// DropHeldStepActivity records that a cancelled run's held step will never be sent.
const DropHeldStepActivity = "FlowDropHeldStep"

// DropHeldStepInput names the held step's message log row.
type DropHeldStepInput struct {
	LogID int64
}

// StatusHeld is the DeliverStepResult status of a step held for quiet hours.
const StatusHeld = "held"

// DeliverStepResult is the outcome of a channel step.
type DeliverStepResult struct {
	// Status is sent, skipped or failed; held (HoldQuietHours) when the step waits for the
	// end of the recipient's quiet hours at HeldUntil (Unix ms), its log row being LogID.
	Status string
	Reason string
	// NotificationID is the inbox row an inApp step wrote.
	NotificationID int64
	HeldUntil      int64 `json:",omitempty"`
	LogID          int64 `json:",omitempty"`
}

// StepStatesInput asks for the inbox states of notifications written by earlier steps.
type StepStatesInput struct {
	AppID           int64
	NotificationIDs map[string]int64
}

// FetchInput is one HTTP request of a fetch step (URL, headers and body already expanded).
type FetchInput struct {
	AppID   int64
	URL     string
	Method  string
	Headers map[string]string
	Body    string
	// TimeoutSeconds bounds one attempt.
	TimeoutSeconds int
}

// ThrottleInput counts a run against a key's window.
type ThrottleInput struct {
	AppID         int64
	Key           string
	Limit         int
	WindowSeconds int64
}

// DigestEnqueueInput hands a trigger to the collector of its key, starting it if needed.
type DigestEnqueueInput struct {
	CollectorID string
	Collector   DigestInput
	Trigger     Trigger
}

// DigestInput starts a collector: the run to continue after collecting and the digest step.
type DigestInput struct {
	Run  RunInput
	Step flowdef.Step
	// Pending are triggers already collected when the collector starts: those that arrived
	// while the previous collector of the key walked the steps after its digest (it
	// continues as new with them rather than drop them).
	Pending []Trigger `json:",omitempty"`
}

// Trigger is one collected event.
type Trigger struct {
	RequestID string
	Data      map[string]any
}

// InboxState is the payload of InboxStateSignal.
type InboxState struct {
	NotificationID int64
	State          flowdef.StepState
}

// StepRecord is one line of the workflow log.
type StepRecord struct {
	AppID     int64
	RequestID string
	Flow      Ref `json:"Workflow"`
	User      string
	StepID    string
	StepType  string
	// Outcome: sent, skipped, failed, waited, branched, fetched, throttled, digested, passed.
	Outcome string
	Detail  string
	// Data is the run's data when the step ran, recorded (capped) as the step's input with
	// the recipient's identifier. It travels in the local activity's input only, never in
	// the history, so runs recorded before it replay unchanged.
	Data map[string]any `json:",omitempty"`
	// Batch is the digest's batch the steps after a digest see.
	Batch *Batch `json:",omitempty"`
	// Evaluation is what a branch compared or what released a waitForRead.
	Evaluation *Evaluation `json:",omitempty"`
}

// Evaluation is how a control step decided, as the run timeline shows it.
type Evaluation struct {
	Branch *BranchEvaluation `json:"branch,omitempty"`
	Wait   *WaitEvaluation   `json:"wait,omitempty"`
}

// BranchEvaluation is which condition of a branch matched (Matched: its index, -1 for the
// else path) and, for each condition evaluated, the values it compared.
type BranchEvaluation struct {
	Matched    int                   `json:"matched"`
	Next       string                `json:"next"`
	Conditions []ConditionEvaluation `json:"conditions"`
}

// ConditionEvaluation is one condition of a branch as the run evaluated it.
type ConditionEvaluation struct {
	Index       int                  `json:"index"`
	Next        string               `json:"next"`
	Result      bool                 `json:"result"`
	Comparisons []flowdef.Comparison `json:"comparisons"`
}

// Releases of a waitForRead (WaitEvaluation.Released).
const (
	// ReleasedByEvent: an inbox event (the inbox-state signal) reached the wanted state.
	ReleasedByEvent = "inboxEvent"
	// ReleasedAlready: the notification was already in the wanted state when the wait began.
	ReleasedAlready = "alreadyInState"
	// ReleasedAtTimeout: no event came, but the state read once more at the timeout had it.
	ReleasedAtTimeout = "stateAtTimeout"
	// ReleasedTimedOut: the timeout passed without the wanted state.
	ReleasedTimedOut = "timedOut"
	// ReleasedNoNotification: the step it waits on wrote no notification (skipped, failed).
	ReleasedNoNotification = "noNotification"
)

// WaitEvaluation is what released a waitForRead: the state it waited for, how it ended
// (Released*), when (workflow time), the notification watched and the state last known.
type WaitEvaluation struct {
	Step           string            `json:"step"`
	State          string            `json:"state"`
	Timeout        string            `json:"timeout"`
	Released       string            `json:"released"`
	At             time.Time         `json:"at"`
	NotificationID int64             `json:"notificationId,omitempty"`
	Observed       flowdef.StepState `json:"observed"`
}

// LoadRunInput names what a run started by a send loads.
type LoadRunInput struct {
	AppID      int64
	RequestID  string
	Flow       Ref `json:"Workflow"`
	UserID     int64
	WorkflowID string
}

// LoadedRun is the definition version, the send's data and category, and the recipient's
// profile; Cancelled is set when the run was cancelled before it started.
type LoadedRun struct {
	Definition flowdef.Definition
	Data       map[string]any
	Category   string
	Profile    map[string]any
	Cancelled  bool
}

// FinishRunInput records how a run ended (in flow_runs).
type FinishRunInput struct {
	AppID      int64
	WorkflowID string
	Outcome    string
}

// The interpreter's activities, as typed descriptors (workflows/contract): the workflows
// call them and the worker registers them through these, under the durable names above.
var (
	DeliverStep      = contract.Define[DeliverStepInput, DeliverStepResult](DeliverStepActivity)
	DropHeldStep     = contract.DefineAction[DropHeldStepInput](DropHeldStepActivity)
	StepStates       = contract.Define[StepStatesInput, map[string]flowdef.StepState](StepStatesActivity)
	Fetch            = contract.Define[FetchInput, map[string]any](FetchActivity)
	Throttle         = contract.Define[ThrottleInput, bool](ThrottleActivity)
	DigestEnqueue    = contract.DefineAction[DigestEnqueueInput](DigestEnqueueActivity)
	RecordStep       = contract.DefineAction[StepRecord](RecordStepActivity)
	LoadRun          = contract.Define[LoadRunInput, LoadedRun](LoadRunActivity)
	FinishRun        = contract.DefineAction[FinishRunInput](FinishRunActivity)
	FlowScheduleSend = contract.Define[FlowScheduleSendInput, string](FlowScheduleSendActivity)
)
