package v1_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// tenant is a signed-in owner of a client with one app.
type tenant struct {
	tok    string
	client int64
	appID  int64
	app    map[string]any
}

// tenant signs up an owner and gives it a client and an app.
func (e *env) tenant(t *testing.T, email string) tenant {
	t.Helper()
	tok := e.user(t, email)
	client := e.client(t, tok, "Client of "+email)
	app := e.app(t, tok, client, "Production")
	return tenant{tok: tok, client: client, appID: int64(app["id"].(float64)), app: app}
}

// appHeaders are app-mode credentials of a console-made app.
func (e *env) appHeaders(app map[string]any) stacktest.Headers {
	return stacktest.Headers{e.Cfg.HeaderPrefix + "API-KEY": app["apiKey"].(string), e.Cfg.HeaderPrefix + "API-SECRET": app["apiSecret"].(string)}
}

func (tn tenant) appPath(rest string) string { return fmt.Sprintf("/v1/apps/%d%s", tn.appID, rest) }

func (tn tenant) clientPath(rest string) string {
	return fmt.Sprintf("/v1/clients/%d%s", tn.client, rest)
}

// withPlans sets the plans, the free one allowing freeQuota notifications a month.
func withPlans(freeQuota int64, more ...config.PlanConfig) func(*config.Config) {
	return func(c *config.Config) {
		c.Ops.Plans = append([]config.PlanConfig{{ID: "free", Name: "Free", MonthlyQuota: &freeQuota, Currency: "usd"}}, more...)
	}
}

// wantMessages fails unless a 400 answer lists exactly the messages.
func wantMessages(t *testing.T, res *stacktest.Response, want ...string) {
	t.Helper()
	if res.Status != 400 {
		t.Fatalf("status %d, want 400: %s", res.Status, res.Body)
	}
	if got := errMessages(t, res); !slices.Equal(got, want) {
		t.Errorf("messages %q, want %q", got, want)
	}
}

// wantError fails unless the answer has the status and the string message.
func wantError(t *testing.T, res *stacktest.Response, status int, message string) {
	t.Helper()
	if res.Status != status {
		t.Fatalf("status %d, want %d: %s", res.Status, status, res.Body)
	}
	if got, _ := res.Map(t)["message"].(string); got != message {
		t.Errorf("message %q, want %q", got, message)
	}
}
