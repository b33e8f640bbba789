package faults

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
)

// Workers split by task queue (issue 28, docs/deployment.md): a worker polling only the
// orchestration queue delivers a send's in-app rows and leaves its emails waiting in
// Temporal; a worker started later for the email queue sends every one of them, once.
func TestWorkersSplitByQueueKind(t *testing.T) {
	slow(t)
	const recipients = 50
	s, c := newProcStack(t)
	mail := smtptest.Start(t)
	cfg, _ := json.Marshal(map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@herald.test"})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	orchestration := s.StartWith("worker", "HERALD_WORKER_QUEUES=orchestration")
	body, _ := json.Marshal(map[string]any{
		"notification": map[string]any{"title": "Split"},
		"sendTo":       map[string]any{"recipients": emailRecipients(recipients)},
	})
	req := c.send(body)
	inApp := s.Eventually(time.Minute, "the in-app rows, from the orchestration worker alone", func() bool {
		return s.Count("SELECT count(*) FROM notifications WHERE request_id = $1", req) == recipients
	})
	// The email batch is scheduled on <base>-email, which nobody polls yet.
	time.Sleep(3 * time.Second)
	if n := len(mail.Messages()); n != 0 {
		t.Fatalf("%d emails sent with no worker on the email queue", n)
	}
	s.StartWith("worker", "HERALD_WORKER_QUEUES=email")
	emails := s.Eventually(time.Minute, "every email, once an email worker polls", func() bool {
		return s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND channel = 'email' AND status = 'sent'", req) == recipients
	})
	missing, duplicates := countDeliveries(mail.Messages(), recipients)
	t.Logf("orchestration worker alone: %d in-app rows in %s, 0 emails; email worker started: all %d emails in %s more (missing %d, duplicates %d)",
		recipients, inApp.Round(100*time.Millisecond), recipients, emails.Round(100*time.Millisecond), missing, duplicates)
	if missing != 0 || duplicates != 0 {
		t.Errorf("missing %d, duplicates %d", missing, duplicates)
	}
	if t.Failed() {
		t.Logf("orchestration worker log:\n%s", tail(orchestration.Log()))
	}
}
