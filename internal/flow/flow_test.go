package flow

import (
	"context"
	"errors"
	"slices"
	"testing"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/flow/flowdef"
	"github.com/heraldhq/herald/internal/flow/runnable"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
)

const v1 = `{"identifier":"welcome","name":"Welcome","definition":{"steps":[
	{"id":"hi","type":"inApp","content":{"title":"Hi"},"next":"later"},
	{"id":"later","type":"delay","duration":"1d","next":"mail"},
	{"id":"mail","type":"email","template":"welcome-mail"}]}}`

func setup(t *testing.T) (*Service, int64, int64) {
	d := dbtest.New(t)
	box, _ := secrets.NewBox("test-key-0123456789")
	a, _ := apps.NewService(d, box).Create(context.Background(), "a")
	b, _ := apps.NewService(d, box).Create(context.Background(), "b")
	templates := func(_ context.Context, appID int64, id string) bool { return appID == a.AppID && id == "welcome-mail" }
	return NewService(d, templates), a.AppID, b.AppID
}

func code(err error) string { return herald.ErrorCode(err) }

// published compiles the version sends run, as the run's load does.
func published(ctx context.Context, s *Service, appID int64, identifier string) (*flowdef.Program, int32, error) {
	v, err := runnable.Lookup(ctx, s.db.Queries, appID, identifier)
	if err != nil {
		return nil, 0, err
	}
	raw, err := s.db.GetFlowVersion(ctx, dbsqlc.GetFlowVersionParams{AppID: appID, Identifier: identifier, Version: v.Number})
	if err != nil {
		return nil, 0, err
	}
	prog, err := flowdef.Compile(raw, flowdef.Checker{Channels: herald.Channels})
	return prog, v.Number, err
}

func TestCreatePublishAndVersions(t *testing.T) {
	s, app, other := setup(t)
	ctx := context.Background()
	f, err := s.Create(ctx, app, []byte(v1))
	if err != nil {
		t.Fatal(err)
	}
	if f.PublishedVersion != nil {
		t.Error("a new workflow has no published version")
	}
	if _, err := runnable.Lookup(ctx, s.db.Queries, app, "welcome"); !errors.Is(err, runnable.ErrNotPublished) {
		t.Errorf("unpublished: %v", err)
	}
	if v, err := s.Publish(ctx, app, "welcome"); err != nil || v != 1 {
		t.Fatalf("publish: %v %v", v, err)
	}
	// Change the draft: the published version stays until the next publish.
	_, err = s.Update(ctx, app, "welcome", []byte(`{"name":"Welcome v2","definition":{"steps":[{"id":"only","type":"sms","content":{"body":"hi"}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	def, v, err := published(ctx, s, app, "welcome")
	if err != nil || v != 1 || len(def.Steps) != 3 {
		t.Fatalf("published after a draft change: v%d %d steps %v", v, len(def.Steps), err)
	}
	if v, _ := s.Publish(ctx, app, "welcome"); v != 2 {
		t.Errorf("second publish = %d", v)
	}
	def, v, _ = published(ctx, s, app, "welcome")
	if v != 2 || def.Steps[0].ID != "only" {
		t.Errorf("published v%d %+v", v, def.Steps)
	}
	if _, err := s.Create(ctx, app, []byte(v1)); code(err) != herald.ECONFLICT {
		t.Errorf("duplicate identifier: %v", err)
	}
	// Another app sees nothing and can change nothing.
	if _, err := s.Get(ctx, other, "welcome"); code(err) != herald.ENOTFOUND {
		t.Errorf("another app's get: %v", err)
	}
	if _, err := s.Publish(ctx, other, "welcome"); code(err) != herald.ENOTFOUND {
		t.Errorf("another app's publish: %v", err)
	}
	if _, err := s.Update(ctx, other, "welcome", []byte(`{"name":"x","definition":{"steps":[{"id":"a","type":"sms","content":{"body":"x"}}]}}`)); code(err) != herald.ENOTFOUND {
		t.Errorf("another app's update: %v", err)
	}
	all, _ := s.List(ctx, app, false, false)
	published, _ := s.List(ctx, app, true, false)
	if len(all) != 1 || len(published) != 1 {
		t.Errorf("list %d, published %d", len(all), len(published))
	}
}

func TestCreateRejectsBadDefinitions(t *testing.T) {
	s, app, other := setup(t)
	_, err := s.Create(context.Background(), app, []byte(`{"identifier":"bad id!","name":"","definition":{"steps":[
		{"id":"a","type":"email","template":"missing","next":"b"},
		{"id":"b","type":"delay","duration":"soon","next":"c"},
		{"id":"c","type":"inApp","content":{"title":"{{#if x}}","colour":"red"}}]}}`))
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("want 400, got %v", err)
	}
	want := []string{
		"identifier must be 1-100 letters, digits, '_', '.' or '-', starting with a letter or digit",
		"name must be 1-200 characters",
		`steps[0].template: no template "missing" in this app`,
		`steps[1].duration: "soon" is not a duration (use 90s, 15m, 2h, 3d)`,
		"steps[2].content.colour is not a field of inApp content (fields: title, message, icon, url, blocks)",
		"steps[2].content.title: line 1: {{#if}} is not closed (missing {{/if}})",
		"steps[2]: inApp content needs title",
	}
	if !slices.Equal(he.Details, want) {
		t.Errorf("\n got %q\nwant %q", he.Details, want)
	}
	// The template exists in app a only.
	if _, err := s.Create(context.Background(), other, []byte(v1)); code(err) != herald.EINVALID {
		t.Errorf("another app's template accepted: %v", err)
	}
	if list, _ := s.List(context.Background(), app, false, false); len(list) != 0 {
		t.Errorf("a rejected workflow was stored")
	}
}

// TestPublishRefusesADraftThatDoesNotCompile: a draft that was valid when saved but names a
// template deleted since is refused at publish with every problem, and nothing is published.
func TestPublishRefusesADraftThatDoesNotCompile(t *testing.T) {
	d := dbtest.New(t)
	ctx := context.Background()
	box, _ := secrets.NewBox("test-key-0123456789")
	a, _ := apps.NewService(d, box).Create(ctx, "a")
	exists := true
	s := NewService(d, func(context.Context, int64, string) bool { return exists })
	if _, err := s.Create(ctx, a.AppID, []byte(v1)); err != nil {
		t.Fatal(err)
	}
	exists = false // the template welcome-mail is deleted
	_, err := s.Publish(ctx, a.AppID, "welcome")
	var he *herald.Error
	if !errors.As(err, &he) || he.Code != herald.EINVALID {
		t.Fatalf("publish = %v, want a 400", err)
	}
	if want := []string{`steps[2].template: no template "welcome-mail" in this app`}; !slices.Equal(he.Details, want) {
		t.Errorf("problems = %q, want %q", he.Details, want)
	}
	if _, err := runnable.Lookup(ctx, d.Queries, a.AppID, "welcome"); !errors.Is(err, runnable.ErrNotPublished) {
		t.Errorf("after a refused publish: %v, want no published version", err)
	}
	exists = true
	if v, err := s.Publish(ctx, a.AppID, "welcome"); err != nil || v != 1 {
		t.Errorf("publish once the template is back = %d, %v; want version 1", v, err)
	}
	if _, err := s.Publish(ctx, a.AppID, "nope"); code(err) != herald.ENOTFOUND {
		t.Errorf("publish of an unknown workflow = %v, want 404", err)
	}
}
