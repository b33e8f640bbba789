package herald

import (
	"encoding/json"
	"time"
)

// Limits of a send request.
const (
	// MaxInlineRecipients caps sendTo.recipients plus the deprecated recipients; larger
	// audiences go through topics.
	MaxInlineRecipients = 50000
	// MaxIdentifierLength caps a user identifier.
	MaxIdentifierLength = 255
	// MaxTopics caps sendTo.topics.
	MaxTopics = 100
	// MaxSchedule is how far ahead sendAt may be.
	MaxSchedule = 366 * 24 * time.Hour
	// MaxIdempotencyKeyLength caps the Idempotency-Key header.
	MaxIdempotencyKeyLength = 255
)

// SendRequest is a validated, normalised send request: the form stored in the outbox
// (notification_requests.payload) and read by delivery. internal/send parses and
// accepts it; its JSON is durable.
type SendRequest struct {
	Notification Content         `json:"notification"`
	Recipients   []Recipient     `json:"recipients,omitempty"`
	Topics       []string        `json:"topics,omitempty"`
	Data         json.RawMessage `json:"data,omitempty"`
	Override     *Override       `json:"override,omitempty"`
	// SendAt delays the send to a moment in the future (a scheduled notification).
	SendAt *time.Time `json:"sendAt,omitempty"`
	// CreateCategory is set when the category came from the deprecated top-level field, which
	// creates a missing category.
	CreateCategory bool `json:"createCategory,omitempty"`
}

// Content is the notification object of a send request: inline content, or the template
// or the flow that makes it.
type Content struct {
	Title              string          `json:"title,omitempty"`
	Message            string          `json:"message,omitempty"`
	Icon               string          `json:"icon,omitempty"`
	URL                string          `json:"url,omitempty"`
	Blocks             json.RawMessage `json:"blocks,omitempty"`
	Category           string          `json:"category,omitempty"`
	TemplateIdentifier string          `json:"templateIdentifier,omitempty"`
	// Flow names the flow to run per recipient (the API's notification.workflow).
	Flow *FlowRef `json:"workflow,omitempty"`
}

// FlowRef names a flow (a user-defined workflow: "workflow" in the API) to run per
// recipient, and the key that cancels its runs.
type FlowRef struct {
	Identifier      string `json:"identifier"`
	CancellationKey string `json:"cancellationKey,omitempty"`
}

// Recipient is one user named in a send: its identifier and, for inline user objects, the
// profile fields to store on it.
type Recipient struct {
	Identifier string          `json:"identifier"`
	Profile    json.RawMessage `json:"profile,omitempty"`
}

// Override replaces delivery configuration for one send.
type Override struct {
	Channels []string `json:"channels,omitempty"`
	// Raw is the whole override object, for channel and provider specific settings.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// DecodeSendRequest reads a stored send request (notification_requests.payload, the JSON
// that internal/send's Parse produced and the outbox stored) into req. It is the one reader
// of that payload: delivery, flow runs and the schedule list all load a request through
// it, so they see the same defaults. A payload that does not decode is an EINVALID error
// saying so, with the decoder's message as its cause, and leaves req zero. Like
// json.Unmarshal it fills the caller's value, so a request kept inside a larger struct
// (the delivery pipeline's send cache) costs no allocation of its own.
func DecodeSendRequest(payload []byte, req *SendRequest) error {
	if err := json.Unmarshal(payload, req); err != nil {
		*req = SendRequest{}
		return &Error{Code: EINVALID, Message: "stored request is unreadable", Err: err}
	}
	// A JSON null is no value: the stored form omits empty members, and readers test length.
	if isNull(req.Data) {
		req.Data = nil
	}
	if isNull(req.Notification.Blocks) {
		req.Notification.Blocks = nil
	}
	if req.Override != nil && isNull(req.Override.Raw) {
		req.Override.Raw = nil
	}
	return nil
}

func isNull(raw json.RawMessage) bool { return string(raw) == "null" }
