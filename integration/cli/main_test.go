// Package cli_test runs the herald binary's client commands (docs/cli.md) against a real
// stack: the API with the worker and relay on the Temporal dev server, real Postgres.
package cli_test

import (
	"os"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) {
	os.Exit(proctest.Main(runStack{m}))
}

// runStack runs the tests through stacktest.Main (which stops the shared Temporal server).
type runStack struct{ m *testing.M }

func (r runStack) Run() int { return stacktest.Main(r.m) }
