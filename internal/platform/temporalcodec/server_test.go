package temporalcodec

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

const token = "operator-token-0123456789"

// call posts body to the server and returns the status, headers and body.
func call(t *testing.T, h http.Handler, method, path, body string, headers map[string]string) (int, http.Header, string) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.RemoteAddr = "203.0.113.9:40000"
	for k, v := range headers {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	b, _ := io.ReadAll(w.Result().Body)
	return w.Code, w.Result().Header, string(b)
}

// uiBody is a request body as the Web UI sends it: one json/plain payload.
func uiBody(value string) string {
	b64 := func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }
	return `{"payloads":[{"metadata":{"encoding":"` + b64("json/plain") + `"},"data":"` + b64(value) + `"}]}`
}

type wirePayloads struct {
	Payloads []struct {
		Metadata map[string]string `json:"metadata"`
		Data     string            `json:"data"`
	} `json:"payloads"`
}

func parse(t *testing.T, body string) wirePayloads {
	t.Helper()
	var w wirePayloads
	if err := json.Unmarshal([]byte(body), &w); err != nil || len(w.Payloads) != 1 {
		t.Fatalf("answer %s: %v", body, err)
	}
	return w
}

func TestCodecServer(t *testing.T) {
	k1 := testKey(t, "k1")
	var logs bytes.Buffer
	srv := NewServer(mustNew(t, k1), ServerOptions{Token: token, Origins: []string{"http://localhost:8233"},
		Log: slog.New(slog.NewTextHandler(&logs, nil))})
	t.Cleanup(func() {
		// Every call is on record, refusals as warnings; never a payload or the token.
		l := logs.String()
		if strings.Count(l, "codec server refused") != 10 || !strings.Contains(l, "codec server decoded payloads") || !strings.Contains(l, "payloads=1") {
			t.Errorf("log:\n%s", l)
		}
		if strings.Contains(l, token[:10]) || strings.Contains(l, "alice") {
			t.Errorf("the log shows the token or a payload:\n%s", l)
		}
	})
	auth := map[string]string{"Authorization": "Bearer " + token, "Content-Type": "application/json", "X-Namespace": "default"}

	// CORS preflight of the Web UI: no credentials, the allowed origin mirrored.
	code, h, _ := call(t, srv, "OPTIONS", "/codec/decode", "", map[string]string{
		"Origin": "http://localhost:8233", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "content-type,x-namespace,authorization"})
	if code != 204 || h.Get("Access-Control-Allow-Origin") != "http://localhost:8233" || h.Get("Access-Control-Allow-Credentials") != "true" {
		t.Errorf("preflight: %d %v", code, h)
	}
	for _, want := range []string{"content-type", "x-namespace", "authorization"} {
		if !strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), want) {
			t.Errorf("preflight allows headers %q, not %s", h.Get("Access-Control-Allow-Headers"), want)
		}
	}
	code, h, _ = call(t, srv, "OPTIONS", "/codec/decode", "", map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
	if code != 403 || h.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("preflight of another origin: %d %v", code, h)
	}

	// No token, a wrong one, another scheme: 401, nothing decoded.
	for name, hdr := range map[string]map[string]string{
		"no token":      {},
		"wrong token":   {"Authorization": "Bearer " + token + "x"},
		"prefix":        {"Authorization": "Bearer " + token[:10]},
		"basic":         {"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("x:"+token))},
		"token, no tag": {"Authorization": token},
	} {
		for _, p := range []string{"/codec/decode", "/codec/encode"} {
			code, h, body := call(t, srv, "POST", p, uiBody(`"alice@example.com"`), hdr)
			if code != 401 || strings.Contains(body, "alice") || h.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s: %d %s", name, p, code, body)
			}
		}
	}

	// Encode then decode round trip, as the CLI and the Web UI do.
	code, h, body := call(t, srv, "POST", "/codec/encode", uiBody(`{"email":"alice@example.com"}`), auth)
	if code != 200 || strings.Contains(body, "alice") {
		t.Fatalf("encode: %d %s", code, body)
	}
	if h.Get("Cache-Control") != "no-store" {
		t.Errorf("cache-control %q", h.Get("Cache-Control"))
	}
	w := parse(t, body)
	if md, _ := base64.StdEncoding.DecodeString(w.Payloads[0].Metadata["encoding"]); string(md) != Encoding {
		t.Errorf("encoded payload's encoding %q", md)
	}
	code, _, body = call(t, srv, "POST", "/codec/decode", body, auth)
	w = parse(t, body)
	data, _ := base64.StdEncoding.DecodeString(w.Payloads[0].Data)
	if code != 200 || string(data) != `{"email":"alice@example.com"}` {
		t.Errorf("decode: %d %s", code, data)
	}
	// A plain payload decodes to itself.
	code, _, body = call(t, srv, "POST", "/codec/decode", uiBody(`"plain"`), auth)
	if data, _ := base64.StdEncoding.DecodeString(parse(t, body).Payloads[0].Data); code != 200 || string(data) != `"plain"` {
		t.Errorf("plain decode: %d %s", code, body)
	}

	// From the UI's page the answer carries the CORS headers; from another page, 403.
	withOrigin := map[string]string{"Authorization": "Bearer " + token, "Origin": "http://localhost:8233"}
	if code, h, _ := call(t, srv, "POST", "/codec/decode", uiBody(`1`), withOrigin); code != 200 || h.Get("Access-Control-Allow-Origin") != "http://localhost:8233" {
		t.Errorf("decode from the UI's origin: %d %v", code, h)
	}
	withOrigin["Origin"] = "https://evil.example"
	if code, _, body := call(t, srv, "POST", "/codec/decode", uiBody(`"alice"`), withOrigin); code != 403 || strings.Contains(body, "alice") {
		t.Errorf("decode from another origin: %d %s", code, body)
	}

	// Bad bodies, methods and paths.
	if code, _, _ := call(t, srv, "POST", "/codec/decode", "{", auth); code != 400 {
		t.Errorf("bad JSON: %d", code)
	}
	if code, _, _ := call(t, srv, "GET", "/codec/decode", "", auth); code != 405 {
		t.Errorf("GET: %d", code)
	}
	if code, _, _ := call(t, srv, "POST", "/codec/other", uiBody(`1`), auth); code != 404 {
		t.Errorf("other path: %d", code)
	}
	small := NewServer(mustNew(t, k1), ServerOptions{Token: token, MaxBody: 64})
	if code, _, _ := call(t, small, "POST", "/codec/decode", uiBody(strings.Repeat("x", 100)), auth); code != 413 {
		t.Errorf("large body: %d", code)
	}
}

