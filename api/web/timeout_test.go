package web

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

// A handler stuck on a dependency ends at the request deadline with 503; streams get no
// deadline.
func TestRequestTimeout(t *testing.T) {
	app := fiber.New(fiber.Config{ErrorHandler: ErrorHandler(slog.New(slog.DiscardHandler))})
	app.Use(RequestTimeout(50*time.Millisecond, "/stream"))
	stuck := func(c *fiber.Ctx) error {
		<-c.UserContext().Done()
		return c.UserContext().Err()
	}
	app.Get("/work", stuck)
	app.Get("/stream", func(c *fiber.Ctx) error {
		if _, ok := c.UserContext().Deadline(); ok {
			return c.SendString("deadline")
		}
		return c.SendString("none")
	})
	res, err := app.Test(httptest.NewRequest("GET", "/work", nil), 5000)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 503 || !strings.Contains(string(body), "timed out") || res.Header.Get("Retry-After") != "1" {
		t.Errorf("stuck request: %d %s (Retry-After %q)", res.StatusCode, body, res.Header.Get("Retry-After"))
	}
	res, _ = app.Test(httptest.NewRequest("GET", "/stream", nil), 5000)
	body, _ = io.ReadAll(res.Body)
	if string(body) != "none" {
		t.Errorf("a stream got a deadline")
	}
}
