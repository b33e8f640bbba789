package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/delivery/templates"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/realtimetest"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// tally is one set of analytics counts, as sent/delivered/failed/skipped/seen/read/clicked.
type tally struct{ Sent, Delivered, Failed, Skipped, Seen, Read, Clicked int64 }

func (c tally) String() string {
	return fmt.Sprintf("%d/%d/%d/%d/%d/%d/%d", c.Sent, c.Delivered, c.Failed, c.Skipped, c.Seen, c.Read, c.Clicked)
}

func (c *tally) add(o tally) {
	c.Sent, c.Delivered, c.Failed, c.Skipped = c.Sent+o.Sent, c.Delivered+o.Delivered, c.Failed+o.Failed, c.Skipped+o.Skipped
	c.Seen, c.Read, c.Clicked = c.Seen+o.Seen, c.Read+o.Read, c.Clicked+o.Clicked
}

type tallyDay struct {
	Date string
	tally
}

type tallySeries struct {
	Totals tally
	Days   []tallyDay
}

// TestAnalyticsOfAScriptedScenario sends through the whole pipeline (relay, Temporal,
// delivery activities, a webhook receiver) and checks every analytics count against what
// the script did: 3 template sends and 1 plain send to 4 users over in-app and webhook,
// one user's webhook off by preference, one webhook delivery refused for good, reads,
// clicks, an unread and a mark-all-seen through the v3 API, and a provider click report.
func TestAnalyticsOfAScriptedScenario(t *testing.T) {
	system := smtptest.Start(t)
	e := stacktest.New(t, stacktest.Options{Temporal: true, Configure: func(c *config.Config) {
		c.Console.SMTPHost, c.Console.SMTPPort = system.Host, system.Port
		c.Console.URL = "https://console.example.com"
		c.Console.FilesDir = t.TempDir()
	}})
	ctx := context.Background()
	start := time.Now().UTC()
	// The console sees the test app through a client it owns.
	owner := signUp(t, e, system, "analytics@example.com")
	client := owner.do("POST", "/v1/clients", map[string]string{"name": "Acme"}, 201)["id"]
	sql(t, e, "UPDATE apps SET client_id = $1 WHERE id = $2", int64(client.(float64)), e.App.AppID)

	rcv := newReceiver(t, map[string][]int{"dave": {400}})
	inst := webhookInstance(t, e, rcv.srv.URL+"/hooks", hookSecret)
	tpl, err := e.Stack.Templates.Create(ctx, e.App.AppID, templates.TemplateInput{Identifier: "welcome"})
	if err != nil {
		t.Fatal(err)
	}
	for ch, content := range map[string]string{
		"inApp":   `{"title":"Welcome {{user.identifier}}","message":"Glad you are here"}`,
		"webhook": `{"title":"Welcome","body":"Glad you are here"}`,
	} {
		if _, err := e.Stack.Templates.SetContent(ctx, e.App.AppID, tpl.ID, ch, templates.ContentInput{Fields: json.RawMessage(content)}); err != nil {
			t.Fatal(err)
		}
	}
	cat := e.Do("POST", "/v3/categories", `{"identifier":"promo","name":"Promotions"}`, e.AppHeaders())
	if cat.Status != 200 {
		t.Fatalf("category: %d %s", cat.Status, cat.Body)
	}
	pref := map[string]any{"preference": []any{map[string]any{"categoryId": cat.Map(t)["id"], "channels": []any{map[string]any{"channel": "webhook", "enabled": false}}}}}
	if res := e.Do("PATCH", "/v3/preferences", pref, e.UserHeaders("carol")); res.Status != 200 {
		t.Fatalf("carol's preference: %d %s", res.Status, res.Body)
	}

	everyone := []string{"ann", "bob", "carol", "dave"}
	var welcome []string
	for range 3 {
		welcome = append(welcome, sendNotification(t, e, `{"notification":{"templateIdentifier":"welcome","category":"promo"},
			"sendTo":{"recipients":["ann","bob","carol","dave"]}}`))
	}
	plain := sendNotification(t, e, `{"notification":{"title":"Plain"},"sendTo":{"recipients":["ann","bob"]},"override":{"channels":["inApp"]}}`)
	logs := map[string]map[string]logEntry{}
	for _, req := range welcome {
		var keys []string
		for _, u := range everyone {
			keys = append(keys, u+"/inApp", u+"/webhook")
		}
		logs[req] = waitForLogs(t, e, req, keys...)
	}
	logs[plain] = waitForLogs(t, e, plain, "ann/inApp", "bob/inApp")

	// Inbox actions through the v3 API: ann reads her three welcome notifications and clicks
	// one; bob reads two, marks one unread again, then marks everything seen.
	inbox := func(user string) (welcomeIDs []int64) {
		res := e.Do("GET", "/v3/notifications?limit=20", nil, e.UserHeaders(user))
		var page struct{ Data []struct{ ID int64 } }
		if err := json.Unmarshal(res.Body, &page); err != nil || len(page.Data) != 4 {
			t.Fatalf("%s's inbox: %d %s", user, res.Status, res.Body)
		}
		for _, n := range page.Data {
			var req string
			if err := e.Stack.DB.Pool.QueryRow(ctx, "SELECT request_id::text FROM notifications WHERE id = $1", n.ID).Scan(&req); err != nil {
				t.Fatal(err)
			}
			if req != plain {
				welcomeIDs = append(welcomeIDs, n.ID)
			}
		}
		return welcomeIDs
	}
	act := func(user, method, path string) {
		t.Helper()
		if res := e.Do(method, path, nil, e.UserHeaders(user)); res.Status != 200 {
			t.Fatalf("%s %s %s: %d %s", user, method, path, res.Status, res.Body)
		}
	}
	ann, bob := inbox("ann"), inbox("bob")
	for _, id := range ann {
		act("ann", "POST", fmt.Sprintf("/v3/notifications/%d/reads", id))
	}
	act("ann", "POST", fmt.Sprintf("/v3/notifications/%d/click", ann[0]))
	act("bob", "POST", fmt.Sprintf("/v3/notifications/%d/reads", bob[0]))
	act("bob", "POST", fmt.Sprintf("/v3/notifications/%d/reads", bob[1]))
	act("bob", "DELETE", fmt.Sprintf("/v3/notifications/%d/reads", bob[1]))
	act("bob", "POST", "/v3/notifications/markAllNotificationsAsSeen")

	// The receiver reports that ann clicked her first webhook message.
	event := fmt.Sprintf(`{"id":%q,"status":"clicked"}`, logs[welcome[0]]["ann/webhook"].ProviderMessageID)
	if res := e.Do("POST", fmt.Sprintf("/v1/providerInstances/%d/callback", inst.ID), event, signed(event)); res.Status != 200 {
		t.Fatalf("callback: %d %s", res.Status, res.Body)
	}

	// What the script did. In-app: 12 + 2 written; ann read 3 and clicked 1, bob read 1
	// (2 minus the unread) and saw all 4. Webhook: ann, bob and dave on each of 3 sends,
	// dave's first refused (400, no retry); carol skipped 3 times; ann's click report
	// counts a delivery, a read (an open) and a click.
	wantInApp := tally{Sent: 12, Delivered: 12, Seen: 3, Read: 4, Clicked: 1}
	wantHook := tally{Sent: 8, Delivered: 1, Failed: 1, Skipped: 3, Read: 1, Clicked: 1}
	wantPlain := tally{Sent: 2, Delivered: 2, Seen: 1}
	var wantWelcome, wantApp tally
	wantWelcome.add(wantInApp)
	wantWelcome.add(wantHook)
	wantApp.add(wantWelcome)
	wantApp.add(wantPlain)
	end := time.Now().UTC()

	first, last := start.AddDate(0, 0, -1).Format("2006-01-02"), end.AddDate(0, 0, 1).Format("2006-01-02")
	rng := "?fromDate=" + first + "&toDate=" + last
	base := fmt.Sprintf("/v1/analytics/apps/%d", e.App.AppID)
	get := func(path string, v any) {
		t.Helper()
		owner.decode(path, v)
	}
	// checkDays: nothing before the scenario's first day or after its last, and when it ran
	// within one UTC day, that day holds everything.
	checkDays := func(what string, days []tallyDay, want tally) {
		t.Helper()
		var sum tally
		for _, d := range days {
			sum.add(d.tally)
			if d.Date < start.Format("2006-01-02") || d.Date > end.Format("2006-01-02") {
				if d.tally != (tally{}) {
					t.Errorf("%s: counts on %s, outside the scenario: %s", what, d.Date, d.tally)
				}
			} else if start.Format("2006-01-02") == end.Format("2006-01-02") && d.tally != want {
				t.Errorf("%s on %s: %s, want %s", what, d.Date, d.tally, want)
			}
		}
		if sum != want {
			t.Errorf("%s: days add up to %s, want %s", what, sum, want)
		}
	}
	check := func() {
		t.Helper()
		var days []tallyDay
		get(base+rng, &days)
		checkDays("app", days, wantApp)

		var tpls struct {
			Templates []struct {
				Identifier string
				tallySeries
			}
			WithoutTemplate tallySeries
		}
		get(base+"/templates"+rng, &tpls)
		if len(tpls.Templates) != 1 || tpls.Templates[0].Identifier != "welcome" || tpls.Templates[0].Totals != wantWelcome {
			t.Errorf("templates: %+v, want welcome %s", tpls.Templates, wantWelcome)
		} else {
			checkDays("template list", tpls.Templates[0].Days, wantWelcome)
		}
		if tpls.WithoutTemplate.Totals != wantPlain {
			t.Errorf("without template: %s, want %s", tpls.WithoutTemplate.Totals, wantPlain)
		}
		checkChannels := func(path string, want map[string]tally) {
			t.Helper()
			var list []struct {
				Channel string
				tallySeries
			}
			get(path, &list)
			if len(list) != len(want) {
				t.Errorf("%s: %d channels, want %d", path, len(list), len(want))
			}
			for _, c := range list {
				if c.Totals != want[c.Channel] {
					t.Errorf("%s %s: %s, want %s", path, c.Channel, c.Totals, want[c.Channel])
				}
				checkDays(path+" "+c.Channel, c.Days, want[c.Channel])
			}
		}
		var inAppAll tally
		inAppAll.add(wantInApp)
		inAppAll.add(wantPlain)
		checkChannels(base+"/channels"+rng, map[string]tally{"inApp": inAppAll, "webhook": wantHook})
		tplPath := fmt.Sprintf("%s/templates/%d", base, tpl.ID)
		checkChannels(tplPath+"/channels"+rng, map[string]tally{"inApp": wantInApp, "webhook": wantHook})
		var one tallySeries
		get(tplPath+rng, &one)
		checkDays("template", one.Days, wantWelcome)

		// Each send with its workflow; together they make the template's counts.
		var sends struct {
			Pagination struct{ TotalCount int }
			Data       []struct {
				RequestID, WorkflowID string
				tally
			}
		}
		get(tplPath+"/notifications"+rng, &sends)
		var sum tally
		var got []string
		for _, s := range sends.Data {
			sum.add(s.tally)
			got = append(got, s.RequestID)
			if s.WorkflowID == "" || s.WorkflowID != logs[s.RequestID]["ann/inApp"].WorkflowID {
				t.Errorf("send %s: workflow %q, log says %q", s.RequestID, s.WorkflowID, logs[s.RequestID]["ann/inApp"].WorkflowID)
			}
			if s.Skipped != 1 || s.Sent < 6 {
				t.Errorf("send %s: %s", s.RequestID, s.tally)
			}
		}
		slices.Sort(got)
		want := slices.Clone(welcome)
		slices.Sort(want)
		if !slices.Equal(got, want) || sends.Pagination.TotalCount != 3 || sum != wantWelcome {
			t.Errorf("sends %v (total %d) add up to %s; want %v, %s", got, sends.Pagination.TotalCount, sum, want, wantWelcome)
		}
	}
	check()
	if _, err := e.Stack.Analytics.Rollup(ctx); err != nil {
		t.Fatal(err)
	}
	check()

	// The message log finds the refused delivery with its request and workflow.
	var failed struct {
		Data []struct{ RequestID, WorkflowID, UserIdentifier, Channel, Status string }
	}
	owner.decode(fmt.Sprintf("/v1/apps/%d/logs?event=failed", e.App.AppID), &failed)
	if len(failed.Data) != 1 {
		t.Fatalf("failed logs %+v", failed.Data)
	}
	f := failed.Data[0]
	if f.UserIdentifier != "dave" || f.Channel != "webhook" || logs[f.RequestID]["dave/webhook"].Status != "failed" ||
		f.WorkflowID != logs[f.RequestID]["dave/webhook"].WorkflowID || !strings.HasPrefix(f.WorkflowID, "send") {
		t.Errorf("failed log %+v", f)
	}

	// The same outcomes in the metrics: decisions without a provider, each provider call
	// with its latency, and the open realtime connections.
	q := url.Values{"apiKey": {e.App.APIKey}, "userId": {"ann"}}
	if c := realtimetest.OpenSSE(t, e.BaseURL+"/v3/realtime?"+q.Encode(), nil); c.Status != 200 {
		t.Fatalf("SSE: %d %s", c.Status, c.Body)
	}
	e.Eventually(realtimetest.WaitTimeout, "the stream to attach", func() bool { return e.Stack.Realtime.Hub.Connections() == 1 })
	metrics := string(e.Do("GET", "/metrics", nil, e.MetricsHeaders()).Body)
	for _, want := range []string{
		`herald_deliveries_total{channel="inApp",provider="",status="delivered"} 14`,
		`herald_deliveries_total{channel="webhook",provider="",status="skipped"} 3`,
		`herald_deliveries_total{channel="webhook",provider="webhook",status="sent"} 8`,
		`herald_deliveries_total{channel="webhook",provider="webhook",status="failed"} 1`,
		`herald_provider_call_duration_seconds_count{channel="webhook",provider="webhook"} 9`,
		`herald_realtime_connections 1`,
	} {
		if !strings.Contains(metrics, want+"\n") {
			t.Errorf("metrics lack %s", want)
		}
	}
}

// decode GETs a console route and decodes its 200 answer.
func (c console) decode(path string, v any) {
	c.t.Helper()
	res := c.e.Do("GET", path, nil, stacktest.Headers{"Authorization": "Bearer " + c.tok})
	if res.Status != 200 {
		c.t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
	}
	res.JSON(c.t, v)
}
