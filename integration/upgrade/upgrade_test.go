package upgrade

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"go.temporal.io/api/enums/v1"

	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/delivery/channels"
	"github.com/heraldhq/herald/internal/platform/secrets"
	"github.com/heraldhq/herald/internal/testkit/dbtest"
	"github.com/heraldhq/herald/internal/testkit/proctest"
	"github.com/heraldhq/herald/internal/testkit/smtptest"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// sends is how many notifications the test sends, one recipient each, in-app and email.
const sends = 240

// sendEvery paces the sender: the sends span the whole upgrade (about 12 s).
const sendEvery = 50 * time.Millisecond

// emptyDatabase creates a database with no table (dropped when the test ends): the
// previous release migrates it, as it did in production.
func emptyDatabase(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	server := dbtest.ServerURL(t)
	name := "herald_upgrade_" + strings.ToLower(secrets.HexToken(6))
	admin, err := pgx.Connect(ctx, server)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, server)
		if err == nil {
			_, _ = c.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			c.Close(ctx)
		}
	})
	return db.WithDatabase(server, name)
}

// migrate runs `herald migrate` of bin on the stack's database.
func migrate(t *testing.T, bin string, s *proctest.Stack) time.Duration {
	t.Helper()
	start := time.Now()
	cmd := exec.Command(bin, "migrate")
	cmd.Env = append(os.Environ(), "HERALD_DATABASE_URL="+s.Cfg.DatabaseURL, "HERALD_SECRET_KEY="+s.Cfg.SecretKey, "HERALD_LOG_LEVEL=warn")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s migrate: %v\n%s", bin, err, out)
	}
	return time.Since(start)
}

// createApp runs `herald apps create` of bin on the stack's database and returns the new
// app's credentials.
func createApp(t *testing.T, bin string, s *proctest.Stack, name string) apps.Credentials {
	t.Helper()
	cmd := exec.Command(bin, "apps", "create", "--name", name)
	cmd.Env = append(os.Environ(), "HERALD_DATABASE_URL="+s.Cfg.DatabaseURL, "HERALD_SECRET_KEY="+s.Cfg.SecretKey, "HERALD_LOG_LEVEL=warn")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s apps create: %v\n%s", bin, err, out)
	}
	var creds apps.Credentials
	if err := json.Unmarshal(out, &creds); err != nil || creds.AppID == 0 {
		t.Fatalf("%s apps create answered %q: %v", bin, out, err)
	}
	return creds
}

// sender posts the test's sends, one every sendEvery, each through the API processes in
// turn. A send that fails on one API (stopping, not yet up) is retried on the next with
// the same Idempotency-Key, so a retry can never make a second request.
type sender struct {
	key, secret string
	http        *http.Client

	mu       sync.Mutex
	apis     []string
	accepted map[int]string // send number → requestId
	retries  int
	via      map[string]int // API → sends it accepted
}

// setAPIs replaces the API processes sends go through.
func (s *sender) setAPIs(apis ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apis = apis
}

