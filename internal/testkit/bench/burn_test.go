package bench

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be the CPU control's burner, as herald-bench is.
func TestMain(m *testing.M) {
	if v := os.Getenv(BurnEnv); v != "" {
		cores, _ := strconv.ParseFloat(v, 64)
		Burn(cores)
	}
	os.Exit(m.Run())
}

func TestControlBurnsWhatItIsAskedFor(t *testing.T) {
	if _, err := startBurner(0); err == nil || !strings.Contains(err.Error(), "between 0 and") {
		t.Errorf("0 cores: %v", err)
	}
	if _, err := startBurner(1e6); err == nil {
		t.Error("a million cores were accepted")
	}
	b, err := startBurner(0.5)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	time.Sleep(time.Second)
	used := b.stop()
	// Half a core for a second: well above nothing, below a whole core each second.
	if cores := used.Seconds() / time.Since(start).Seconds(); cores < 0.2 || cores > 0.8 {
		t.Errorf("the burner of 0.5 cores took %.2f cores", cores)
	}
}

func TestControlSectionNamesTheBurnerNotAppA(t *testing.T) {
	r := &IsolationResult{BRate: 10, Phase: 20 * time.Second, Control: 1.2, ControlCores: 1.17,
		Idle:  latencies{Sent: 200, P50: 30 * time.Millisecond, P95: 40 * time.Millisecond, P99: 50 * time.Millisecond},
		Noisy: latencies{Sent: 200, P50: 40 * time.Millisecond, P95: 60 * time.Millisecond, P99: 120 * time.Millisecond}}
	var b strings.Builder
	r.write(&b)
	out := b.String()
	for _, want := range []string{"burning 1.2 cores", "The burner measured 1.17 cores",
		"| B beside the burner: p50 / p95 / p99 (200 sends, 0 lost) | 40.0 ms / 60.0 ms / 120.0 ms | p50 ≤ 1.5 × idle — met; p99 ≤ 2 × idle — **missed** |",
		"| beside the burner |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "hung SMTP") || strings.Contains(out, "A's broadcast") {
		t.Errorf("the control's section speaks of app A:\n%s", out)
	}
}
