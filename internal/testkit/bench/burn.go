package bench

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"time"
)

// BurnEnv, when set in the bench's environment, turns the process into a CPU burner of
// that many cores (see Burn): the isolation scenario's control starts itself with it.
const BurnEnv = "HERALD_BENCH_BURN"

// burnPeriod is the cycle of each burning thread: busy for its share of it, then asleep.
const burnPeriod = 10 * time.Millisecond

// Burn keeps about cores CPUs busy until the process is killed: ceil(cores) threads, each
// busy for cores/ceil(cores) of every burnPeriod. It shares nothing with Herald but the CPU.
func Burn(cores float64) {
	n := int(math.Ceil(cores))
	busy := time.Duration(float64(burnPeriod) * cores / float64(n))
	runtime.GOMAXPROCS(n + 1)
	for range n {
		go func() {
			runtime.LockOSThread()
			for {
				start := time.Now()
				for time.Since(start) < busy {
				}
				time.Sleep(burnPeriod - busy)
			}
		}()
	}
	select {}
}

// burner is a running CPU burner process.
type burner struct{ cmd *exec.Cmd }

// startBurner starts this executable as a burner of cores CPUs (BurnEnv).
func startBurner(cores float64) (*burner, error) {
	if cores <= 0 || cores > float64(runtime.NumCPU()) {
		return nil, fmt.Errorf("the CPU control takes between 0 and %d cores, not %g", runtime.NumCPU(), cores)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = append(os.Environ(), BurnEnv+"="+strconv.FormatFloat(cores, 'f', -1, 64))
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &burner{cmd: cmd}, nil
}

// stop kills the burner and returns the CPU time it used.
func (b *burner) stop() time.Duration {
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
	if b.cmd.ProcessState == nil {
		return 0
	}
	return b.cmd.ProcessState.UserTime() + b.cmd.ProcessState.SystemTime()
}

// runControl streams B's sends for the phase beside a CPU burner of cores CPUs instead of
// A's noise, and records the burner's measured CPU.
func runControl(res *IsolationResult, streamNoisy func() (latencies, error), cores float64) error {
	b, err := startBurner(cores)
	if err != nil {
		return err
	}
	start := time.Now()
	noisy, err := streamNoisy()
	used := b.stop()
	res.Noisy = noisy
	res.ControlCores = used.Seconds() / time.Since(start).Seconds()
	return err
}
