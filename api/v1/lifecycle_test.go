package v1_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestUserExport: a developer downloads everything Herald holds about a user as JSON
// (profile, preferences, devices, subscriptions, inbox, message log, workflow runs and
// logs), recorded in the audit log; viewers, strangers, other clients' apps and unknown
// users are refused.
func TestUserExport(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "export-a@example.com")
	b := e.tenant(t, "export-b@example.com")
	ids := e.users(t, a.appID, "ann", "bob")
	e.users(t, b.appID, "ann")
	e.exec(t, `UPDATE users SET profile = '{"email": "ann@example.com", "name": "Ann"}' WHERE id = $1`, ids["ann"])
	e.exec(t, `INSERT INTO devices (app_id, user_id, device_id, device_type, push_token) VALUES ($1, $2, 'phone-1', 'android', 'fcm-token-0123456789abcdef')`, a.appID, ids["ann"])
	e.exec(t, `INSERT INTO web_push_subscriptions (app_id, user_id, device_id, endpoint, p256dh, auth) VALUES ($1, $2, 'browser-1', 'https://push.example.com/1', 'secret-p256dh', 'secret-auth')`, a.appID, ids["ann"])
	e.exec(t, `INSERT INTO channel_preferences (app_id, user_id, channel, enabled) VALUES ($1, $2, 'sms', false)`, a.appID, ids["ann"])
	e.exec(t, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'news', 'News')`, a.appID)
	e.exec(t, `INSERT INTO topic_subscriptions (topic_id, user_id, channels) SELECT id, $2, '{email}' FROM topics WHERE app_id = $1`, a.appID, ids["ann"])
	req := uuid.New()
	e.exec(t, `INSERT INTO notifications (app_id, user_id, request_id, title, message) VALUES ($1, $2, $3, 'Hello Ann', 'hi'), ($1, $4, $3, 'Hello Bob', 'hi')`, a.appID, ids["ann"], req, ids["bob"])
	e.exec(t, `WITH m AS (INSERT INTO message_logs (app_id, request_id, user_id, user_identifier, channel, status, idempotency_key) VALUES ($1, $2, $3, 'ann', 'email', 'sent', 'k1') RETURNING id)
		INSERT INTO message_contents (message_log_id, app_id, content) SELECT id, $1, '{"to": "ann@example.com", "subject": "Your order", "truncated": false}' FROM m`, a.appID, req, ids["ann"])
	e.exec(t, `INSERT INTO flow_runs (app_id, request_id, flow_identifier, user_identifier, workflow_id) VALUES ($1, $2, 'welcome', 'ann', 'flow/welcome/x/ann')`, a.appID, req)
	e.exec(t, `INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, workflow_id, input) VALUES ($1, $2, 'welcome', 1, 'ann', 's1', 'delay', 'waited', 'flow/welcome/x/ann', '{"data": {"order": "A-7"}, "recipient": {"identifier": "ann"}, "truncated": false}')`, a.appID, req.String())

	res := must(t, e.Do("GET", a.appPath("/users/ann/export"), nil, bearer(a.tok)), 200, "export")
	if cd := res.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
		t.Errorf("Content-Disposition %q", cd)
	}
	var out struct {
		AppID int64
		User  struct {
			Identifier string
			Profile    map[string]any
		}
		Preferences struct {
			Channels []struct {
				Channel string
				Enabled bool
			}
		}
		Devices              []struct{ DeviceID, PushToken string }
		WebPushSubscriptions []struct{ Endpoint string }
		TopicSubscriptions   []struct {
			Topic    string
			Channels []string
		}
		Notifications []struct{ Title string }
		MessageLogs   []struct {
			Channel, Status string
			Content         *struct{ To, Subject string }
		}
		WorkflowRuns []struct{ Workflow, Status string }
		WorkflowLogs []struct {
			Step, Outcome string
			Input         *struct{ Data map[string]any }
		}
		Truncated []string
	}
	res.JSON(t, &out)
	if out.AppID != a.appID || out.User.Identifier != "ann" || out.User.Profile["email"] != "ann@example.com" ||
		len(out.Preferences.Channels) != 1 || out.Preferences.Channels[0].Channel != "sms" || out.Preferences.Channels[0].Enabled ||
		len(out.Devices) != 1 || out.Devices[0].PushToken != "…89abcdef" ||
		len(out.WebPushSubscriptions) != 1 || out.WebPushSubscriptions[0].Endpoint != "https://push.example.com/1" ||
		len(out.TopicSubscriptions) != 1 || out.TopicSubscriptions[0].Topic != "news" ||
		len(out.Notifications) != 1 || out.Notifications[0].Title != "Hello Ann" ||
		len(out.MessageLogs) != 1 || out.MessageLogs[0].Status != "sent" ||
		len(out.WorkflowRuns) != 1 || out.WorkflowRuns[0].Workflow != "welcome" ||
		len(out.WorkflowLogs) != 1 || out.WorkflowLogs[0].Outcome != "waited" || len(out.Truncated) != 0 ||
		out.MessageLogs[0].Content == nil || out.MessageLogs[0].Content.Subject != "Your order" ||
		out.WorkflowLogs[0].Input == nil || out.WorkflowLogs[0].Input.Data["order"] != "A-7" {
		t.Errorf("export %s", res.Body)
	}
	for _, secret := range []string{"Hello Bob", "secret-p256dh", "secret-auth", "fcm-token-0123"} {
		if strings.Contains(string(res.Body), secret) {
			t.Errorf("the export holds %q", secret)
		}
	}
	// The audit log names the export without the identifier.
	var entries struct {
		Data []struct {
			Action, TargetType, TargetID string
		}
	}
	must(t, e.Do("GET", "/v1/auditLogs?clientId="+itoa(a.client)+"&action=app_user.exported", nil, bearer(a.tok)), 200, "audit").JSON(t, &entries)
	if len(entries.Data) != 1 || entries.Data[0].TargetType != "appUser" || !strings.HasPrefix(entries.Data[0].TargetID, "sha256:") {
		t.Errorf("audit %+v", entries)
	}

	viewer := e.member(t, a.tok, a.client, "export-viewer@example.com", "viewer")
	if res := e.Do("GET", a.appPath("/users/ann/export"), nil, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d %s", res.Status, res.Body)
	}
	if res := e.Do("GET", a.appPath("/users/nobody/export"), nil, bearer(a.tok)); res.Status != 404 {
		t.Errorf("unknown user: %d", res.Status)
	}
	if res := e.Do("GET", b.appPath("/users/ann/export"), nil, bearer(a.tok)); res.Status != 404 {
		t.Errorf("another client's app: %d", res.Status)
	}
	if res := e.Do("GET", a.appPath("/users/ann/export"), nil, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/apps/x/users/ann/export", nil, bearer(a.tok)); res.Status != 400 {
		t.Errorf("bad app id: %d", res.Status)
	}
}

// TestUserErasureFromTheConsole: a developer erases a user; the answer counts what went,
// another app's user of the same identifier is untouched, the audit entry holds no
// identifier, and a second erasure is not found.
func TestUserErasureFromTheConsole(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "erase-a@example.com")
	b := e.tenant(t, "erase-b@example.com")
	ids := e.users(t, a.appID, "ann", "bob")
	other := e.users(t, b.appID, "ann")
	req := uuid.New()
	e.exec(t, `INSERT INTO notifications (app_id, user_id, request_id, title) VALUES ($1, $2, $3, 'a'), ($1, $2, $4, 'b'), ($1, $5, $3, 'bob')`, a.appID, ids["ann"], req, uuid.New(), ids["bob"])
	e.exec(t, `INSERT INTO notifications (app_id, user_id, request_id, title) VALUES ($1, $2, $3, 'other app')`, b.appID, other["ann"], req)
	e.exec(t, `INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, workflow_id) VALUES ($1, 'r', 'f', 1, 'ann', 's', 'delay', 'ok', 'w'), ($2, 'r', 'f', 1, 'ann', 's', 'delay', 'ok', 'w')`, a.appID, b.appID)
	// What the run timeline shows of a send that reached ann and bob: ann's own rows go;
	// bob's rows whose rendered content, input or branch values name ann are redacted.
	e.exec(t, `UPDATE users SET profile = '{"email": "ann.erased@example.com"}' WHERE id = $1`, ids["ann"])
	e.exec(t, `WITH m AS (INSERT INTO message_logs (app_id, request_id, user_id, user_identifier, channel, step_key, status, idempotency_key) VALUES
		($1, $2, $3, 'ann', 'email', 'mail', 'sent', 'k-ann'), ($1, $2, $4, 'bob', 'email', 'mail', 'sent', 'k-bob') RETURNING id, user_identifier)
		INSERT INTO message_contents (message_log_id, app_id, content) SELECT id, $1, CASE user_identifier
			WHEN 'ann' THEN '{"to": "ann.erased@example.com", "subject": "Hi", "truncated": false}'::jsonb
			ELSE '{"to": "bob@example.com", "html": "<p>ann.erased@example.com joined</p>", "truncated": false}'::jsonb END FROM m`,
		a.appID, req, ids["ann"], ids["bob"])
	e.exec(t, `INSERT INTO flow_logs (app_id, request_id, flow_identifier, flow_version, user_identifier, step_id, step_type, outcome, workflow_id, input, evaluation) VALUES
		($1, $2, 'f', 1, 'bob', 'check', 'branch', 'branched', 'w2', '{"data": {"invitee": "ann.erased@example.com"}, "recipient": {"identifier": "bob"}, "truncated": false}',
		 '{"branch": {"matched": 0, "next": "mail", "conditions": [{"index": 0, "next": "mail", "result": true, "comparisons": [{"field": "data.invitee", "op": "exists", "actual": "ann.erased@example.com", "found": true, "result": true}]}]}}')`,
		a.appID, req.String())

	viewer := e.member(t, a.tok, a.client, "erase-viewer@example.com", "viewer")
	if res := e.Do("DELETE", a.appPath("/users/ann"), nil, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d %s", res.Status, res.Body)
	}
	if res := e.Do("DELETE", b.appPath("/users/ann"), nil, bearer(a.tok)); res.Status != 404 {
		t.Errorf("another client's app: %d", res.Status)
	}
	if res := e.Do("DELETE", a.appPath("/users/ann"), nil, nil); res.Status != 401 {
		t.Errorf("no credentials: %d", res.Status)
	}
	var out struct {
		Erased map[string]int
	}
	must(t, e.Do("DELETE", a.appPath("/users/ann"), nil, bearer(a.tok)), 200, "erase").JSON(t, &out)
	if out.Erased["profile"] != 1 || out.Erased["notifications"] != 2 || out.Erased["flowLogs"] != 1 {
		t.Errorf("erased %v", out.Erased)
	}
	var left, otherLeft, bobLeft int
	row := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT
		(SELECT count(*) FROM notifications WHERE app_id = $1 AND user_id = $2) + (SELECT count(*) FROM flow_logs WHERE app_id = $1 AND user_identifier = 'ann'),
		(SELECT count(*) FROM notifications WHERE app_id = $3) + (SELECT count(*) FROM flow_logs WHERE app_id = $3),
		(SELECT count(*) FROM notifications WHERE user_id = $4)`, a.appID, ids["ann"], b.appID, ids["bob"])
	if err := row.Scan(&left, &otherLeft, &bobLeft); err != nil {
		t.Fatal(err)
	}
	if left != 0 || otherLeft != 2 || bobLeft != 1 {
		t.Errorf("left: erased user %d, other app %d, bob %d", left, otherLeft, bobLeft)
	}
	var content, input, evaluation string
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT c.content::text, l.input::text, l.evaluation::text
		FROM message_contents c JOIN message_logs m ON m.id = c.message_log_id, flow_logs l
		WHERE m.app_id = $1 AND m.user_identifier = 'bob' AND l.app_id = $1 AND l.user_identifier = 'bob'`, a.appID).Scan(&content, &input, &evaluation); err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"bob's sent content": content, "bob's step input": input, "bob's branch evaluation": evaluation} {
		if strings.Contains(text, "ann.erased@example.com") || !strings.Contains(text, "[erased]") {
			t.Errorf("%s after ann's erasure: %s", what, text)
		}
	}
	var contentsLeft int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT count(*) FROM message_contents WHERE app_id = $1`, a.appID).Scan(&contentsLeft); err != nil {
		t.Fatal(err)
	}
	if n := contentsLeft; n != 1 {
		t.Errorf("%d sent contents left, want bob's alone (ann's went with her message log row)", n)
	}
	if out.Erased["othersRedacted"] != 2 {
		t.Errorf("othersRedacted = %d, want bob's message and step", out.Erased["othersRedacted"])
	}
	if res := e.Do("DELETE", a.appPath("/users/ann"), nil, bearer(a.tok)); res.Status != 404 {
		t.Errorf("second erasure: %d", res.Status)
	}
	var entries struct {
		Data []struct {
			Action, TargetID, TargetLabel string
			Details                       map[string]any
		}
	}
	must(t, e.Do("GET", "/v1/auditLogs?clientId="+itoa(a.client)+"&action=app_user.erased", nil, bearer(a.tok)), 200, "audit").JSON(t, &entries)
	if len(entries.Data) != 1 || strings.Contains(entries.Data[0].TargetID, "ann") || entries.Data[0].Details["via"] != "console" {
		t.Errorf("audit %+v", entries)
	}
}

