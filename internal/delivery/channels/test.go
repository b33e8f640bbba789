package channels

import (
	"context"
	"encoding/json"
	"time"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/internal/providers"
)

// testTimeout bounds a connection test (the provider's own timeout may be shorter).
const testTimeout = 20 * time.Second

// Results of a connection test.
const (
	TestPassed      = "passed"
	TestUnsupported = "not supported"
)

// test runs the provider's connection test on a validated configuration when asked: a
// failure is a 400 naming the provider's answer.
func (s *Service) test(ctx context.Context, run bool, kind providers.Kind, config map[string]json.RawMessage) (string, error) {
	if !run {
		return "", nil
	}
	if kind.New == nil {
		return TestUnsupported, nil
	}
	raw, _ := json.Marshal(config)
	p, err := kind.New(raw, s.deps)
	if err != nil {
		return "", herald.Invalid("config: connection test failed: " + err.Error())
	}
	t, ok := p.(providers.Tester)
	if !ok {
		return TestUnsupported, nil
	}
	ctx, cancel := context.WithTimeout(ctx, testTimeout)
	defer cancel()
	if err := t.Test(ctx); err != nil {
		return "", herald.Invalid("config: connection test failed: " + err.Error())
	}
	return TestPassed, nil
}
