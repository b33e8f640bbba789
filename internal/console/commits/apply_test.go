package commits

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/providers"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

// TestPublishRefusesAWorkflowVersionThatDoesNotCompile: a commit whose workflow's published
// version does not compile (stored before publish compiled definitions; written here
// directly) is refused when published to another app, with every problem named, and the
// target is left unchanged.
func TestPublishRefusesAWorkflowVersionThatDoesNotCompile(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	box, _ := secrets.NewBox("test-key-0123456789")
	src, _ := apps.NewService(d, box).Create(ctx, "staging")
	dst, _ := apps.NewService(d, box).Create(ctx, "production")
	bad := json.RawMessage(`{"steps":[{"id":"wait","type":"delay","duration":"soon","next":"limit"},{"id":"limit","type":"throttle","limit":1,"window":"0s"}]}`)
	id, err := d.ApplyFlow(ctx, dbsqlc.ApplyFlowParams{AppID: src.AppID, Identifier: "old", Name: "Old", Draft: bad})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.PublishFlowDefinition(ctx, dbsqlc.PublishFlowDefinitionParams{AppID: src.AppID, ID: id, Definition: bad}); err != nil {
		t.Fatal(err)
	}
	s := NewService(d, channels.NewService(d, box, providers.NewCatalogue(), providers.Deps{}))
	c, err := s.Create(ctx, src.AppID, 0, "with an old workflow")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Publish(ctx, src.AppID, c.ID, dst.AppID, 0)
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("publish = %v, want a 400", err)
	}
	want := []string{
		`workflow "old", published version: steps[0].duration: "soon" is not a duration (use 90s, 15m, 2h, 3d)`,
		`workflow "old", published version: steps[1].window: "0s" must be positive`,
	}
	if !slices.Equal(he.Details, want) {
		t.Errorf("problems = %q, want %q", he.Details, want)
	}
	if _, err := d.GetFlow(ctx, dbsqlc.GetFlowParams{AppID: dst.AppID, Identifier: "old"}); err == nil {
		t.Error("the refused commit's workflow was applied to the target")
	}
}
