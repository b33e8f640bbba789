// Package integration holds end-to-end tests: the real API, worker and relay against real
// Postgres and the real Temporal dev server, driven over HTTP.
package integration

import (
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { stacktest.Main(m) }
