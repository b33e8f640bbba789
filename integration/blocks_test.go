package integration

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// TestTemplateBlocksRenderPerRecipient: a template's inApp blocks are rendered for each
// recipient into their inbox row (data with quotes stays valid JSON); a recipient whose data
// makes a button's link unsafe gets no row and a render error in the log; a send without a
// template keeps its own blocks.
func TestTemplateBlocksRenderPerRecipient(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	ctx := context.Background()
	tpl, err := e.Stack.Templates.Create(ctx, e.App.AppID, templates.TemplateInput{Identifier: "approval"})
	if err != nil {
		t.Fatal(err)
	}
	blocks := `[{"type":"avatar","name":"{{data.by}}","text":"asks for approval"},` +
		`{"type":"buttons","exceptStates":["approved"],"buttons":[{"label":"Approve","state":"approved"},{"label":"Open","url":"{{user.profile.link}}"}]},` +
		`{"type":"text","states":["approved"],"text":"Approved by you"}]`
	body, _ := json.Marshal(map[string]string{"title": "Expense from {{data.by}}", "blocks": blocks})
	if _, err := e.Stack.Templates.SetContent(ctx, e.App.AppID, tpl.ID, "inApp", templates.ContentInput{Fields: body}); err != nil {
		t.Fatal(err)
	}
	recipients := `[{"identifier":"ann","link":"https://app.example/r/1"},{"identifier":"bob","link":"javascript:alert(1)"}]`
	req := sendNotification(t, e, `{"notification":{"templateIdentifier":"approval","blocks":[{"type":"text","text":"replaced"}]},"data":{"by":"Sam \"the boss\""},"sendTo":{"recipients":`+recipients+`}}`)
	logs := waitForLogs(t, e, req, "ann/inApp", "bob/inApp")
	if l := logs["bob/inApp"]; l.Status != "failed" || !strings.Contains(l.Error, "inApp.blocks[1].buttons[1].url must be an http or https URL") {
		t.Errorf("bob's log: %+v", l)
	}
	rows := inboxBlocks(t, e, req)
	if len(rows) != 1 {
		t.Fatalf("inbox rows: %v", rows)
	}
	var got []map[string]any
	if err := json.Unmarshal([]byte(rows["ann"]), &got); err != nil || len(got) != 3 {
		t.Fatalf("ann's blocks %s: %v", rows["ann"], err)
	}
	if got[0]["name"] != `Sam "the boss"` || got[1]["buttons"].([]any)[1].(map[string]any)["url"] != "https://app.example/r/1" {
		t.Errorf("ann's blocks: %s", rows["ann"])
	}

	// Without a template the send's own blocks are stored as sent.
	own := sendNotification(t, e, `{"notification":{"title":"Hi","blocks":[{"type":"text","text":"**own**"},{"type":"section","text":{"type":"mrkdwn","text":"slack"}}]},"sendTo":{"recipients":["cy"]}}`)
	waitForLogs(t, e, own, "cy/inApp")
	if b := inboxBlocks(t, e, own)["cy"]; !strings.Contains(b, `"**own**"`) || !strings.Contains(b, `"section"`) {
		t.Errorf("cy's blocks: %s", b)
	}
}

// inboxBlocks returns the blocks of every inbox row of a request, by user.
func inboxBlocks(t *testing.T, e *stacktest.Env, requestID string) map[string]string {
	t.Helper()
	rows, err := e.Stack.DB.Pool.Query(context.Background(), `
		SELECT u.identifier, n.blocks::text FROM notifications n JOIN users u ON u.id = n.user_id WHERE n.request_id = $1`, requestID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var user, b string
		if err := rows.Scan(&user, &b); err != nil {
			t.Fatal(err)
		}
		out[user] = b
	}
	return out
}
