// Package sdk_test runs Herald's official SDKs against a real stack: the API with the
// worker and relay on the Temporal dev server, real Postgres (issue 35). The Go SDK is the
// nested module sdk/go, imported through the replace directive of the root go.mod.
package sdk_test

import (
	"os"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) { os.Exit(stacktest.Main(m)) }
