package integration

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/stack"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

type probeAnswer struct {
	Status  string   `json:"status"`
	Reasons []string `json:"reasons"`
}

func getProbe(t *testing.T, base, path string) (int, probeAnswer) {
	t.Helper()
	res, err := http.Get(base + path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	var a probeAnswer
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return res.StatusCode, a
}

// TestProbesFollowTheDependencies runs the real API: ready with Postgres and Temporal up,
// not ready (503, naming Postgres) once its database is gone, alive throughout; and not
// ready naming Temporal when Temporal does not answer.
func TestProbesFollowTheDependencies(t *testing.T) {
	e := stacktest.New(t, stacktest.Options{Temporal: true})
	if code, a := getProbe(t, e.BaseURL, "/readyz"); code != 200 || a.Status != "ready" {
		t.Fatalf("ready: %d %+v", code, a)
	}
	// Postgres down for this process: its database disappears (connections killed).
	cfg, err := pgx.ParseConfig(e.Cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := pgx.Connect(t.Context(), db.WithDatabase(dbtest.ServerURL(t), "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(context.Background())
	if _, err := admin.Exec(t.Context(), "DROP DATABASE "+pgx.Identifier{cfg.Database}.Sanitize()+" WITH (FORCE)"); err != nil {
		t.Fatal(err)
	}
	code, a := getProbe(t, e.BaseURL, "/readyz")
	if code != 503 || !slices.Equal(a.Reasons, []string{"database: unreachable"}) {
		t.Errorf("Postgres down: %d %+v, want 503 naming the database", code, a)
	}
	if code, a := getProbe(t, e.BaseURL, "/livez"); code != 200 || a.Status != "alive" {
		t.Errorf("livez with Postgres down: %d %+v", code, a)
	}
	// /v1/health keeps its document: 503, database down.
	if res := e.Do("GET", "/v1/health", nil, nil); res.Status != 503 {
		t.Errorf("/v1/health with Postgres down: %d %s", res.Status, res.Body)
	}

	noTemporal := stacktest.New(t, stacktest.Options{})
	code, a = getProbe(t, noTemporal.BaseURL, "/readyz")
	if code != 503 || !slices.Equal(a.Reasons, []string{"temporal: unreachable"}) {
		t.Errorf("Temporal down: %d %+v, want 503 naming Temporal", code, a)
	}
}

// TestReadyzWhileDraining stops a real API process with a drain delay: from the moment it
// is told to stop (SIGTERM cancels this context in herald api), /readyz answers 503 while
// the process still serves, and /livez 200.
func TestReadyzWhileDraining(t *testing.T) {
	cfg := config.Defaults()
	cfg.DatabaseURL = dbtest.URL(t)
	cfg.SecretKey = secrets.Token(32)
	cfg.TemporalAddress = stacktest.SharedTemporal(t).Address
	// Longer than any test run: the test closes the listener itself.
	cfg.ShutdownDrain = time.Hour
	s, err := stack.Open(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	if code, a := getProbe(t, base, "/readyz"); code != 200 {
		t.Fatalf("before SIGTERM: %d %+v", code, a)
	}
	stop()
	// The flag is set right after the context ends; poll until it shows (no timing).
	var code int
	var a probeAnswer
	for code != 503 {
		code, a = getProbe(t, base, "/readyz")
	}
	if !slices.Equal(a.Reasons, []string{"draining: the process is shutting down"}) {
		t.Errorf("draining: %+v", a)
	}
	if code, _ := getProbe(t, base, "/livez"); code != 200 {
		t.Errorf("livez while draining: %d", code)
	}
	ln.Close()
	<-done
}

// TestStartupDoctorLogsProblems checks the short form herald api and herald worker log at
// start-up: a line per WARN or FAIL finding (here no SMTP, the test app in user mode,
// Temporal down), none for the checks that pass, and a closing count.
func TestStartupDoctorLogsProblems(t *testing.T) {
	var logged lockedBuffer
	e := stacktest.New(t, stacktest.Options{Log: &logged})
	e.Stack.LogDoctor(t.Context())
	out := logged.String()
	for _, want := range []string{
		"level=WARN msg=\"doctor: HERALD_SMTP_HOST is unset",
		"level=WARN msg=\"doctor: 1 app(s) in user mode without secure mode",
		"level=ERROR msg=\"doctor: cannot reach Temporal",
		"doctor: checks done",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("start-up log lacks %q:\n%s", want, out)
		}
	}
	for _, check := range []string{"check=database", "check=migrations", "check=secret-key"} {
		if strings.Contains(out, check) {
			t.Errorf("start-up log names the passing %s:\n%s", check, out)
		}
	}
}
