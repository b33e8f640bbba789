package pipeline

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/workflows/send"
)

// A run that asks (HoldChannels) is told which channels are held: those whose every
// enabled instance has an open breaker. Their new messages are queued with the breaker's
// note; a channel with one instance still closed, or a breaker whose cool-down is over (the
// next batch is its probe) is not held, one whose probe is out is held until its lease ends;
// a run that does not ask is told nothing.
func TestDeliverBatchTellsTheRunOfHeldChannels(t *testing.T) {
	d, appID, a, _ := setup(t)
	ctx := context.Background()
	first := webhookInstance(t, a, appID, "first", "https://example.com/1")
	second := webhookInstance(t, a, appID, "second", "https://example.com/2")
	until := time.Now().Add(time.Minute).Truncate(time.Millisecond)
	open := func(id int64, until time.Time) {
		t.Helper()
		if err := a.DB.OpenProviderBreaker(ctx, dbsqlc.OpenProviderBreakerParams{InstanceID: id, OpenUntil: until, CooldownMs: 60_000}); err != nil {
			t.Fatal(err)
		}
	}
	deliver := func(who string, ask bool) (send.DeliverResult, string) {
		t.Helper()
		req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook","inApp"]},"sendTo":{"recipients":["`+who+`"]}}`)
		res, err := a.DeliverBatch(ctx, send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}, HoldChannels: ask})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) != 1 {
			t.Fatalf("%d jobs, want the webhook message queued", len(res.Jobs))
		}
		var note *string
		if err := d.Pool.QueryRow(ctx, `SELECT error FROM message_logs WHERE id = $1 AND status = 'queued'`, res.Jobs[0].LogID).Scan(&note); err != nil {
			t.Fatal(err)
		}
		if note == nil {
			return res, ""
		}
		return res, *note
	}

	open(first.ID, until)
	if res, note := deliver("one-open", true); res.Holds != nil || note != "" {
		t.Errorf("one of two instances open: holds %v, note %q; want none", res.Holds, note)
	}

	open(second.ID, until.Add(time.Minute))
	res, note := deliver("both-open", true)
	if got, want := res.Holds["webhook"], until.UnixMilli(); got != want || len(res.Holds) != 1 {
		t.Errorf("both open: holds %v, want webhook until %d (the earlier cool-down)", res.Holds, want)
	}
	for _, want := range []string{"first (webhook): provider unavailable, retrying at", "second (webhook): provider unavailable, retrying at"} {
		if !strings.Contains(note, want) {
			t.Errorf("queued message's note %q, want it to say %q", note, want)
		}
	}
	if res, note := deliver("not-asked", false); res.Holds != nil || note != "" {
		t.Errorf("a run that did not ask: holds %v, note %q; want none", res.Holds, note)
	}

	// The first's cool-down is over: half-open, the next batch may be its probe.
	if _, err := d.Pool.Exec(ctx, `UPDATE provider_breakers SET open_until = now() - interval '1 second' WHERE instance_id = $1`, first.ID); err != nil {
		t.Fatal(err)
	}
	if res, note := deliver("half-open", true); res.Holds != nil || note != "" {
		t.Errorf("one breaker half-open: holds %v, note %q; want none", res.Holds, note)
	}

	// A worker took its probe: held until the probe's lease ends (the other batches would
	// only be held beside it), the earlier of the two.
	var probeUntil time.Time
	if err := d.Pool.QueryRow(ctx, `UPDATE provider_breakers SET probe_until = now() + interval '10 seconds' WHERE instance_id = $1 RETURNING probe_until`, first.ID).Scan(&probeUntil); err != nil {
		t.Fatal(err)
	}
	res, note = deliver("probing", true)
	if got, want := res.Holds["webhook"], send.CeilMillis(probeUntil); got != want || len(res.Holds) != 1 {
		t.Errorf("one breaker probing: holds %v, want webhook until %d (the probe's lease)", res.Holds, want)
	}
	if !strings.Contains(note, "first (webhook): provider unavailable, retrying at") {
		t.Errorf("one breaker probing: note %q, want the first instance's", note)
	}

	// Closed again; and another app's instances, all open, hold nothing of this app's.
	if err := a.DB.CloseProviderBreaker(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	var other int64
	if err := d.Pool.QueryRow(ctx, `INSERT INTO apps (name, api_key, api_secret_hash, api_secret_sealed) VALUES ('other', 'other-key', '\x00', '\x00') RETURNING id`).Scan(&other); err != nil {
		t.Fatal(err)
	}
	open(webhookInstance(t, a, other, "theirs", "https://example.com/3").ID, until)
	if res, _ := deliver("closed", true); res.Holds != nil {
		t.Errorf("closed, another app's instance open: holds %v, want none", res.Holds)
	}
}

// The holds a call tells its run end a drawn part of WakeSpread after the breaker's
// cool-down, one draw per call: the runs an open breaker held do not all wake at its end.
func TestToldHoldsEndAfterADrawnWake(t *testing.T) {
	d, appID, a, _ := setup(t)
	ctx := context.Background()
	inst := webhookInstance(t, a, appID, "hook", "https://example.com/1")
	until := time.Now().Add(time.Minute).Truncate(time.Millisecond)
	if err := a.DB.OpenProviderBreaker(ctx, dbsqlc.OpenProviderBreakerParams{InstanceID: inst.ID, OpenUntil: until, CooldownMs: 60_000}); err != nil {
		t.Fatal(err)
	}
	a.WakeSpread = 5 * time.Second
	var asked []time.Duration
	a.draw = func(n time.Duration) time.Duration {
		asked = append(asked, n)
		return 1200 * time.Millisecond
	}
	req := accept(t, d, appID, `{"notification":{"title":"Hi"},"override":{"channels":["webhook"]},"sendTo":{"recipients":["a","b","c"]}}`)
	res, err := a.DeliverBatch(ctx, send.DeliverInput{Cursors: []send.Cursor{{RequestID: req}}, HoldChannels: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Holds["webhook"], until.Add(1200*time.Millisecond).UnixMilli(); got != want {
		t.Errorf("hold until %d, want %d (the cool-down's end and the drawn 1.2 s)", got, want)
	}
	if len(asked) != 1 || asked[0] != a.WakeSpread {
		t.Errorf("drew %v, want one wake below WakeSpread (%s) for the call", asked, a.WakeSpread)
	}
}
