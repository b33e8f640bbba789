// Package realtimetest drives Herald's realtime endpoints from tests with real clients: the
// stock socket.io-client from npm (run by the machine's node), a raw WebSocket client for
// protocol-level checks, and an SSE client over Go's net/http.
package realtimetest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/heraldhq/herald/internal/platform/secrets"
)

// SocketIOClientVersion is the socket.io-client release the tests install from npm.
const SocketIOClientVersion = "4.8.1"

//go:embed client.js
var clientJS []byte

var (
	installOnce sync.Once
	installDir  string
	installErr  error
)

// NodeClientDir installs socket.io-client (once per machine, into the temp dir) and returns
// the directory holding the client script and its node_modules. Without node and npm the test is
// skipped; a failed install fails it.
func NodeClientDir(t testing.TB) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s is not installed, and the Socket.IO tests run the stock socket.io-client under node", tool)
		}
	}
	installOnce.Do(func() { installDir, installErr = install() })
	if installErr != nil {
		t.Fatalf("installing socket.io-client %s with npm: %v", SocketIOClientVersion, installErr)
	}
	return installDir
}

// install puts the package into a versioned directory; concurrent test processes install
// into private directories and the first rename wins.
func install() (string, error) {
	dir := filepath.Join(os.TempDir(), "herald-socketio-client-"+SocketIOClientVersion)
	marker := filepath.Join(dir, "node_modules", "socket.io-client", "package.json")
	if _, err := os.Stat(marker); err == nil {
		return dir, writeClient(dir)
	}
	tmp := dir + ".tmp-" + secrets.HexToken(4)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	pkg := fmt.Sprintf(`{"name":"herald-realtime-test","private":true,"dependencies":{"socket.io-client":"%s"}}`, SocketIOClientVersion)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(pkg), 0o644); err != nil {
		return "", err
	}
	cmd := exec.Command("npm", "install", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v: %s", err, out)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(marker); statErr != nil {
			return "", err
		}
	}
	return dir, writeClient(dir)
}

// clientFile names the script by its content: the install directory is shared by every
// checkout on the machine, and test processes of different versions run at once.
var clientFile = func() string {
	sum := sha256.Sum256(clientJS)
	return "client-" + hex.EncodeToString(sum[:6]) + ".js"
}()

// writeClient puts the script next to node_modules, atomically (another process may be
// starting it).
func writeClient(dir string) error {
	path := filepath.Join(dir, clientFile)
	if b, err := os.ReadFile(path); err == nil && bytes.Equal(b, clientJS) {
		return nil
	}
	tmp := path + ".tmp-" + secrets.HexToken(4)
	if err := os.WriteFile(tmp, clientJS, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Line is one thing the node client reports.
type Line struct {
	// Type is open (the Engine.IO session opened), upgrade (it moved to another transport),
	// ping (a heartbeat arrived), connect, connect_error, disconnect, event, or closed (the
	// test asked the socket to close).
	Type    string          `json:"type"`
	Name    string          `json:"name"`
	Data    json.RawMessage `json:"data"`
	Message string          `json:"message"`
	Reason  string          `json:"reason"`
	// Transport is the Engine.IO transport (polling or websocket) at the time of the line,
	// or the one upgraded to.
	Transport string `json:"transport"`
}

// NodeClient is a running socket.io-client.
type NodeClient struct {
	t     testing.TB
	lines chan Line
	stdin io.WriteCloser
}

// SocketIOOptions configure the node client. Unset fields keep socket.io-client's defaults:
// without Transports, it starts on long-polling and upgrades to WebSocket.
type SocketIOOptions struct {
	Query        map[string]string `json:"query,omitempty"`
	Auth         map[string]any    `json:"auth,omitempty"`
	Transports   []string          `json:"transports,omitempty"`
	Reconnection bool              `json:"reconnection,omitempty"`
}

// StartNodeClient runs socket.io-client against baseURL; it stops when the test ends.
func StartNodeClient(t testing.TB, baseURL string, o SocketIOOptions) *NodeClient {
	t.Helper()
	dir := NodeClientDir(t)
	arg, _ := json.Marshal(struct {
		URL string `json:"url"`
		SocketIOOptions
	}{baseURL, o})
	cmd := exec.Command("node", filepath.Join(dir, clientFile), string(arg))
	cmd.Dir = dir
	cmd.Stderr = &testLog{t: t, prefix: "node: "}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &NodeClient{t: t, lines: make(chan Line, 1024), stdin: stdin}
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var l Line
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				continue
			}
			c.lines <- l
		}
	}()
	t.Cleanup(func() {
		_ = stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return c
}

// WaitTimeout guards every wait of these clients against a hang; it is not an assertion
// about speed.
const WaitTimeout = 60 * time.Second

// Next returns the next line, failing the test when the client exits or hangs.
func (c *NodeClient) Next() Line {
	c.t.Helper()
	select {
	case l, ok := <-c.lines:
		if !ok {
			c.t.Fatal("socket.io-client exited")
		}
		return l
	case <-time.After(WaitTimeout):
		c.t.Fatalf("socket.io-client reported nothing for %s", WaitTimeout)
	}
	return Line{}
}

// Until skips lines until one matches and returns it.
func (c *NodeClient) Until(what string, match func(Line) bool) Line {
	c.t.Helper()
	for {
		l := c.Next()
		if match(l) {
			return l
		}
		c.t.Logf("while waiting for %s, skipped %+v", what, l)
	}
}

// Event waits for the next event of a name.
func (c *NodeClient) Event(name string) Line {
	c.t.Helper()
	return c.Until(name, func(l Line) bool { return l.Type == "event" && l.Name == name })
}

// Outcome waits for the connect or connect_error line, skipping transport lines.
func (c *NodeClient) Outcome() Line {
	c.t.Helper()
	return c.Until("connect or connect_error", func(l Line) bool { return l.Type == "connect" || l.Type == "connect_error" })
}

// MustConnect waits for the connect line, failing on a connect error, and returns it.
func (c *NodeClient) MustConnect() Line {
	c.t.Helper()
	l := c.Outcome()
	if l.Type != "connect" {
		c.t.Fatalf("socket.io-client did not connect: %+v", l)
	}
	return l
}

// Close asks the client to close its socket (socket.close(), as an app does), waits for it
// to confirm and returns the lines that came before (the disconnect among them); the
// process keeps running.
func (c *NodeClient) Close() []Line {
	c.t.Helper()
	if _, err := io.WriteString(c.stdin, "close\n"); err != nil {
		c.t.Fatalf("asking socket.io-client to close: %v", err)
	}
	var before []Line
	for {
		l := c.Next()
		if l.Type == "closed" {
			return before
		}
		before = append(before, l)
	}
}

type testLog struct {
	t      testing.TB
	prefix string
}

// Write logs one chunk of the output.
func (w *testLog) Write(p []byte) (int, error) {
	w.t.Log(w.prefix + strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
