package integration

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
	webconsole "github.com/heraldhq/herald/web/console"
)

// The console web app in a real browser: the Playwright journeys of web/console/test
// drive Debian's Chromium against this stack (API serving the embedded console, worker
// and relay on the Temporal dev server, Postgres, system emails to a real SMTP server of
// the test). `make test-web` builds the console first and runs this test.

// consoleDir is the npm package of the console.
var consoleDir = filepath.Join("..", "web", "console")

const consolePassword = "correct horse battery"

func TestConsoleInChromium(t *testing.T) {
	chromium := browserTools(t, consoleDir)
	if _, err := fs.Stat(webconsole.Files(), "index.html"); err != nil {
		t.Fatal("the console is not built into this test binary: run `make console` first (make test-web does)")
	}
	e, con := stacktest.NewWithConsole(t, stacktest.Options{Temporal: true, Configure: consoleRestConfig})

	// An owner's team with an app, and a viewer of that team (invited, accepted).
	owner := con.User("owner@example.com", consolePassword)
	client := con.Client(owner.AccessToken, "Acme")
	app := con.App(owner.AccessToken, client, "Shop")
	viewer := con.User("viewer@example.com", consolePassword)
	e.Must(e.Do("POST", fmt.Sprintf("/v1/clients/%d/invite-users?role=viewer", client), []string{viewer.Email}, stacktest.Bearer(owner.AccessToken)), 200, "invite")
	code := con.Mail.Last(t, viewer.Email).Find(t, `/invitations/([A-Za-z0-9_-]+)`)
	e.Must(e.Do("GET", "/v1/invitations/"+code+"/accept", nil, stacktest.Bearer(viewer.AccessToken)), 200, "accept")

	// An account that the owner invites from the console (the journey accepts it).
	invitee := con.User("invitee@example.com", consolePassword)

	// An account that sets up two-factor authentication in the console.
	settingUp := con.User("settingup@example.com", consolePassword)

	// An account whose password the reset journey changes (no other journey signs in as it).
	forgetful := con.User("forgetful@example.com", consolePassword)

	// An account with two-factor authentication.
	tf := con.User("twofactor@example.com", consolePassword)
	setup := e.Must(e.Do("GET", "/v1/ee/auth/2fa", nil, stacktest.Bearer(tf.AccessToken)), 200, "2fa setup").Map(t)
	secret := setup["secret"].(string)
	now, err := totp.GenerateCode(secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	e.Must(e.Do("PATCH", "/v1/ee/auth/2fa/enable", map[string]string{"code": now}, stacktest.Bearer(tf.AccessToken)), 200, "enable 2fa")

	// The templates journeys (web/console/test/browser/templates.spec.ts): an app of their
	// own (they configure an SMTP provider and create templates and layouts), with a user
	// who has an email address to send a test to.
	studio := con.App(owner.AccessToken, client, "Studio")
	e.Must(e.Do("POST", fmt.Sprintf("/v1/apps/%v/users", studio["id"]), map[string]any{"identifier": "tess-tester",
		"profile": map[string]any{"email": "tess@example.com", "firstName": "Tess"}}, stacktest.Bearer(owner.AccessToken)), 200, "templates user")

	// The test's side door: the last email to an address (the browser reads its code from
	// the real SMTP server's copy), and the authenticator app of the 2FA account.
	mux := http.NewServeMux()
	mux.HandleFunc("/mail", func(w http.ResponseWriter, r *http.Request) {
		last := lastMailTo(con.Mail, r.URL.Query().Get("to"))
		if last == nil {
			http.NotFound(w, r)
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]string{"subject": last.Subject(), "body": last.Body()})
	})
	mux.HandleFunc("/totp", func(w http.ResponseWriter, r *http.Request) {
		// For the 2FA account: the next time step's code (the enabling code's step is used
		// up). With ?secret=: the current code of a secret the browser set up.
		at, key := time.Now().Add(30*time.Second), secret
		if s := r.URL.Query().Get("secret"); s != "" {
			at, key = time.Now(), s
		}
		c, err := totp.GenerateCode(key, at)
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		_, _ = w.Write([]byte(c))
	})
	// The webhooks journey's endpoint: it acknowledges every event webhook request.
	mux.HandleFunc("/hooks/", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = w.Write([]byte(`{"received":true}`))
	})
	side := httptest.NewServer(mux)
	t.Cleanup(side.Close)

	args := []string{"playwright", "test"}
	if grep := os.Getenv("HERALD_CONSOLE_GREP"); grep != "" {
		args = append(args, "--grep", grep)
	}
	cmd := exec.Command("npx", args...)
	cmd.Dir = consoleDir
	cmd.Env = append(os.Environ(),
		"HERALD_URL="+e.BaseURL, "SIDE_URL="+side.URL, "HERALD_CHROMIUM="+chromium,
		"CONSOLE_PASSWORD="+consolePassword, "CONSOLE_URL="+stacktest.ConsoleURL,
		"VIEWER_EMAIL="+viewer.Email, fmt.Sprintf("VIEWER_APP_ID=%v", app["id"]),
		"TWOFACTOR_EMAIL="+tf.Email, "OWNER_EMAIL="+owner.Email, "INVITEE_EMAIL="+invitee.Email, "SETUP_EMAIL="+settingUp.Email, "RESET_EMAIL="+forgetful.Email,
		"SCREENSHOTS="+os.Getenv("HERALD_CONSOLE_SCREENSHOTS"),
		// The channels journey configures an SMTP provider at the test's SMTP server
		// (stacktest allows 127.0.0.1 through HERALD_PRIVATE_HOSTS).
		"SMTP_HOST="+con.Mail.Host, fmt.Sprintf("SMTP_PORT=%d", con.Mail.Port),
		// The templates journeys.
		fmt.Sprintf("TEMPLATES_APP_ID=%v", studio["id"]), "TEMPLATES_USER=tess-tester", "TEMPLATES_USER_EMAIL=tess@example.com",
	)
	out, err := cmd.CombinedOutput()
	t.Logf("npx playwright test:\n%s", out)
	if err != nil {
		t.Fatalf("the console's browser tests failed: %v", err)
	}
}

// lastMailTo is the newest message to an address, or nil.
func lastMailTo(s *smtptest.Server, to string) *smtptest.Message {
	msgs := s.Messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, r := range msgs[i].To {
			if strings.EqualFold(strings.Trim(r, "<>"), to) {
				return &msgs[i]
			}
		}
	}
	return nil
}

// TestConsoleAPITypesAreFresh: the console's generated API types match the OpenAPI
// document the running API serves.
func TestConsoleAPITypesAreFresh(t *testing.T) {
	browserTools(t, consoleDir)
	e := stacktest.New(t, stacktest.Options{})
	res := e.Do("GET", "/v1/openapi.json", nil, nil)
	if res.Status != 200 {
		t.Fatalf("GET /v1/openapi.json: %d", res.Status)
	}
	doc := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(doc, res.Body, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "scripts/gen-api.mjs", "--check", "--from", doc)
	cmd.Dir = consoleDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
