package integration

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	commonpb "go.temporal.io/api/common/v1"
	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/proxy"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/platform/temporalcodec"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	"github.com/heraldhq/herald/workflows/flowrun"
)

// A run started under one key finishes after the keys rotate: the worker of a restarted
// stack, configured with a new key first and the old one kept, replays the run's history
// (written under the old key), takes the inbox signal and writes what follows under the new
// key.
func TestKeyRotationWhileARunWaits(t *testing.T) {
	key := func() string { return base64.StdEncoding.EncodeToString([]byte(secrets.HexToken(16))) }
	oldKey, newKey := key(), key()
	ids := runAcrossRestart(t,
		func(c *config.Config) { c.Codec.Keys = "old=" + oldKey },
		func(c *config.Config) { c.Codec.Keys = "new=" + newKey + ",old=" + oldKey })
	if ids["old"] == 0 || ids["new"] == 0 || len(ids) != 2 {
		t.Errorf("payloads by key id: %v, want some under old (before the rotation) and some under new (after)", ids)
	}
}

// The upgrade from a version without encryption: a run started by a process that writes
// plain payloads (the old version, or HERALD_TEMPORAL_ENCRYPT=false) finishes on one that
// encrypts, its history holding both.
func TestUpgradeToEncryptionWhileARunWaits(t *testing.T) {
	var derived string
	ids := runAcrossRestart(t,
		func(c *config.Config) { c.Codec.Encrypt = false },
		func(c *config.Config) {
			k, err := temporalcodec.DeriveKey(c.SecretKey)
			if err != nil {
				t.Fatal(err)
			}
			derived = k.ID
		})
	if ids[""] == 0 || ids[derived] == 0 || len(ids) != 2 {
		t.Errorf("payloads by key id: %v, want plain ones (\"\") before the upgrade and some under %s after", ids, derived)
	}
}

// runAcrossRestart starts a flow run that waits for a read on a stack configured by first,
// stops that stack, reads the notification on a stack of the same database, task queue and
// secret key configured by second, and returns the run's payloads counted by key id ("" for
// plain). The run waits for a read, so nothing depends on timing.
func runAcrossRestart(t *testing.T, first, second func(*config.Config)) map[string]int {
	t.Helper()
	dbURL := dbtest.URL(t)
	secret := secrets.Token(32)
	queue := "herald-restart-" + secrets.HexToken(4)
	configure := func(then func(*config.Config)) func(*config.Config) {
		return func(c *config.Config) {
			c.DatabaseURL, c.SecretKey, c.TaskQueue = dbURL, secret, queue
			then(c)
		}
	}
	var req string
	var app apps.Credentials
	wf := func() string { return flowrun.WorkflowID("approval", req, "rot") }
	t.Run("before", func(t *testing.T) {
		e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: configure(first)})
		app = e.App
		publishWorkflow(t, e, "approval", `{"steps":[
			{"id":"ask","type":"inApp","content":{"title":"Please approve"},"next":"wait"},
			{"id":"wait","type":"waitForRead","step":"ask","timeout":"1h","next":"thanks","timeoutNext":"late"},
			{"id":"thanks","type":"inApp","content":{"title":"Thanks {{data.n}}"}},
			{"id":"late","type":"inApp","content":{"title":"Too late"}}]}`)
		req = sendNotification(t, e, `{"notification":{"workflow":{"identifier":"approval"}},"sendTo":{"recipients":[{"identifier":"rot","email":"rot@example.com"}]},"data":{"n":"7"}}`)
		e.Eventually(60*time.Second, "the run to wait for the read", func() bool {
			it := e.Stack.Temporal.GetWorkflowHistory(context.Background(), wf(), "", false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
			for it.HasNext() {
				ev, err := it.Next()
				if err != nil {
					return false // not started yet
				}
				if ev.GetEventType() == enumspb.EVENT_TYPE_TIMER_STARTED { // the wait's timeout
					return true
				}
			}
			return false
		})
	}) // this stack's worker and relay stop here, with the run waiting
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: configure(second)})
	e.App = app
	page := inbox(t, e, "rot")
	if len(page.Data) != 1 {
		t.Fatalf("inbox before the read: %+v", page.Data)
	}
	if res := e.Do("POST", fmt.Sprintf("/v3/notifications/%d/reads", page.Data[0].ID), nil, e.UserHeaders("rot")); res.Status >= 300 {
		t.Fatalf("read: %d %s", res.Status, res.Body)
	}
	waitForRun(t, e, req, "rot", "completed")
	if got := strings.Join(flowLog(t, e, "rot"), " "); got != "ask:sent wait:waited thanks:sent" {
		t.Errorf("the run's log: %s", got)
	}
	if got := titles(t, e, "rot"); got != "Thanks 7,Please approve" {
		t.Errorf("inbox %q", got)
	}
	ids := map[string]int{}
	_ = proxy.VisitPayloads(context.Background(), rawHistory(t, e, wf()), proxy.VisitPayloadsOptions{SkipSearchAttributes: true,
		Visitor: func(_ *proxy.VisitPayloadsContext, ps []*commonpb.Payload) ([]*commonpb.Payload, error) {
			for _, p := range ps {
				ids[string(p.GetMetadata()[temporalcodec.MetadataKeyID])]++
			}
			return ps, nil
		}})
	t.Logf("payloads by key id: %v", ids)
	return ids
}
