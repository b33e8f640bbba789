package netguard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestClientRefusesInternalAddresses(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("inside")) }))
	defer srv.Close()
	_, err := New("", nil).Client(5 * time.Second).Get(srv.URL)
	if err == nil || !errors.Is(err, ErrNotPublic) || !strings.Contains(err.Error(), "HERALD_PRIVATE_HOSTS") {
		t.Fatalf("loopback reached: %v", err)
	}
	// A nil guard is the strict one.
	var none *Guard
	if _, err := none.Client(5 * time.Second).Get(srv.URL); !errors.Is(err, ErrNotPublic) {
		t.Fatalf("nil guard reached loopback: %v", err)
	}
	res, err := New("", []string{"127.0.0.1"}).Client(5 * time.Second).Get(srv.URL)
	if err != nil {
		t.Fatalf("allow-listed host refused: %v", err)
	}
	res.Body.Close()
	// A name that resolves to loopback is refused after resolution.
	url := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	if _, err := New("", []string{"127.0.0.1"}).Client(5 * time.Second).Get(url); !errors.Is(err, ErrNotPublic) {
		t.Errorf("localhost reached through its name: %v", err)
	}
	// The setting named in refusals is the guard's.
	_, err = New("HERALD_FETCH_ALLOWED_HOSTS", nil).Client(5 * time.Second).Get(srv.URL)
	if err == nil || !strings.Contains(err.Error(), "HERALD_FETCH_ALLOWED_HOSTS") {
		t.Errorf("refusal %v", err)
	}
}

// listen accepts connections on addr and counts them, answering each with banner.
func listen(t *testing.T, addr, banner string) (net.Listener, *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Write([]byte(banner))
			time.Sleep(50 * time.Millisecond)
			c.Close()
		}
	}()
	return ln, &n
}

func TestDialRefusesBeforeConnecting(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:0", "[::1]:0"} {
		ln, accepted := listen(t, addr, "x")
		target := ln.Addr().String()
		host, port, _ := net.SplitHostPort(target)
		// Refusals come first: the listener accepts in arrival order, so a refused dial that
		// had connected would be counted before the allowed ones below.
		_, err := New("", nil).DialContext(context.Background(), "tcp", target)
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Setting != PrivateHostsSetting || refused.Address != host {
			t.Fatalf("%s: dial %v", addr, err)
		}
		if _, err := New("", []string{net.JoinHostPort(host, "1")}).DialContext(context.Background(), "tcp", target); !errors.Is(err, ErrNotPublic) {
			t.Errorf("%s: an entry for another port let it through: %v", addr, err)
		}
		// Allow-listed by address, IPv6 with or without brackets, or for this port only.
		for _, entry := range []string{host, "[" + host + "]", net.JoinHostPort(host, port)} {
			c, err := New("", []string{entry}).DialContext(context.Background(), "tcp", target)
			if err != nil {
				t.Fatalf("%s allow-listed as %q: %v", addr, entry, err)
			}
			b := make([]byte, 1)
			if _, err := c.Read(b); err != nil {
				t.Fatalf("%s: read %v", addr, err)
			}
			c.Close()
		}
		if got := accepted.Load(); got != 3 {
			t.Errorf("%s: %d connections accepted, want the 3 allowed ones (refusals must not connect)", addr, got)
		}
	}
	if _, err := New("", []string{"*"}).DialContext(context.Background(), "unix", "/var/run/docker.sock"); err == nil {
		t.Error("a unix socket was dialled")
	}
}