func (s *sender) send(i int) error {
	body, _ := json.Marshal(map[string]any{
		"notification": map[string]any{"title": fmt.Sprintf("Upgrade %d", i), "message": "rolling"},
		"sendTo":       map[string]any{"recipients": []any{map[string]any{"identifier": fmt.Sprintf("u%d", i), "email": fmt.Sprintf("u%d@example.com", i)}}},
	})
	var last error
	for attempt := range 40 {
		s.mu.Lock()
		base := s.apis[(i+attempt)%len(s.apis)]
		s.mu.Unlock()
		req, _ := http.NewRequest("POST", base+"/v3/notifications", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-SERVICE-API-KEY", s.key)
		req.Header.Set("X-SERVICE-API-SECRET", s.secret)
		req.Header.Set("Idempotency-Key", "upgrade-"+strconv.Itoa(i))
		res, err := s.http.Do(req)
		if err == nil {
			out, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var r struct{ RequestID string }
			if res.StatusCode == http.StatusAccepted && json.Unmarshal(out, &r) == nil && r.RequestID != "" {
				s.mu.Lock()
				s.accepted[i] = r.RequestID
				s.via[base]++
				s.retries += attempt
				s.mu.Unlock()
				return nil
			}
			err = fmt.Errorf("%s: %d %s", base, res.StatusCode, out)
		}
		last = err
		time.Sleep(100 * time.Millisecond)
	}
	return last
}

// TestRollingUpgrade runs the previous release's processes and the current ones side by
// side while sends are in flight, following docs/deployment.md's procedure:
//
//  1. the previous release migrates an empty database and serves: its `herald api` and
//     `herald worker`; the sender starts;
//  2. the current release's `herald migrate` runs while sends go on (expand only);
//  3. a current `herald worker` joins on the same task queue, then a current `herald api`
//     (sends now alternate between the two APIs);
//  4. halfway, the previous worker is stopped with SIGTERM, as a rolling deployment stops
//     it, then the previous API; the rest goes through the current API;
//  5. every send is delivered exactly once: one inbox row per request and recipient, one
//     email per recipient at a real SMTP server, every message log row sent; and both
//     workers ran tasks of the same runs' histories (the replay across versions happened).
func TestRollingUpgrade(t *testing.T) {
	if os.Getenv("HERALD_UPGRADE") == "" || testing.Short() {
		t.Skip("rolling-upgrade test with the previous release's binary: run `make test-upgrade` (or set HERALD_UPGRADE=1)")
	}
	commit := resolvePrevious(t)
	began := time.Now()
	newBin := currentBinary(t)
	builtNew := time.Since(began)
	oldBin := previousBinary(t, commit)
	builtOld := time.Since(began) - builtNew
	t.Logf("current release built in %s; previous release %s (%s) built or cached in %s", builtNew.Round(100*time.Millisecond), commit[:12], oldBin, builtOld.Round(100*time.Millisecond))

	s := proctest.New(t, emptyDatabase(t), stacktest.SharedTemporal(t).Address)
	oldMigrate := migrate(t, oldBin, s)
	// The app is created by the previous release too: this tree's store reads columns its
	// migrations have not added yet.
	creds := createApp(t, oldBin, s, "upgrade")
	mail := smtptest.Start(t)
	// A slow mail server keeps emails in flight when the old worker stops.
	mail.SetDelay(20 * time.Millisecond)
	cfg, _ := json.Marshal(map[string]any{"host": mail.Host, "port": mail.Port, "security": "none", "from": "noreply@herald.test"})
	if _, err := s.Local.Channels.CreateInstance(context.Background(), creds.AppID, "email", channels.InstanceInput{Provider: "smtp", Name: "upgrade smtp", Config: cfg}); err != nil {
		t.Fatal(err)
	}

	// 1. The previous release serves.
	oldAPI := s.StartAPIBinary(oldBin, "")
	oldWorker := s.StartBinary(oldBin, "worker")
	snd := &sender{key: creds.APIKey, secret: creds.APISecret, http: &http.Client{Timeout: 10 * time.Second},
		accepted: map[int]string{}, via: map[string]int{}}
	snd.setAPIs(oldAPI.BaseURL)
	var sent atomic.Int64
	errs := make(chan error, sends)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(sendEvery)
		defer tick.Stop()
		for i := range sends {
			<-tick.C
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := snd.send(i); err != nil {
					errs <- fmt.Errorf("send %d: %w", i, err)
				}
				sent.Add(1)
			}()
		}
	}()
	inApp := func() int {
		return s.Count("SELECT count(*) FROM notifications n JOIN notification_requests r ON r.id = n.request_id WHERE r.app_id = $1", creds.AppID)
	}
	s.Eventually(time.Minute, "the previous release to deliver some sends", func() bool { return sent.Load() >= sends/8 && inApp() > 0 })

	// 2. The current release migrates while the previous one serves.
	newMigrate := migrate(t, newBin, s)
	// 3. A current worker, then a current API, join.
	newWorker := s.StartBinary(newBin, "worker")
	newAPI := s.StartAPIBinary(newBin, "")
	snd.setAPIs(oldAPI.BaseURL, newAPI.BaseURL)

	// 4. Halfway, the previous worker and API stop.
	s.Eventually(time.Minute, "half the sends", func() bool { return sent.Load() >= sends/2 })
	deliveredByOld := inApp()
	stopWorker, werr := oldWorker.Terminate(time.Minute)
	snd.setAPIs(newAPI.BaseURL)
	stopAPI, aerr := oldAPI.Terminate(time.Minute)
	if werr != nil || aerr != nil {
		t.Errorf("the previous release did not stop cleanly: worker %v, api %v", werr, aerr)
	}
	stoppedAt := sent.Load()

	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		t.FailNow()
	}

	// 5. Exactly once.
	s.Eventually(3*time.Minute, "every send's inbox row and email", func() bool {
		return inApp() >= sends && len(mail.Messages()) >= sends &&
			s.Count("SELECT count(*) FROM message_logs l JOIN notification_requests r ON r.id = l.request_id WHERE r.app_id = $1 AND l.channel = 'email' AND l.status = 'sent'", creds.AppID) >= sends
	})
	// Late duplicates would arrive after the counts are reached: let retries settle.
	time.Sleep(2 * time.Second)
	rows := inApp()
	distinct := s.Count("SELECT count(DISTINCT (n.request_id, n.user_id)) FROM notifications n JOIN notification_requests r ON r.id = n.request_id WHERE r.app_id = $1", creds.AppID)
	requests := s.Count("SELECT count(*) FROM notification_requests WHERE app_id = $1", creds.AppID)
	perRecipient := map[string]int{}
	for _, m := range mail.Messages() {
		for _, to := range m.To {
			perRecipient[to]++
		}
	}
	missing, dup := 0, 0
	for i := range sends {
		switch n := perRecipient[fmt.Sprintf("u%d@example.com", i)]; {
		case n == 0:
			missing++
		case n > 1:
			dup += n - 1
		}
		if snd.accepted[i] == "" {
			t.Errorf("send %d has no requestId", i)
		}
	}
	if requests != sends || rows != sends || distinct != sends {
		t.Errorf("requests %d, inbox rows %d for %d distinct request+recipient, want %d each", requests, rows, distinct, sends)
	}
	if missing != 0 || dup != 0 || len(mail.Messages()) != sends {
		t.Errorf("emails: %d received, %d recipients missing, %d duplicates; want %d, 0, 0", len(mail.Messages()), missing, dup, sends)
	}

	// Both releases ran tasks, of the same runs where the stop came mid-run.
	oldID, newID := strconv.Itoa(oldWorker.Pid())+"@", strconv.Itoa(newWorker.Pid())+"@"
	byOld, byNew, both := workersOfRuns(t, s, creds.AppID, oldID, newID)
	if byOld == 0 || byNew == 0 {
		t.Errorf("runs with tasks of the previous worker %d, of the current worker %d: want both", byOld, byNew)
	}
	t.Logf("previous release migrated an empty database in %s; the current release's migrate ran under load in %s", oldMigrate.Round(time.Millisecond), newMigrate.Round(time.Millisecond))
	t.Logf("%d sends over %s through the previous API (%d) and the current one (%d), %d retried on the other API; the previous worker stopped (SIGTERM, %s) after %d sends with %d inbox rows written, its API (%s)",
		sends, (time.Duration(sends) * sendEvery).Round(time.Second), snd.via[oldAPI.BaseURL], snd.via[newAPI.BaseURL], snd.retries, stopWorker.Round(time.Millisecond), stoppedAt, deliveredByOld, stopAPI.Round(time.Millisecond))
	t.Logf("workflow runs with tasks of the previous worker %d, of the current worker %d, of both %d", byOld, byNew, both)
	t.Logf("exactly once: %d requests, %d inbox rows (%d distinct), %d emails (missing %d, duplicates %d); %s in all", requests, rows, distinct, len(mail.Messages()), missing, dup, time.Since(began).Round(time.Second))
	if t.Failed() {
		t.Logf("previous worker log:\n%s", tail(oldWorker.Log()))
		t.Logf("current worker log:\n%s", tail(newWorker.Log()))
	}
}

