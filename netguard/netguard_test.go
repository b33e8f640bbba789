package netguard

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestClientRefusesInternalAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("inside")) }))
	defer srv.Close()
	_, err := Client(5*time.Second, nil).Get(srv.URL)
	if err == nil || !errors.Is(err, ErrNotPublic) {
		t.Fatalf("loopback reached: %v", err)
	}
	res, err := Client(5*time.Second, []string{"127.0.0.1"}).Get(srv.URL)
	if err != nil {
		t.Fatalf("allow-listed host refused: %v", err)
	}
	res.Body.Close()
	// A name that resolves to loopback is refused after resolution.
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	if _, err := Client(5*time.Second, []string{"127.0.0.1"}).Get(url); err == nil {
		t.Error("localhost reached through its name")
	}
}

func TestAllowed(t *testing.T) {
	list := []string{"api.example.com", "*.internal.example.com", " "}
	for host, want := range map[string]bool{
		"api.example.com": true, "API.example.com.": true, "x.internal.example.com": true,
		"internal.example.com": false, "evil.com": false, "": false,
	} {
		if got := Allowed(host, list); got != want {
			t.Errorf("%q: %v", host, got)
		}
	}
}
