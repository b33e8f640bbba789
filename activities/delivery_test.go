package activities

import (
	"errors"
	"testing"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/heraldhq/herald/internal/delivery/pipeline"
)

// The adapters report the pipeline's failures to Temporal as the activities always did: a
// permanent one is not retried, another is retried after its RetryAfter, with the same
// type and text; any other error passes through (the activity's policy retries it).
func TestFailuresMapToTemporalRetrySemantics(t *testing.T) {
	cause := errors.New("bad uuid")
	var app *temporal.ApplicationError
	err := retryable(&pipeline.Failure{Message: "bad request id x", Type: "ContentError", Permanent: true, Cause: cause})
	if !errors.As(err, &app) || !app.NonRetryable() || app.Type() != "ContentError" || !errors.Is(err, cause) {
		t.Fatalf("permanent: %v", err)
	}
	f := &pipeline.Failure{Message: "429", Type: "ProviderError", RetryAfter: 7 * time.Second}
	err = retryable(f)
	if !errors.As(err, &app) || app.NonRetryable() || app.NextRetryDelay() != 7*time.Second || err.Error() != f.Error() {
		t.Fatalf("retry after: %v", err)
	}
	plain := errors.New("connection refused")
	if retryable(plain) != plain || retryable(nil) != nil {
		t.Fatal("other errors pass through")
	}
}
