package integration

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// stepView is a recorded step as the run timeline and the request detail answer it.
type stepView struct {
	StepID  string `json:"stepId"`
	Outcome string `json:"outcome"`
	Input   *struct {
		Data      map[string]any `json:"data"`
		Recipient struct {
			Identifier string `json:"identifier"`
		} `json:"recipient"`
		Truncated bool `json:"truncated"`
	} `json:"input"`
	Evaluation *struct {
		Branch *struct {
			Matched    int    `json:"matched"`
			Next       string `json:"next"`
			Conditions []struct {
				Result      bool `json:"result"`
				Comparisons []struct {
					Field  string          `json:"field"`
					Op     string          `json:"op"`
					Value  json.RawMessage `json:"value"`
					Actual any             `json:"actual"`
					Found  bool            `json:"found"`
					Result bool            `json:"result"`
				} `json:"comparisons"`
			} `json:"conditions"`
		} `json:"branch"`
		Wait *struct {
			Step           string    `json:"step"`
			State          string    `json:"state"`
			Released       string    `json:"released"`
			At             time.Time `json:"at"`
			NotificationID int64     `json:"notificationId"`
			Observed       struct {
				Read bool `json:"read"`
			} `json:"observed"`
		} `json:"wait"`
	} `json:"evaluation"`
	Message *struct {
		Channel           string  `json:"channel"`
		Status            string  `json:"status"`
		ProviderMessageID *string `json:"providerMessageId"`
		Content           *struct {
			To, Subject, HTML, Title, Body string
			Truncated                      bool
		} `json:"content"`
	} `json:"message"`
}

// TestRunTimelineShowsWhatEachStepSawAndDid: after a real run (Temporal, the SMTP test
// server), the run timeline and the request detail answer, per step, the input it saw, the
// inbox event that released the waitForRead, the branch's matched condition with the
// values it compared, and the email as sent with the provider's answer; the other tenant
// gets 404 and no credentials 401.
func TestRunTimelineShowsWhatEachStepSawAndDid(t *testing.T) {
	e, c := stacktest.NewWithConsole(t, stacktest.Options{Temporal: true})
	owner := c.User("owner@example.com", "correct horse battery")
	app := c.App(owner.AccessToken, c.Client(owner.AccessToken, "Acme"), "Dev")
	e.App = apps.Credentials{AppID: int64(app["id"].(float64)), APIKey: app["apiKey"].(string), APISecret: app["apiSecret"].(string)}
	stranger := c.User("stranger@example.com", "correct horse battery")
	srv := smtptest.Start(t)
	smtpInstance(t, e, srv)
	publishWorkflow(t, e, "order", `{"steps":[
		{"id":"ask","type":"inApp","content":{"title":"Order {{data.order}}","message":"Total {{data.total}}"},"next":"wait"},
		{"id":"wait","type":"waitForRead","step":"ask","timeout":"10m","next":"check","timeoutNext":"check"},
		{"id":"check","type":"branch","conditions":[
			{"if":{"field":"data.total","op":"lt","value":50},"next":"end"},
			{"if":{"and":[{"field":"data.total","op":"gt","value":100},{"step":"ask","is":"read"}]},"next":"mail"}]},
		{"id":"mail","type":"email","content":{"subject":"Your order {{data.order}}","html":"<p>Thanks, <b>{{user.identifier}}</b>: {{data.total}}</p>"}},
		{"id":"end","type":"inApp","content":{"title":"Small order"}}]}`)
	req := sendNotification(t, e, `{"notification":{"workflow":{"identifier":"order"}},
		"sendTo":{"recipients":[{"identifier":"ann","email":"ann@example.com"}]},"data":{"order":"A-7","total":120}}`)
	var id int64
	e.Eventually(60*time.Second, "the question in the inbox", func() bool {
		if page := inbox(t, e, "ann"); len(page.Data) == 1 {
			id = page.Data[0].ID
		}
		return id != 0
	})
	if res := e.Do("POST", fmt.Sprintf("/v3/notifications/%d/reads", id), nil, e.UserHeaders("ann")); res.Status >= 300 {
		t.Fatalf("read: %d %s", res.Status, res.Body)
	}
	waitForRun(t, e, req, "ann", "completed")
	if m := srv.Last(t, "ann@example.com"); m.Subject() != "Your order A-7" {
		t.Fatalf("email subject %q", m.Subject())
	}

	appPath := fmt.Sprintf("/v1/apps/%d", e.App.AppID)
	var tl struct {
		Runs []struct {
			Steps []stepView `json:"steps"`
		} `json:"runs"`
	}
	e.Must(e.Do("GET", appPath+"/workflows/order/runs/"+req, nil, stacktest.Bearer(owner.AccessToken)), 200, "timeline").JSON(t, &tl)
	if len(tl.Runs) != 1 {
		t.Fatalf("runs: %+v", tl.Runs)
	}
	checkSteps(t, "timeline", tl.Runs[0].Steps, id)

	var detail struct {
		Runs []struct {
			Steps []stepView `json:"steps"`
		} `json:"runs"`
	}
	e.Must(e.Do("GET", appPath+"/requests/"+req, nil, stacktest.Bearer(owner.AccessToken)), 200, "request detail").JSON(t, &detail)
	if len(detail.Runs) != 1 {
		t.Fatalf("request detail runs: %+v", detail.Runs)
	}
	checkSteps(t, "request detail", detail.Runs[0].Steps, id)

	// Another tenant and no credentials.
	e.Must(e.Do("GET", appPath+"/workflows/order/runs/"+req, nil, stacktest.Bearer(stranger.AccessToken)), 404, "timeline, another tenant")
	e.Must(e.Do("GET", appPath+"/requests/"+req, nil, stacktest.Bearer(stranger.AccessToken)), 404, "request detail, another tenant")
	e.Must(e.Do("GET", appPath+"/workflows/order/runs/"+req, nil, nil), 401, "timeline, no token")
}

