package flow

import (
	"context"
	"strings"
	"testing"

	herald "github.com/heraldhq/herald"
)

func TestVersionsListsPublishedDefinitionsNewestFirst(t *testing.T) {
	s, app, other := setup(t)
	ctx := context.Background()
	if _, err := s.Create(ctx, app, []byte(v1)); err != nil {
		t.Fatal(err)
	}
	if vs, err := s.Versions(ctx, app, "welcome"); err != nil || len(vs) != 0 {
		t.Fatalf("before publishing: %v %v", vs, err)
	}
	s.Publish(ctx, app, "welcome")
	if _, err := s.Update(ctx, app, "welcome", []byte(`{"name":"W","definition":{"steps":[{"id":"only","type":"sms","content":{"body":"hi"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	s.Publish(ctx, app, "welcome")
	vs, err := s.Versions(ctx, app, "welcome")
	if err != nil || len(vs) != 2 || vs[0].Version != 2 || vs[1].Version != 1 {
		t.Fatalf("versions: %+v %v", vs, err)
	}
	if !strings.Contains(string(vs[0].Definition), `"only"`) {
		t.Errorf("version 2 definition: %s", vs[0].Definition)
	}
	if !strings.Contains(string(vs[1].Definition), `"later"`) {
		t.Errorf("version 1 definition: %s", vs[1].Definition)
	}
	for _, c := range []struct {
		app int64
		id  string
	}{{app, "nope"}, {other, "welcome"}} {
		if _, err := s.Versions(ctx, c.app, c.id); code(err) != herald.ENOTFOUND {
			t.Errorf("versions of %d/%s: %v", c.app, c.id, err)
		}
	}
}

func TestTimelineGroupsStepsByRecipientWithinTheApp(t *testing.T) {
	s, app, other := setup(t)
	ctx := context.Background()
	if _, err := s.Create(ctx, app, []byte(v1)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Create(ctx, other, []byte(`{"identifier":"welcome","name":"W","definition":{"steps":[{"id":"hi","type":"inApp","content":{"title":"Hi"}}]}}`)); err != nil {
		t.Fatal(err)
	}
	const req = "0190a5c4-0000-7000-8000-000000000001"
	const req2 = "0190a5c4-0000-7000-8000-000000000002"
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := s.db.Pool.Exec(ctx, q, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO notification_requests (id, app_id, payload, body_hash, recipient_count) VALUES ($1, $2, '{}', '', 2), ($3, $4, '{}', '', 1)`, req, app, req2, other)
	exec(`INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id, status, finished_at) VALUES
		($1, $2, 'welcome', 'ann', 'flow/welcome/r/ann', 'completed', now()),
		($1, $2, 'welcome', 'bob', 'flow/welcome/r/bob', 'running', NULL),
		($1, $2, 'other', 'ann', 'flow/other/r/ann', 'running', NULL),
		($3, $4, 'welcome', 'ann', 'flow/welcome/r2/ann', 'running', NULL)`, app, req, other, req2)
	exec(`INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, detail, workflow_id) VALUES
		($1, $2, 'welcome', 1, 'ann', 'hi', 'inApp', 'sent', '', 'flow/welcome/r/ann'),
		($1, $2, 'welcome', 1, 'bob', 'hi', 'inApp', 'sent', '', 'flow/welcome/r/bob'),
		($1, $2, 'welcome', 1, 'ann', 'later', 'delay', 'waited', '1s', 'flow/welcome/r/ann'),
		($1, $2, 'other', 1, 'ann', 'x', 'sms', 'sent', '', 'flow/other/r/ann'),
		($3, $4, 'welcome', 1, 'ann', 'hi', 'inApp', 'sent', '', 'flow/welcome/r2/ann')`, app, req, other, req2)

	tl, err := s.Timeline(ctx, app, "welcome", req)
	if err != nil {
		t.Fatal(err)
	}
	if tl.RequestID != req || tl.Workflow != "welcome" || len(tl.Runs) != 2 {
		t.Fatalf("timeline: %+v", tl)
	}
	ann, bob := tl.Runs[0], tl.Runs[1]
	if ann.UserIdentifier != "ann" || ann.Status != "completed" || ann.FinishedAt == nil || len(ann.Steps) != 2 ||
		ann.Steps[0].StepID != "hi" || ann.Steps[1].StepID != "later" || ann.Steps[1].Detail != "1s" {
		t.Errorf("ann: %+v", ann)
	}
	if bob.UserIdentifier != "bob" || bob.Status != "running" || bob.FinishedAt != nil || len(bob.Steps) != 1 {
		t.Errorf("bob: %+v", bob)
	}

	// A request without runs yet has an empty timeline.
	exec(`INSERT INTO notification_requests (id, app_id, payload, body_hash, recipient_count) VALUES ('0190a5c4-0000-7000-8000-000000000003', $1, '{}', '', 1)`, app)
	if tl, err := s.Timeline(ctx, app, "welcome", "0190a5c4-0000-7000-8000-000000000003"); err != nil || len(tl.Runs) != 0 || tl.Runs == nil {
		t.Errorf("no runs yet: %+v %v", tl, err)
	}
	// Another app's request, an unknown one, an unknown workflow, a malformed id.
	for _, c := range []struct {
		app       int64
		flow, req string
		code      string
	}{
		{app, "welcome", req2, herald.ENOTFOUND},
		{other, "welcome", req, herald.ENOTFOUND},
		{app, "welcome", "0190a5c4-0000-7000-8000-0000000000ff", herald.ENOTFOUND},
		{app, "nope", req, herald.ENOTFOUND},
		{app, "welcome", "not-a-uuid", herald.EINVALID},
	} {
		if _, err := s.Timeline(ctx, c.app, c.flow, c.req); code(err) != c.code {
			t.Errorf("timeline %d/%s/%s: %v, want %s", c.app, c.flow, c.req, err, c.code)
		}
	}
}