// TestAppRetentionSettings: the app's retention per kind of data with the defaults; admins
// change some (null returns a kind to its default), every problem is listed and nothing
// changes; viewers read only; other clients' apps are not found.
func TestAppRetentionSettings(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "retention-a@example.com")
	b := e.tenant(t, "retention-b@example.com")
	path := a.appPath("/retention")
	type view struct{ Retention, Defaults map[string]int }
	var v view
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &v)
	if v.Retention["messageLogs"] != 90 || v.Retention["inboxUnread"] != 365 || v.Defaults["idempotencyKeys"] != 1 || v.Defaults["webhookDeliveries"] != 30 || len(v.Retention) != 7 {
		t.Errorf("defaults %+v", v)
	}
	must(t, e.Do("PUT", path, map[string]any{"messageLogs": 7, "inboxRead": 30}, bearer(a.tok)), 200, "set").JSON(t, &v)
	if v.Retention["messageLogs"] != 7 || v.Retention["inboxRead"] != 30 || v.Defaults["messageLogs"] != 90 {
		t.Errorf("after set %+v", v)
	}
	must(t, e.Do("PUT", path, map[string]any{"messageLogs": nil}, bearer(a.tok)), 200, "reset").JSON(t, &v)
	if v.Retention["messageLogs"] != 90 || v.Retention["inboxRead"] != 30 {
		t.Errorf("after reset %+v", v)
	}
	msgs := problems(t, e.Do("PUT", path, map[string]any{"inboxRead": 0, "requests": "x", "nope": 1, "flowLogs": 1.5}, bearer(a.tok)))
	if !slices.Equal(msgs, []string{
		"inboxRead must be between 1 and 3650 days",
		"flowLogs must be a whole number of days or null",
		"requests must be a whole number of days or null",
		"nope is not a kind of data with a retention (one of inboxRead, inboxUnread, messageLogs, flowLogs, requests, idempotencyKeys, webhookDeliveries)",
	}) {
		t.Errorf("problems %q", msgs)
	}
	if msgs := problems(t, e.Do("PUT", path, []int{1}, bearer(a.tok))); !slices.Equal(msgs, []string{"body must be a JSON object"}) {
		t.Errorf("problems %q", msgs)
	}
	must(t, e.Do("GET", path, nil, bearer(a.tok)), 200, "read").JSON(t, &v)
	if v.Retention["inboxRead"] != 30 || v.Retention["requests"] != 30 {
		t.Errorf("a refused change was applied: %+v", v)
	}
	viewer := e.member(t, a.tok, a.client, "retention-viewer@example.com", "viewer")
	must(t, e.Do("GET", path, nil, bearer(viewer)), 200, "viewer reads")
	if res := e.Do("PUT", path, map[string]any{"requests": 3}, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer: %d", res.Status)
	}
	for _, m := range []string{"GET", "PUT"} {
		if res := e.Do(m, b.appPath("/retention"), map[string]any{}, bearer(a.tok)); res.Status != 404 {
			t.Errorf("%s another client's app: %d", m, res.Status)
		}
		if res := e.Do(m, path, map[string]any{}, nil); res.Status != 401 {
			t.Errorf("%s no credentials: %d", m, res.Status)
		}
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestErasureWaitsForASendBeingDelivered: a send listing the user inline that is being
// delivered pages through its recipients by position, so the erasure refuses (409) and
// changes nothing until it has completed; then it takes the user out of it.
func TestErasureWaitsForASendBeingDelivered(t *testing.T) {
	e := newEnv(t)
	a := e.tenant(t, "erase-wait@example.com")
	e.users(t, a.appID, "ann")
	req := uuid.New()
	e.exec(t, `INSERT INTO notification_requests (id, app_id, payload, status, recipient_count) VALUES ($1, $2,
		'{"notification":{"title":"Hi"},"recipients":[{"identifier":"bob"},{"identifier":"ann"},{"identifier":"cy"}]}', 'started', 3)`, req, a.appID)
	res := e.Do("DELETE", a.appPath("/users/ann"), nil, bearer(a.tok))
	if res.Status != 409 || !strings.Contains(string(res.Body), req.String()) {
		t.Fatalf("erasure during the send: %d %s", res.Status, res.Body)
	}
	var users, recipients int
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM users WHERE app_id = $1 AND identifier = 'ann'),
		(SELECT jsonb_array_length(payload->'recipients') FROM notification_requests WHERE id = $2)`, a.appID, req).Scan(&users, &recipients); err != nil {
		t.Fatal(err)
	}
	if users != 1 || recipients != 3 {
		t.Fatalf("the refused erasure changed something: users %d, recipients %d", users, recipients)
	}
	e.exec(t, `UPDATE notification_requests SET status = 'completed' WHERE id = $1`, req)
	var out struct{ Erased map[string]int }
	must(t, e.Do("DELETE", a.appPath("/users/ann"), nil, bearer(a.tok)), 200, "erase").JSON(t, &out)
	var payload string
	if err := e.Stack.DB.Pool.QueryRow(context.Background(), `SELECT payload::text FROM notification_requests WHERE id = $1`, req).Scan(&payload); err != nil {
		t.Fatal(err)
	}
	if out.Erased["requestsRedacted"] != 1 || strings.Contains(payload, `"ann"`) || !strings.Contains(payload, `"cy"`) {
		t.Errorf("erased %v, payload %s", out.Erased, payload)
	}
}
