package pipeline

import (
	"fmt"
	"time"
)

// Failure is how a delivery call failed, for the activities to report to Temporal: a
// Permanent failure is not retried (a provider refused for good, the content cannot be
// rendered, the row is gone); any other is retried, after RetryAfter when set (a provider's
// Retry-After, another attempt's lease). Type names the kind (errProvider, errContent,
// errBusy), as Temporal shows it.
type Failure struct {
	Message    string
	Type       string
	Permanent  bool
	RetryAfter time.Duration
	Cause      error
}

// Error reads as Temporal's application errors do: the message, the type and whether it
// is retried, then the cause.
func (f *Failure) Error() string {
	msg := f.Message
	if f.Type != "" {
		msg = fmt.Sprintf("%s (type: %s, retryable: %v)", msg, f.Type, !f.Permanent)
	}
	if f.Cause != nil {
		msg = fmt.Sprintf("%s: %v", msg, f.Cause)
	}
	return msg
}

// Unwrap returns the cause.
func (f *Failure) Unwrap() error { return f.Cause }

// permanent is a failure that retrying cannot change.
func permanent(message, typ string, cause error) *Failure {
	return &Failure{Message: message, Type: typ, Permanent: true, Cause: cause}
}