// workersOfRuns reads the history of every run carrying the app's requests and counts the
// runs with workflow or activity tasks taken by the worker whose identity starts with oldID,
// with newID, and with both.
func workersOfRuns(t *testing.T, s *proctest.Stack, appID int64, oldID, newID string) (byOld, byNew, both int) {
	t.Helper()
	rows, err := s.Local.DB.Pool.Query(context.Background(), "SELECT DISTINCT workflow_id FROM notification_requests WHERE app_id = $1 AND workflow_id IS NOT NULL", appID)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	for _, wf := range ids {
		o, n := false, false
		it := s.Local.Temporal.GetWorkflowHistory(context.Background(), wf, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
		for it.HasNext() {
			ev, err := it.Next()
			if err != nil {
				t.Fatalf("history of %s: %v", wf, err)
			}
			id := ev.GetWorkflowTaskStartedEventAttributes().GetIdentity() + ev.GetActivityTaskStartedEventAttributes().GetIdentity()
			o = o || strings.HasPrefix(id, oldID)
			n = n || strings.HasPrefix(id, newID)
		}
		if o {
			byOld++
		}
		if n {
			byNew++
		}
		if o && n {
			both++
		}
	}
	return byOld, byNew, both
}

// tail is the end of a process log, for failure messages.
func tail(log string) string {
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	if len(lines) > 40 {
		lines = lines[len(lines)-40:]
	}
	return strings.Join(lines, "\n")
}