func TestCheckAtSave(t *testing.T) {
	ctx := context.Background()
	g := New("", []string{"mail.internal", "10.0.0.5", "::1", "*.corp.example", "relay.corp.test:2525"})
	for _, tc := range []struct {
		host, port string
		refused    string // the address named, "" when allowed
	}{
		{"127.0.0.1", "25", "127.0.0.1"},
		{"[::1]", "25", ""},
		{"::1", "25", ""},
		{"0:0:0:0:0:0:0:1", "25", ""},
		{"::ffff:127.0.0.1", "25", "127.0.0.1"},
		{"169.254.169.254", "80", "169.254.169.254"},
		{"100.100.100.200", "80", "100.100.100.200"},
		{"fe80::1", "80", "fe80::1"},
		{"fd00::1", "80", "fd00::1"},
		{"10.0.0.5", "25", ""},
		{"10.0.0.6", "25", "10.0.0.6"},
		{"localhost", "25", "127.0.0.1"},
		{"db.localhost", "25", "127.0.0.1"},
		{"mail.internal", "25", ""},
		{"x.corp.example", "25", ""},
		{"relay.corp.test", "2525", ""},
		{"8.8.8.8", "53", ""},
		{"2001:4860:4860::8888", "53", ""},
		{"64:ff9b::7f00:1", "25", "64:ff9b::7f00:1"},
		{"no-such-host.invalid", "25", ""}, // checked when dialled
	} {
		err := g.Check(ctx, tc.host, tc.port)
		var refused *RefusedError
		switch {
		case tc.refused == "" && err != nil:
			t.Errorf("%s:%s refused: %v", tc.host, tc.port, err)
		case tc.refused != "" && (!errors.As(err, &refused) || refused.Address != tc.refused || !strings.Contains(err.Error(), "HERALD_PRIVATE_HOSTS")):
			t.Errorf("%s:%s: %v, want a refusal naming %s", tc.host, tc.port, err, tc.refused)
		}
	}
	if err := g.Check(ctx, "relay.corp.test", "25"); err != nil {
		// relay.corp.test does not resolve: it passes at save and is checked when dialled.
		t.Errorf("unresolvable host: %v", err)
	}
	if err := g.CheckURL(ctx, "http://[::1]:8080/hook"); err != nil {
		t.Errorf("allow-listed IPv6 URL: %v", err)
	}
	if err := New("", nil).CheckURL(ctx, "http://[::1]:8080/hook"); !errors.Is(err, ErrNotPublic) ||
		err.Error() != "address ::1 is not public: Herald does not connect to loopback, private or link-local addresses unless the operator adds the host to HERALD_PRIVATE_HOSTS" {
		t.Errorf("IPv6 loopback URL: %v", err)
	}
	if err := g.CheckURL(ctx, "ftp://example.com/x"); err == nil || errors.Is(err, ErrNotPublic) {
		t.Errorf("ftp URL: %v", err)
	}
	// Without DNS: literals and localhost names are decided, other names pass.
	for host, refused := range map[string]bool{"127.0.0.1": true, "[fd00::1]": true, "app.localhost": true, "10.0.0.5": false, "internal.corp.test": false} {
		if err := g.CheckLiteral(host, "25"); errors.Is(err, ErrNotPublic) != refused {
			t.Errorf("CheckLiteral(%s): %v", host, err)
		}
	}
}

func TestAllowed(t *testing.T) {
	list := []string{"api.example.com", "*.internal.example.com", " ", "smtp.example.com:587"}
	for host, want := range map[string]bool{
		"api.example.com": true, "API.example.com.": true, "x.internal.example.com": true,
		"internal.example.com": false, "evil.com": false, "": false, "smtp.example.com": false,
	} {
		if got := Allowed(host, list); got != want {
			t.Errorf("%q: %v", host, got)
		}
	}
	if !AllowedAddr("smtp.example.com", "587", list) || AllowedAddr("smtp.example.com", "25", list) {
		t.Error("port-qualified entry")
	}
}

func TestCheckEntry(t *testing.T) {
	for _, ok := range []string{"mail.internal", "10.0.0.5", "::1", "[::1]", "[::1]:2525", "*.corp.example", "smtp.corp.example:587", "fe80::1%eth0"} {
		if err := CheckEntry(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "http://mail.internal", "mail.internal:smtp", "mail.internal:70000", "*.", "10.0.0.0/8", "user@host"} {
		if err := CheckEntry(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A peer that is not what the client expects must not have what it sent echoed back.
func TestDescribeNeverEchoesThePeer(t *testing.T) {
	const banner = "SSH-2.0-OpenSSH_9.6 internal-secret-banner\r\n"
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
			// Answer once the request arrived, so the client reads the banner as its answer.
			c.Read(make([]byte, 4096))
			c.Write([]byte(banner))
			c.Close()
		}
	}()
	_, err = New("", []string{"127.0.0.1"}).Client(5 * time.Second).Get("http://" + ln.Addr().String() + "/")
	if err == nil || !strings.Contains(err.Error(), "internal-secret-banner") {
		t.Fatalf("net/http is expected to quote the banner; got %v", err)
	}
	got := Describe(err, "HTTP", ln.Addr().String())
	if want := "the server at " + ln.Addr().String() + " did not speak HTTP"; got != want {
		t.Errorf("described as %q, want %q", got, want)
	}
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := closed.Addr().String()
	closed.Close()
	_, err = New("", []string{"127.0.0.1"}).DialContext(context.Background(), "tcp", addr)
	if got := Describe(err, "SMTP", addr); got != addr+" refused the connection" {
		t.Errorf("refused: %q", got)
	}
}

func TestIsPublic(t *testing.T) {
	for ip, want := range map[string]bool{
		"8.8.8.8": true, "1.1.1.1": true, "2606:4700:4700::1111": true,
		"127.0.0.1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false, "169.254.169.254": false,
		"0.0.0.0": false, "0.1.2.3": false, "100.64.0.1": false, "198.18.0.1": false, "255.255.255.255": false, "224.0.0.1": false,
		"::": false, "::1": false, "::ffff:10.0.0.1": false, "fe80::1": false, "fc00::1": false, "fec0::1": false,
		"64:ff9b::808:808": true, "64:ff9b::a00:1": false,
	} {
		if got := IsPublic(net.ParseIP(ip)); got != want {
			t.Errorf("%s: %v", ip, got)
		}
	}
	if IsPublic(nil) {
		t.Error("nil is public")
	}
}
