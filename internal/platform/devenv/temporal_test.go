package devenv

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A dev server started on a port of its own choosing starts again on another one when
// the port it was given is taken before it binds it (tests start servers side by side).
func TestTemporalStartsAgainWhenItsFreePortWasTaken(t *testing.T) {
	cli, err := FindTemporalCLI(os.Getenv("HERALD_TEMPORAL_CLI"))
	if err != nil {
		if _, statErr := os.Stat(filepath.Join("..", "..", "..", "bin", "temporal")); statErr != nil {
			t.Skip("no temporal CLI: run `make bin/temporal`")
		}
		cli = filepath.Join("..", "..", "..", "bin", "temporal")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenPort := taken.Addr().(*net.TCPAddr).Port
	var given []int
	freePort = func() (int, error) {
		p := takenPort
		if len(given) > 0 {
			var err error
			if p, err = FreePort(); err != nil {
				return 0, err
			}
		}
		given = append(given, p)
		return p, nil
	}
	defer func() { freePort = FreePort }()

	tmp, err := StartTemporal(context.Background(), TemporalOptions{CLI: cli})
	if err != nil {
		t.Fatalf("start: %v (ports given: %v)", err, given)
	}
	defer tmp.Stop()
	if len(given) != 2 {
		t.Fatalf("ports given %v, want the taken one, then another", given)
	}
	if want := net.JoinHostPort("127.0.0.1", strconv.Itoa(given[1])); tmp.Address != want {
		t.Errorf("address %s, want %s (the second port)", tmp.Address, want)
	}
}