// Key rotation through the server: a payload encrypted with the old key still decodes once
// a new key is configured first and the old one kept.
func TestCodecServerKeyRotation(t *testing.T) {
	k1, k2 := testKey(t, "k1"), testKey(t, "k2")
	auth := map[string]string{"Authorization": "Bearer " + token}
	_, _, old := call(t, NewServer(mustNew(t, k1), ServerOptions{Token: token}), "POST", "/codec/encode", uiBody(`"alice@example.com"`), auth)
	rotated := NewServer(mustNew(t, k2, k1), ServerOptions{Token: token})
	code, _, body := call(t, rotated, "POST", "/codec/decode", old, auth)
	if data, _ := base64.StdEncoding.DecodeString(parse(t, body).Payloads[0].Data); code != 200 || string(data) != `"alice@example.com"` {
		t.Errorf("old payload after rotation: %d %s", code, body)
	}
	_, _, fresh := call(t, rotated, "POST", "/codec/encode", uiBody(`1`), auth)
	if id, _ := base64.StdEncoding.DecodeString(parse(t, fresh).Payloads[0].Metadata[MetadataKeyID]); string(id) != "k2" {
		t.Errorf("new payloads use key %q", id)
	}
	// Dropping the old key too early: a 400 that names the missing key.
	code, _, body = call(t, NewServer(mustNew(t, k2), ServerOptions{Token: token}), "POST", "/codec/decode", old, auth)
	if code != 400 || !strings.Contains(body, "k1") {
		t.Errorf("without the old key: %d %s", code, body)
	}
}

// herald dev: no token configured, loopback callers only.
func TestCodecServerLoopbackWithoutToken(t *testing.T) {
	srv := NewServer(mustNew(t, testKey(t, "k1")), ServerOptions{LoopbackWithoutToken: true})
	if !srv.Enabled() || NewServer(mustNew(t, testKey(t, "k1")), ServerOptions{}).Enabled() {
		t.Error("Enabled")
	}
	for addr, want := range map[string]int{"127.0.0.1:5000": 200, "[::1]:5000": 200, "203.0.113.9:5000": 401, "10.0.0.2:5000": 401} {
		r := httptest.NewRequest("POST", "/codec/encode", strings.NewReader(uiBody(`1`)))
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != want {
			t.Errorf("%s: %d, want %d", addr, w.Code, want)
		}
	}
	// A page of another origin open in the developer's browser: refused, even as a simple
	// request that skips the preflight.
	r := httptest.NewRequest("POST", "/codec/decode", strings.NewReader(uiBody(`1`)))
	r.RemoteAddr, r.Header["Origin"] = "127.0.0.1:5000", []string{"https://evil.example"}
	r.Header.Set("Content-Type", "text/plain")
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	if w.Code != 403 {
		t.Errorf("a foreign page's call from loopback: %d", w.Code)
	}
	// A token, once set, is required from loopback too.
	withToken := NewServer(mustNew(t, testKey(t, "k1")), ServerOptions{Token: token, LoopbackWithoutToken: true})
	r = httptest.NewRequest("POST", "/codec/encode", strings.NewReader(uiBody(`1`)))
	r.RemoteAddr = "127.0.0.1:5000"
	w = httptest.NewRecorder()
	withToken.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("loopback without the configured token: %d", w.Code)
	}
}
