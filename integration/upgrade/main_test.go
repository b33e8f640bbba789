// Package upgrade is the rolling-upgrade test (issue 34, item 8): the previous release's
// `herald worker` and `herald api`, built from its commit, and the current ones run side by
// side on one Postgres and one Temporal while sends are in flight, as a rolling upgrade
// does; the old processes stop halfway, and every send must be delivered exactly once. It
// runs with `make test-upgrade` and is skipped by a plain `go test ./...`; the procedure it
// follows is docs/deployment.md's "Rolling upgrades".
package upgrade

import (
	"os"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestMain(m *testing.M) {
	code := proctest.Main(m)
	stacktest.StopShared()
	os.Exit(code)
}
