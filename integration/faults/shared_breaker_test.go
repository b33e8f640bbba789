package faults

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// Issue 28, item 3 with real processes: a worker finds an SMTP server dead (it accepts
// connections and never answers) and opens the instance's breaker; a second worker process
// starts beside it, the first is killed, and a second send goes to the second worker
// alone. It holds those messages too: the server sees no new connection while the breaker
// is open (a worker with only its own breaker opens its pool's connections to find out).
// Once the server answers, every email goes out exactly once.
func TestASecondWorkerHoldsForTheBreakerTheFirstOpened(t *testing.T) {
	slow(t)
	const recipients = 200
	s, c := newProcStack(t)
	mail := smtptest.Start(t)
	hung := mail.Hang(t)
	cfg, _ := json.Marshal(map[string]any{"host": hung.Host, "port": hung.Port, "security": "none", "from": "noreply@herald.test", "connectTimeoutSeconds": 1})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "hung smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	firstWorker := s.Start("worker")
	all := emailRecipients(recipients)
	send := func(rs []map[string]any) string {
		body, _ := json.Marshal(map[string]any{"notification": map[string]any{"title": "Held"}, "sendTo": map[string]any{"recipients": rs}})
		return c.send(body)
	}
	first := send(all[:recipients/2])
	held := `SELECT count(*) FROM message_logs WHERE request_id = $1 AND error LIKE '%provider unavailable, retrying at %'`
	tripped := s.Eventually(time.Minute, "the first worker's breaker to hold messages", func() bool {
		return s.Count(held, first) > 0
	})
	// The first worker's calls admitted before its breaker opened still dial (each gives
	// up after the connect deadline): wait until it has no more in flight.
	before := hung.Accepted()
	for still := 0; still < 3; {
		time.Sleep(time.Second)
		if n := hung.Accepted(); n != before {
			before, still = n, 0
		} else {
			still++
		}
	}
	opened := time.Now()
	// The second worker starts; once it polls, the first one goes, so the second send is
	// the second worker's alone.
	s.Start("worker")
	time.Sleep(3 * time.Second)
	firstWorker.Kill()
	second := send(all[recipients/2:])
	s.Eventually(time.Minute, "the second send's messages held", func() bool {
		return s.Count(held, second) > 0
	})
	time.Sleep(2 * time.Second) // both workers take batches of the second send
	during := hung.Accepted() - before
	window := time.Since(opened)
	heldSecond := s.Count(held, second)
	hung.Answer()
	answered := time.Now()
	sent := `SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'email' AND status = 'sent'`
	s.Eventually(5*time.Minute, "every email sent once the server answers", func() bool {
		return s.Count(sent, first)+s.Count(sent, second) == recipients
	})
	missing, duplicates := countDeliveries(mail.Messages(), recipients)
	t.Logf("breaker holding %s after the first send; a second worker took over: %d new connections to the hung server in the %s after (%d before), %d of the second send's messages held; after the server answered, all %d sent in %s (missing %d, duplicates %d)",
		tripped.Round(100*time.Millisecond), during, window.Round(100*time.Millisecond), before, heldSecond, recipients, time.Since(answered).Round(100*time.Millisecond), missing, duplicates)
	// At most one probe, should the cool-down end in the window.
	if during > 1 {
		t.Errorf("%d new connections while the shared breaker was open: the second worker did not hold", during)
	}
	if missing != 0 || duplicates != 0 {
		t.Errorf("missing %d, duplicates %d", missing, duplicates)
	}
}
