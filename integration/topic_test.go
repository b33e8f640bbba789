package integration

import (
	"fmt"
	"testing"

	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

func TestTopicSendReachesSubscribersOnTheirChannels(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	srv := smtptest.Start(t)
	inst := smtpInstance(t, e, srv)
	app := e.App.AppID
	sql(t, e, `INSERT INTO topics (app_id, identifier, name) VALUES ($1, 'releases', 'Releases')`, app)
	sql(t, e, `INSERT INTO users (app_id, identifier, profile) VALUES
		($1, 'mail-only', '{"email":"mail-only@example.com"}'),
		($1, 'everything', '{"email":"everything@example.com"}'),
		($1, 'outsider', '{"email":"outsider@example.com"}')`, app)
	sql(t, e, `INSERT INTO topic_subscriptions (topic_id, user_id, channels)
		SELECT t.id, u.id, CASE u.identifier WHEN 'mail-only' THEN '{email}'::text[] ELSE '{}'::text[] END
		FROM topics t JOIN users u ON u.app_id = t.app_id WHERE t.app_id = $1 AND u.identifier <> 'outsider'`, app)

	// "everything" is also named inline: it still gets one message per channel.
	req := sendNotification(t, e, `{"notification": {"title": "v2.0 is out"}, "sendTo": {"recipients": ["everything"], "topics": ["releases"]}}`)
	logs := waitForLogs(t, e, req, "mail-only/email", "everything/email", "everything/inApp")
	if _, ok := logs["mail-only/inApp"]; ok {
		t.Errorf("mail-only subscribed to email only but has an in-app log: %+v", logs)
	}
	if len(logs) != 3 {
		t.Errorf("log rows %v", logs)
	}
	got := map[string]int{}
	for _, m := range srv.Messages() {
		got[m.To[0]]++
	}
	if got["mail-only@example.com"] != 1 || got["everything@example.com"] != 1 || len(got) != 2 {
		t.Errorf("emails %v", got)
	}
	if len(inbox(t, e, "mail-only").Data) != 0 || len(inbox(t, e, "everything").Data) != 1 || len(inbox(t, e, "outsider").Data) != 0 {
		t.Error("inbox rows do not follow the subscriptions")
	}
	// SMTP reports no delivery events: its callback URL answers 404.
	res := e.Do("POST", fmt.Sprintf("/v1/providerInstances/%d/callback", inst.ID), `{}`, nil)
	if res.Status != 404 {
		t.Errorf("smtp callback: %d %s", res.Status, res.Body)
	}
}
