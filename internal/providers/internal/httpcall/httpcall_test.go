package httpcall

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/netguard"
	"github.com/heraldhq/herald/internal/providers"
)

const secretPath = "/services/T000/B000/very-secret-token"

func TestTransportFailuresAreTransientAndHideTheURL(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	target := srv.URL + secretPath + "?sig=query-secret"
	srv.Close() // nothing listens any more
	req, err := NewJSON(context.Background(), http.MethodPost, target, map[string]string{"a": "b"})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Do(&http.Client{}, req)
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Permanent || !strings.HasPrefix(pe.Message, "request failed: ") {
		t.Fatalf("got %#v", err)
	}
	for _, secret := range []string{"very-secret-token", "query-secret"} {
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%q leaks %q", err, secret)
		}
	}
}

func TestTimeoutsAreTransient(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	req, _ := NewJSON(context.Background(), http.MethodPost, srv.URL+secretPath, nil)
	_, _, err := Do(&http.Client{Timeout: 50 * time.Millisecond}, req)
	var pe *providers.Error
	if !errors.As(err, &pe) || pe.Permanent || pe.Message != "request timed out" {
		t.Fatalf("got %#v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ = NewJSON(ctx, http.MethodPost, srv.URL+secretPath, nil)
	_, _, err = Do(&http.Client{}, req)
	if !errors.As(err, &pe) || pe.Permanent || pe.Message != "request canceled" {
		t.Fatalf("canceled: %#v", err)
	}
}

func TestBadURLDoesNotEchoIt(t *testing.T) {
	_, err := NewJSON(context.Background(), http.MethodPost, "http://[::1"+secretPath, nil)
	if err == nil || strings.Contains(err.Error(), "very-secret-token") || !providers.IsPermanent(err) {
		t.Errorf("got %v", err)
	}
}

func TestCheck(t *testing.T) {
	for status, wantErr := range map[int]bool{200: false, 202: false, 204: false, 400: true, 500: true} {
		err := Check(&http.Response{StatusCode: status, Header: http.Header{}}, []byte("x"), false)
		if (err != nil) != wantErr {
			t.Errorf("%d: %v", status, err)
		}
	}
}

func TestClientDefault(t *testing.T) {
	if c := Client(providers.Deps{}); c == nil || c.Timeout == 0 {
		t.Errorf("default client %+v", c)
	}
	mine := &http.Client{}
	if Client(providers.Deps{HTTP: mine}) != mine {
		t.Error("the pipeline's client is not used")
	}
}

// net/http quotes a malformed answer; the provider error must not: the peer may be any
// service the URL was aimed at. A refusal by the guard is permanent and says how to allow.
func TestTransportErrorsNeverEchoThePeer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Read(make([]byte, 4096)) // answer once the request arrived
			c.Write([]byte("SSH-2.0-OpenSSH_9.6 internal-secret-banner\r\n"))
			c.Close()
		}
	}()
	req, _ := NewJSON(context.Background(), http.MethodPost, "http://"+ln.Addr().String()+secretPath, nil)
	_, _, err = Do(netguard.New("", []string{"127.0.0.1"}).Client(5*time.Second), req)
	if want := "request failed: the server at " + ln.Addr().String() + " did not speak HTTP"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	_, _, err = Do(Client(providers.Deps{}), req)
	var pe *providers.Error
	if !errors.As(err, &pe) || !pe.Permanent || !strings.HasPrefix(pe.Message, "request refused: address 127.0.0.1 is not public") ||
		!strings.Contains(pe.Message, "HERALD_PRIVATE_HOSTS") {
		t.Errorf("default client: %#v", err)
	}
}
