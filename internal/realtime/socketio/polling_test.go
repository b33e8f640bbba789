package socketio

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/heraldhq/herald/internal/realtime"
)

func TestPollingHandshakesWaitingForConnectAreCapped(t *testing.T) {
	rt := &realtime.Service{Opts: realtime.Options{PingInterval: time.Hour, PingTimeout: time.Hour}}
	s := New(rt, slog.New(slog.DiscardHandler))
	s.maxWaiting = 2
	app := fiber.New()
	s.Register(app)
	open := func() (int, string) {
		res, err := app.Test(httptest.NewRequest("GET", Path+"/?EIO=4&transport=polling", nil), -1)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for range 2 {
		if status, body := open(); status != 200 || body[0] != EngineOpen {
			t.Fatalf("handshake: %d %s", status, body)
		}
	}
	if status, body := open(); status != 503 || body != `{"code":3,"message":"Bad request: too many sessions waiting to connect; retry later","status":"error"}` {
		t.Fatalf("handshake over the cap: %d %s", status, body)
	}
	// A session that ends frees its place.
	s.mu.Lock()
	var one *pollSession
	for _, ps := range s.sessions {
		one = ps
		break
	}
	s.mu.Unlock()
	one.close("test")
	if status, _ := open(); status != 200 {
		t.Fatalf("handshake after a session ended: %d", status)
	}
	if n := s.PollingSessions(); n != 2 {
		t.Errorf("%d polling sessions", n)
	}
}