func checkSteps(t *testing.T, what string, steps []stepView, notification int64) {
	t.Helper()
	var got []string
	by := map[string]stepView{}
	for _, s := range steps {
		got = append(got, s.StepID+":"+s.Outcome)
		by[s.StepID] = s
	}
	if strings.Join(got, " ") != "ask:sent wait:waited check:branched mail:sent" {
		t.Fatalf("%s: steps %v", what, got)
	}
	for _, s := range steps {
		if s.Input == nil || s.Input.Recipient.Identifier != "ann" || s.Input.Data["order"] != "A-7" || s.Input.Truncated {
			t.Errorf("%s: input of %s = %+v, want the run's data and ann", what, s.StepID, s.Input)
		}
	}
	ask := by["ask"].Message
	if ask == nil || ask.Channel != "inApp" || ask.Content == nil || ask.Content.Title != "Order A-7" || ask.Content.Body != "Total 120" {
		t.Errorf("%s: the in-app card = %+v", what, ask)
	}
	w := by["wait"].Evaluation
	if w == nil || w.Wait == nil || w.Wait.Released != "inboxEvent" || w.Wait.State != "read" || w.Wait.Step != "ask" ||
		w.Wait.NotificationID != notification || !w.Wait.Observed.Read || w.Wait.At.IsZero() {
		t.Errorf("%s: the wait's release = %+v", what, w)
	}
	b := by["check"].Evaluation
	if b == nil || b.Branch == nil || b.Branch.Matched != 1 || b.Branch.Next != "mail" || len(b.Branch.Conditions) != 2 {
		t.Fatalf("%s: the branch evaluation = %+v", what, b)
	}
	first, second := b.Branch.Conditions[0], b.Branch.Conditions[1]
	if first.Result || len(first.Comparisons) != 1 || first.Comparisons[0].Actual != 120.0 || first.Comparisons[0].Op != "lt" {
		t.Errorf("%s: condition 0 = %+v, want total 120 lt 50 false", what, first)
	}
	if !second.Result || len(second.Comparisons) != 2 || second.Comparisons[0].Field != "data.total" || string(second.Comparisons[0].Value) != "100" ||
		second.Comparisons[0].Actual != 120.0 || !second.Comparisons[1].Result {
		t.Errorf("%s: condition 1 = %+v, want total 120 gt 100 and ask read", what, second)
	}
	if by["wait"].Message != nil || by["check"].Message != nil {
		t.Errorf("%s: control steps have a message", what)
	}
	m := by["mail"].Message
	if m == nil || m.Channel != "email" || m.Status != "sent" || m.ProviderMessageID == nil || m.Content == nil ||
		m.Content.To != "ann@example.com" || m.Content.Subject != "Your order A-7" || !strings.Contains(m.Content.HTML, "Thanks, <b>ann</b>: 120") || m.Content.Truncated {
		t.Errorf("%s: the email = %+v", what, m)
	}
}
