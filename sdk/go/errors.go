package herald

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// APIError is an answer of the API with a status of 400 or more.
type APIError struct {
	// Status is the HTTP status code.
	Status int
	// Message is the API's message; for a 400 the problems joined with "; ".
	Message string
	// Problems lists every problem of a 400 answer (the API's message list), one per
	// violated rule; empty for other statuses.
	Problems []string
	// RequestID is set on 5xx answers: look it up in the server's log.
	RequestID string
	// RetryAfter is the wait the API asked for on a 429 (Retry-After), zero otherwise.
	RetryAfter time.Duration
	// Body is the raw answer.
	Body []byte
}

// Error describes the answer.
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = strings.TrimSpace(string(e.Body))
	}
	if e.RequestID != "" {
		return fmt.Sprintf("herald: %d %s (request id %s)", e.Status, msg, e.RequestID)
	}
	return fmt.Sprintf("herald: %d %s", e.Status, msg)
}

// Temporary reports whether the request may succeed when retried (429 and 5xx).
func (e *APIError) Temporary() bool { return e.Status == 429 || e.Status >= 500 }

// newAPIError reads an error answer: {"status":"error","message":"…" or ["…"],"requestId":"…"}.
func newAPIError(status int, body []byte, retryAfter time.Duration) *APIError {
	e := &APIError{Status: status, Body: body, RetryAfter: retryAfter}
	var env struct {
		Message   json.RawMessage `json:"message"`
		RequestID string          `json:"requestId"`
	}
	if json.Unmarshal(body, &env) != nil {
		return e
	}
	e.RequestID = env.RequestID
	var list []string
	if json.Unmarshal(env.Message, &list) == nil {
		e.Problems = list
		e.Message = strings.Join(list, "; ")
		return e
	}
	_ = json.Unmarshal(env.Message, &e.Message)
	return e
}
