package runnable_test

import (
	"context"
	"errors"
	"testing"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/flow"
	"github.com/heraldhq/herald/internal/flow/runnable"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// TestLookupTellsEveryReasonApart walks a flow through unknown, unpublished, published,
// archived and unarchived, and checks each answer, its reason and its message; another app
// never sees the flow.
func TestLookupTellsEveryReasonApart(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	box, _ := secrets.NewBox("test-key-0123456789")
	a, _ := apps.NewService(d, box).Create(ctx, "a")
	b, _ := apps.NewService(d, box).Create(ctx, "b")
	s := flow.NewService(d, nil)
	unavailable := func(step string, err, reason error, msg string) {
		t.Helper()
		var un *runnable.UnavailableError
		if !errors.As(err, &un) || !errors.Is(err, reason) || un.Error() != msg {
			t.Errorf("%s: err = %v, want %q", step, err, msg)
		}
	}
	_, err := runnable.Lookup(ctx, d.Queries, a.AppID, "order")
	unavailable("unknown", err, runnable.ErrNotFound, `workflow "order" does not exist`)

	body := `{"identifier":"order","name":"Order","critical":true,"payloadSchema":{"type":"object"},
		"definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"Hi"}}]}}`
	created, err := s.Create(ctx, a.AppID, []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runnable.Lookup(ctx, d.Queries, a.AppID, "order")
	unavailable("unpublished", err, runnable.ErrNotPublished, `workflow "order" has no published version`)

	for want := int32(1); want <= 2; want++ {
		if _, err := s.Publish(ctx, a.AppID, "order"); err != nil {
			t.Fatal(err)
		}
		v, err := runnable.Lookup(ctx, d.Queries, a.AppID, "order")
		if err != nil || v != (runnable.Version{FlowID: created.ID, Number: want, Critical: true, HasPayloadSchema: true}) {
			t.Errorf("published %d: %+v, %v", want, v, err)
		}
	}
	if _, err := s.Patch(ctx, a.AppID, "order", []byte(`{"archived":true}`)); err != nil {
		t.Fatal(err)
	}
	_, err = runnable.Lookup(ctx, d.Queries, a.AppID, "order")
	unavailable("archived", err, runnable.ErrArchived, `workflow "order" is archived`)
	if _, err := s.Patch(ctx, a.AppID, "order", []byte(`{"archived":false}`)); err != nil {
		t.Fatal(err)
	}
	if v, err := runnable.Lookup(ctx, d.Queries, a.AppID, "order"); err != nil || v.Number != 2 {
		t.Errorf("unarchived: %+v, %v; want version 2 again", v, err)
	}
	_, err = runnable.Lookup(ctx, d.Queries, b.AppID, "order")
	unavailable("another app", err, runnable.ErrNotFound, `workflow "order" does not exist`)
}
