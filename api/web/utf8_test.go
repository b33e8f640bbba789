package web

import (
	"bytes"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
)

func utf8App() *fiber.App {
	app := fiber.New(fiber.Config{ErrorHandler: ErrorHandler(slog.New(slog.DiscardHandler))})
	app.Use(RequireUTF8)
	app.Post("/", func(c *fiber.Ctx) error { return c.SendString("ok") })
	return app
}

// TestRequireUTF8 refuses bodies that are not UTF-8 with the NUL character's 400, except
// multipart uploads, and lets valid text of any script through.
func TestRequireUTF8(t *testing.T) {
	app := utf8App()
	for _, c := range []struct {
		body, contentType string
		status            int
	}{
		{"{\"name\":\"\xff\xfe\xfd\"}", "application/json", 400},
		{"{\"name\":\"\xc3\"}", "text/plain", 400},           // a cut-off sequence
		{"{\"name\":\"\xed\xa0\x80\"}", "", 400},             // an encoded surrogate
		{"{\"name\":\"Zoë 東京 🚀\"}", "application/json", 200}, // valid beyond ASCII
		{"", "application/json", 200},
		{"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.png\"\r\n\r\n\x89PNG\xff\xfe\r\n--b--\r\n", "multipart/form-data; boundary=b", 200},
	} {
		req := httptest.NewRequest("POST", "/", strings.NewReader(c.body))
		if c.contentType != "" {
			req.Header.Set("Content-Type", c.contentType)
		}
		res, err := app.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != c.status {
			t.Errorf("%q (%s): %d %s", c.body, c.contentType, res.StatusCode, body)
		}
		if c.status == 400 && string(body) != `{"status":"error","message":["text must be valid UTF-8 without NUL characters"]}` {
			t.Errorf("%q: body %s", c.body, body)
		}
	}
}

// BenchmarkUTF8Check is the cost the check adds to a request: one utf8.Valid pass over a
// send body of about 1 KB, and over a 1 MiB body (the default limit).
func BenchmarkUTF8Check(b *testing.B) {
	send := []byte(`{"notification":{"title":"Order shipped","message":"Your order #1234 is on its way — arrives Tuesday","url":"https://shop.example/orders/1234"},` +
		`"sendTo":{"recipients":["` + strings.Repeat("user-00000000", 60) + `"]},"data":{"orderId":1234,"carrier":"DHL"}}`)
	big := bytes.Repeat([]byte("ascii and ünïcödé text "), (1<<20)/25)
	for name, body := range map[string][]byte{"send 1KB": send, "1MiB": big} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if !utf8.Valid(body) {
					b.Fatal("invalid")
				}
			}
		})
	}
}
