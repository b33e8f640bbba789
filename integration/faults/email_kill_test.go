package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// Scenario 2: the worker is killed with SIGKILL while a 200-recipient email send is going
// out to a real SMTP server, and started again. Every recipient gets the email; a message
// the server accepted just before the kill, but whose success the worker could not record,
// is sent again on retry: those duplicates are counted and reported (SMTP has no
// idempotency key, so the target of zero holds only where a provider dedupes by the
// X-Herald-Idempotency-Key header, which a duplicate carries unchanged).
func TestWorkerKilledMidEmailSend(t *testing.T) {
	slow(t)
	const recipients = 200
	s, c := newProcStack(t)
	mail := smtptest.Start(t)
	// A slow mail server keeps sends in flight when the kill comes.
	mail.SetDelay(150 * time.Millisecond)
	cfg, _ := json.Marshal(map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@herald.test"})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "test smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	worker := s.Start("worker")

	req := c.send(inlineSend("Your receipt", recipients, func(i int) map[string]any {
		return map[string]any{"email": fmt.Sprintf("u%d@example.com", i)}
	}))
	s.Eventually(2*time.Minute, "the first 50 emails", func() bool { return len(mail.Messages()) >= 50 })
	worker.Kill()
	killed := time.Now()
	atKill := len(mail.Messages())
	worker.Restart()

	s.Eventually(3*time.Minute, "every email log row to settle", func() bool {
		return s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'email' AND status = 'sent'", req) == recipients
	})
	recovered := time.Since(killed)
	perRecipient := map[string]int{}
	keys := map[string]map[string]bool{}
	for _, m := range mail.Messages() {
		for _, to := range m.To {
			perRecipient[to]++
			if keys[to] == nil {
				keys[to] = map[string]bool{}
			}
			keys[to][m.Header.Get("X-Herald-Idempotency-Key")] = true
		}
	}
	missing, duplicates := 0, 0
	for i := range recipients {
		n := perRecipient[fmt.Sprintf("u%d@example.com", i)]
		if n == 0 {
			missing++
		}
		duplicates += max(n-1, 0)
	}
	retried, attempts := retriedActivities(t, s, req)
	t.Logf("worker SIGKILLed with %d of %d emails accepted by the SMTP server; every log row sent %s after the kill",
		atKill, recipients, recovered.Round(100*time.Millisecond))
	t.Logf("emails received %d: recipients missing %d, duplicates %d; activities retried after the kill %d (up to attempt %d)",
		len(mail.Messages()), missing, duplicates, retried, attempts)
	if missing != 0 {
		t.Errorf("%d recipients got no email", missing)
	}
	for to, ks := range keys {
		if len(ks) != 1 || strings.TrimSpace(firstKey(ks)) == "" {
			t.Errorf("%s: the emails carry idempotency keys %v, want one key for all copies", to, ks)
		}
	}
	if atKill >= recipients {
		t.Errorf("the kill came after every email was out (%d): nothing was tested", atKill)
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}
