package stack

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.temporal.io/api/serviceerror"

	"github.com/heraldhq/herald/workflows/visibility"
)

// searchAttributes remembers that this process registered Herald's search attributes.
type searchAttributes struct {
	mu   sync.Mutex
	done bool
}

// EnsureSearchAttributes registers Herald's search attributes (HeraldAppId,
// HeraldRequestId, HeraldWorkflow, HeraldRecipient) on the configured namespace, retrying
// until Temporal answers or ctx ends. Workflow starts naming an attribute the namespace
// lacks fail, so the relay and the worker call it before they begin; it is idempotent and
// asks Temporal only until it succeeded once in this process. Credentials not allowed to
// register them are logged and skipped: the operator registers them (docs/operations.md).
func (s *Stack) EnsureSearchAttributes(ctx context.Context) error {
	s.searchAttrs.mu.Lock()
	defer s.searchAttrs.mu.Unlock()
	wait := 500 * time.Millisecond
	for !s.searchAttrs.done {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := visibility.Register(rctx, s.Temporal, s.Cfg.TemporalNamespace)
		cancel()
		if err == nil {
			s.searchAttrs.done = true
			break
		}
		var denied *serviceerror.PermissionDenied
		if errors.As(err, &denied) {
			// Credentials that may not manage the namespace (Temporal Cloud, a restricted
			// cluster): the operator adds the attributes; a start without them says so.
			s.Log.Warn("not allowed to register search attributes; add them with `temporal operator search-attribute create` (docs/operations.md)",
				"namespace", s.Cfg.TemporalNamespace, "error", err)
			s.searchAttrs.done = true
			break
		}
		s.Log.Warn("cannot register search attributes yet; retrying (an operator can add them with `temporal operator search-attribute create`, see docs/operations.md)",
			"namespace", s.Cfg.TemporalNamespace, "retryIn", wait, "error", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(2*wait, 10*time.Second)
	}
	return nil
}
