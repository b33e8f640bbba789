package faults

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// Scenarios 32 and 33 (issue 28): the SMTP server of a 3,000-recipient in-app + email
// broadcast accepts connections and never answers. Every in-app row lands while it hangs;
// the instance's circuit breaker opens (the message log says "provider unavailable,
// retrying at …") and the emails wait on durable timers; the worker is SIGKILLed while the
// breaker is open and restarted; then the server answers again. Every email is delivered
// exactly once and every log row ends sent.
func TestHungProviderIsTrippedHeldAndResumed(t *testing.T) {
	slow(t)
	const recipients = 3000
	s, c := newProcStack(t)
	mail := smtptest.Start(t)
	hung := mail.Hang(t)
	cfg, _ := json.Marshal(map[string]any{"host": hung.Host, "port": hung.Port, "security": "none", "from": "noreply@herald.test", "timeoutSeconds": 2})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "hung smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	worker := s.Start("worker")
	body, _ := json.Marshal(map[string]any{
		"notification": map[string]any{"title": "Broadcast"},
		"sendTo":       map[string]any{"recipients": emailRecipients(recipients)},
	})
	start := time.Now()
	req := c.send(body)
	count := func(q string) int { return s.Count(q, req) }
	inApp := s.Eventually(2*time.Minute, "every in-app row while the SMTP server hangs", func() bool {
		return count("SELECT count(*) FROM notifications WHERE request_id = $1") == recipients
	})
	tripped := s.Eventually(2*time.Minute, "the breaker to hold messages", func() bool {
		return count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND error LIKE '%provider unavailable, retrying at %'") > 0
	})
	if len(mail.Messages()) != 0 {
		t.Fatal("the hung server delivered mail")
	}
	acceptedOpen := hung.Accepted()
	worker.Kill()
	worker.Restart()
	// The new process trips its own breaker on its first silent calls.
	time.Sleep(5 * time.Second)
	acceptedAfterRestart := hung.Accepted()
	held := count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND error LIKE '%provider unavailable, retrying at %'")
	hung.Answer()
	answered := time.Now()
	s.Eventually(5*time.Minute, "every email sent once the server answers", func() bool {
		return count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'email' AND status = 'sent'") == recipients
	})
	resumed := time.Since(answered)
	missing, duplicates := countDeliveries(mail.Messages(), recipients)
	notSent := count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'email' AND status <> 'sent'")
	t.Logf("in-app rows all written %s after the send, the SMTP server hanging; breaker holding messages %s after the send; connections the hung server accepted: %d before the kill, %d by 5 s after the restart",
		inApp.Round(100*time.Millisecond), tripped.Round(100*time.Millisecond), acceptedOpen, acceptedAfterRestart)
	t.Logf("server answering again: every email sent %s later (%s after the send); emails %d, missing %d, duplicates %d; %d log rows noted \"provider unavailable, retrying at …\" when it answered",
		resumed.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond), len(mail.Messages()), missing, duplicates, held)
	if missing != 0 || duplicates != 0 || notSent != 0 {
		t.Errorf("missing %d, duplicates %d, log rows not sent %d", missing, duplicates, notSent)
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}
