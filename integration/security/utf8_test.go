package security

import (
	"slices"
	"strings"
	"testing"

	"github.com/heraldhq/herald/api/web"
)

// TestInvalidUTF8IsRefusedOnEveryRoute sends a JSON body with invalid UTF-8
// ({"name": "\xff\xfe\xfd"}) to every route of both APIs that takes a body, with valid
// credentials and A's own path values, under each content type a client may use: every
// one answers the same 400 as a NUL character does, before any handler decodes it (a
// decoder would turn the bytes into U+FFFD and store that), and nothing is written.
// Uploads (multipart) keep their binary files.
func TestInvalidUTF8IsRefusedOnEveryRoute(t *testing.T) {
	w := newWorld(t)
	e, a := w.e, w.a
	snap := newSnapshotter(t, e, w.stripe.rows)
	before := snap.take(t)
	want := []string{web.InvalidTextMessage}
	checked := 0
	for _, r := range registeredRoutes(t, e) {
		if !strings.HasPrefix(r.path, "/v1/") && !strings.HasPrefix(r.path, "/v3/") {
			continue
		}
		if r.method != "POST" && r.method != "PUT" && r.method != "PATCH" {
			continue
		}
		if _, stream := streams[r.path]; stream {
			continue
		}
		vals := map[string]string{}
		for _, p := range r.params {
			vals[p] = "1"
			if f, ok := fixtureFor(r, p); ok {
				vals[p] = f.value(a)
			}
		}
		for _, ct := range []string{"application/json", "text/plain", "application/x-www-form-urlencoded", ""} {
			res := rawDo(t, e, r.method, r.fill(vals), ct, "{\"name\":\"\xff\xfe\xfd\",\"title\":\"ok\"}", a.headers(e, r.path))
			var body struct{ Message []string }
			if res.Status != 400 {
				t.Errorf("%s (%q): %d %.200s, want 400", r, ct, res.Status, res.Body)
				continue
			}
			res.JSON(t, &body)
			if !slices.Equal(body.Message, want) {
				t.Errorf("%s (%q): %q, want %q", r, ct, body.Message, want)
			}
		}
		checked++
	}
	if changes := before.diff(snap.take(t)); len(changes) > 0 {
		t.Errorf("invalid UTF-8 wrote %d rows, first: %s", len(changes), changes[0])
	}
	if checked < 80 {
		t.Errorf("only %d routes with bodies checked", checked)
	}

	// A NUL character (a valid \u0000 escape) is refused by the store with the same 400, on
	// both APIs; valid text beyond ASCII is kept as sent.
	for _, c := range []struct{ path, body string }{
		{"/v1/clients", `{"name":"a\u0000b"}`},
		{"/v3/topics", `{"identifier":"nul-topic","name":"a\u0000b"}`},
	} {
		res := e.Must(rawDo(t, e, "POST", c.path, "application/json", c.body, a.headers(e, c.path)), 400, c.path+" with NUL")
		var body struct{ Message []string }
		res.JSON(t, &body)
		if !slices.Equal(body.Message, want) {
			t.Errorf("%s with NUL: %q", c.path, body.Message)
		}
	}
	// Uploads stay binary: a PNG with bytes that are not UTF-8 is stored (w.upload wants 201).
	w.upload(t, a.login.AccessToken, "uploads", "x.png", append([]byte("\x89PNG\r\n\x1a\n\xff\xfe"), make([]byte, 32)...))
	created := e.Must(rawDo(t, e, "POST", "/v1/clients", "application/json", `{"name":"Zoë – 東京 🚀"}`, a.headers(e, "/v1/clients")), 201, "UTF-8 name").Map(t)
	if created["name"] != "Zoë – 東京 🚀" {
		t.Errorf("name stored as %q", created["name"])
	}
	t.Logf("invalid UTF-8: %d routes × 4 content types refused with 400 %q, nothing written; NUL refused the same on /v1 and /v3; binary uploads accepted", checked, want[0])
}
