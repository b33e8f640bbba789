package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/delivery/pipeline"
	"github.com/heraldhq/herald/internal/providers/smtp"
	"github.com/heraldhq/herald/internal/providers/webhook"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/workflows/send"
)

// Scenario 18: the worker is SIGKILLed in the middle of a 5,000-recipient email send
// (batched delivery: SendMessages activities of a few hundred messages, sent over a pool of
// SMTP connections) and started again. Every address gets the email; the only duplicates
// are messages that were on the wire when the worker died (accepted by the server, not yet
// recorded as sent): at most pipeline.MaxUnrecorded per instance (the messages sent and
// waiting for their group commit); the log shows every message sent.
func TestWorkerKilledMidBatchedEmailSend(t *testing.T) {
	slow(t)
	const recipients = 5000
	s, c := newProcStack(t)
	mail := smtptest.Start(t)
	// About 8 × 1/5 ms = 1,600 messages/s at most: the send lasts seconds, the kill lands in
	// the middle.
	mail.SetDelay(5 * time.Millisecond)
	cfg, _ := json.Marshal(map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@herald.test"})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "test smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	worker := s.Start("worker")
	body, _ := json.Marshal(map[string]any{
		"notification": map[string]any{"title": "Batched receipt"},
		"override":     map[string]any{"channels": []string{"email"}},
		"sendTo":       map[string]any{"recipients": emailRecipients(recipients)},
	})
	req := c.send(body)
	s.Eventually(2*time.Minute, "the first 1,000 emails", func() bool { return len(mail.Messages()) >= 1000 })
	worker.Kill()
	killed := time.Now()
	atKill := len(mail.Messages())
	sentAtKill := s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND status = 'sent'", req)
	worker.Restart()

	s.Eventually(3*time.Minute, "every email log row to settle", func() bool {
		return s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND status <> 'queued'", req) == recipients
	})
	recovered := time.Since(killed)
	missing, duplicates := countDeliveries(mail.Messages(), recipients)
	notSent := s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND status <> 'sent'", req)
	retried, attempts := retriedActivities(t, s, req)
	t.Logf("worker SIGKILLed with %d of %d emails at the server (%d recorded as sent); every log row settled %s after the kill",
		atKill, recipients, sentAtKill, recovered.Round(100*time.Millisecond))
	t.Logf("emails received %d: recipients missing %d, duplicates %d (%d at the server but not recorded as sent at the kill; bound: %d sent and unrecorded per instance, %d SMTP connections on the wire); batches retried %d (up to attempt %d)",
		len(mail.Messages()), missing, duplicates, atKill-sentAtKill, pipeline.MaxUnrecorded, smtp.DefaultMaxConnections, retried, attempts)
	if missing != 0 || notSent != 0 {
		t.Errorf("%d recipients got no email; %d log rows are not sent", missing, notSent)
	}
	if duplicates > pipeline.MaxUnrecorded {
		t.Errorf("%d duplicates: more than the %d messages that can be sent and not recorded at once", duplicates, pipeline.MaxUnrecorded)
	}
	if atKill >= recipients {
		t.Errorf("the kill came after every email was out (%d): nothing was tested", atKill)
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}

// Scenario 19: a webhook endpoint fails 30% of calls with 503. Every message is delivered
// in the end; each retry of a message comes at least its backoff after the attempt before
// (1 s, 2 s, 4 s, …); no message is called again once it was answered 200.
func TestFlakyProviderDeliversEverythingWithBackoff(t *testing.T) {
	slow(t)
	const recipients = 500
	s, c := newProcStack(t)
	type call struct {
		at time.Time
		ok bool
	}
	var mu sync.Mutex
	calls := map[string][]call{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(webhook.HeaderMessageID)
		mu.Lock()
		n := len(calls[id])
		// 30% of calls fail, decided by message and attempt so every run fails the same ones.
		h := fnv.New32a()
		fmt.Fprintf(h, "%s/%d", id, n)
		ok := h.Sum32()%10 >= 3
		calls[id] = append(calls[id], call{at: time.Now(), ok: ok})
		mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	t.Cleanup(srv.Close)
	cfg, _ := json.Marshal(map[string]any{"url": srv.URL, "secret": "0123456789abcdef0123"})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), c.creds.AppID, "webhook", channels.InstanceInput{Provider: "webhook", Name: "flaky", Config: cfg}); err != nil {
		t.Fatal(err)
	}
	worker := s.Start("worker")
	body, _ := json.Marshal(map[string]any{
		"notification": map[string]any{"title": "Flaky"},
		"override":     map[string]any{"channels": []string{"webhook"}},
		"sendTo":       map[string]any{"recipients": emailRecipients(recipients)},
	})
	req := c.send(body)
	took := s.Eventually(5*time.Minute, "every webhook log row to settle", func() bool {
		return s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND status <> 'queued'", req) == recipients
	})
	if n := s.Count("SELECT count(*) FROM message_logs WHERE request_id = $1 AND status = 'sent'", req); n != recipients {
		t.Errorf("%d of %d messages sent", n, recipients)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(calls) != recipients {
		t.Errorf("the endpoint saw %d messages, want %d", len(calls), recipients)
	}
	retried, failures, most := 0, 0, 0
	for id, cs := range calls {
		sort.Slice(cs, func(i, j int) bool { return cs[i].at.Before(cs[j].at) })
		most = max(most, len(cs))
		if len(cs) > 1 {
			retried++
		}
		for i, x := range cs {
			if x.ok && i != len(cs)-1 {
				t.Errorf("%s: called again after it was delivered (%d calls)", id, len(cs))
			}
			if !x.ok {
				failures++
				if i == len(cs)-1 {
					t.Errorf("%s: its last call failed, yet the log says sent", id)
				}
			}
			if i > 0 {
				if gap, want := x.at.Sub(cs[i-1].at), send.Backoff(i); gap < want {
					t.Errorf("%s: attempt %d came %s after the one before, want at least %s", id, i+1, gap, want)
				}
			}
		}
	}
	t.Logf("%d messages over an endpoint failing 30%% of calls: %d failed calls, %d messages retried (up to %d calls), all sent after %s",
		recipients, failures, retried, most, took.Round(100*time.Millisecond))
	if failures == 0 {
		t.Error("no call failed: nothing was tested")
	}
	if t.Failed() {
		t.Logf("worker log:\n%s", tail(worker.Log()))
	}
}

// emailRecipients are n recipients u0…u(n-1) with an email address each.
func emailRecipients(n int) []map[string]any {
	rs := make([]map[string]any, n)
	for i := range rs {
		rs[i] = map[string]any{"identifier": fmt.Sprintf("u%d", i), "email": fmt.Sprintf("u%d@example.com", i)}
	}
	return rs
}

// countDeliveries counts the recipients u0…u(n-1)@example.com that got no message, and
// the messages beyond the first per recipient.
func countDeliveries(msgs []smtptest.Message, n int) (missing, duplicates int) {
	per := map[string]int{}
	for _, m := range msgs {
		for _, to := range m.To {
			per[to]++
		}
	}
	for i := range n {
		k := per[fmt.Sprintf("u%d@example.com", i)]
		if k == 0 {
			missing++
		}
		duplicates += max(k-1, 0)
	}
	return missing, duplicates
}
