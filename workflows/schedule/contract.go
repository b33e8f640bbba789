// Package schedule is the workflow that holds a scheduled send until its time: a durable
// timer in Temporal, then the send workflow as a child. This file is its contract.
package schedule

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/heraldhq/herald/workflows/contract"
)

// Registered names.
const (
	WorkflowName          = "Schedule"
	LoadActivityName      = "LoadSchedule"
	BeginSendActivityName = "BeginScheduledSend"
)

// SendTypeChange is the workflow.GetVersion change id of the send workflow type a schedule
// starts when its time comes: version 2 the current type (send.WorkflowName), version 1
// send.WorkflowV2Name, and schedules that began before the change send.WorkflowV1Name, as
// their histories say.
const SendTypeChange = "send-v2"

// WorkflowID names the schedule of a request.
func WorkflowID(requestID uuid.UUID) string { return "schedule/" + requestID.String() }

// IsWorkflowID reports whether id names a schedule workflow.
func IsWorkflowID(id string) bool { return strings.HasPrefix(id, "schedule/") }

// RequestIDOf returns the request a schedule workflow id names.
func RequestIDOf(workflowID string) (uuid.UUID, error) {
	return uuid.Parse(strings.TrimPrefix(workflowID, "schedule/"))
}

// Input starts a schedule.
type Input struct {
	RequestID uuid.UUID
}

// Loaded is what the schedule needs from the database.
type Loaded struct {
	SendAt time.Time
	// Cancelled is set when the send was cancelled before its schedule started.
	Cancelled bool
}

// The schedule workflow's activities, as typed descriptors (workflows/contract).
var (
	LoadSchedule       = contract.Define[uuid.UUID, Loaded](LoadActivityName)
	BeginScheduledSend = contract.Define[uuid.UUID, bool](BeginSendActivityName)
)
