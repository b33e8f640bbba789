package upgrade

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// PreviousRelease is the commit of the release the test upgrades from: main when the
// round of issue 34 began (e8e5857, "benchmarks: bench-quick before and after this round"),
// the last landed release. Move it to the newest release's commit after each release (and
// say so in docs/deployment.md); HERALD_UPGRADE_FROM overrides it for one run.
const PreviousRelease = "e8e5857dc4978f4a34c75e63d2fbb88c206db736"

// previousCommit is the commit to upgrade from.
func previousCommit() string {
	if c := os.Getenv("HERALD_UPGRADE_FROM"); c != "" {
		return c
	}
	return PreviousRelease
}

// repoRoot is the top of the git work tree holding this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skipf("not in a git clone (%v): the upgrade test builds the previous release from its commit", err)
	}
	return strings.TrimSpace(string(out))
}

// currentBinary builds this tree's `herald` with -trimpath, like the previous release's:
// the two builds then share the build cache for every package the releases have in common,
// so the previous release costs only what changed since (proctest's binary, built without
// -trimpath, would share nothing with it).
func currentBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "herald")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/herald")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the current release: %v\n%s", err, out)
	}
	return bin
}

// previousBinary builds `herald` of the previous release from its commit, once per commit:
// the binary is kept in bin/upgrade/ of the work tree. The sources come out of git with
// `git archive` (nothing of the work tree or its branches changes).
func previousBinary(t *testing.T, commit string) string {
	t.Helper()
	root := repoRoot(t)
	bin := filepath.Join(root, "bin", "upgrade", "herald-"+commit[:12])
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	src := t.TempDir()
	archive := exec.Command("bash", "-c", fmt.Sprintf("git -C %q archive --format=tar %s | tar -x -C %q", root, commit, src))
	if out, err := archive.CombinedOutput(); err != nil {
		t.Fatalf("extract %s: %v\n%s", commit, err, out)
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	// -trimpath: the packages the releases share come from the build cache although the
	// sources sit in a new temporary directory each time.
	tmp := bin + ".tmp"
	build := exec.Command("go", "build", "-trimpath", "-o", tmp, "./cmd/herald")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the previous release %s: %v\n%s", commit[:12], err, out)
	}
	if err := os.Rename(tmp, bin); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); errors.Is(err, os.ErrNotExist) {
		t.Fatalf("no binary at %s", bin)
	}
	return bin
}

// resolvePrevious is the full hash of the previous release's commit. The test is skipped,
// saying why, when the commit is not in the clone (a shallow clone).
func resolvePrevious(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	out, err := exec.Command("git", "-C", root, "rev-parse", "--verify", "--quiet", previousCommit()+"^{commit}").Output()
	if err != nil {
		shallow, _ := exec.Command("git", "-C", root, "rev-parse", "--is-shallow-repository").Output()
		t.Skipf("the previous release's commit %s is not in this clone (shallow: %s): fetch the history (`git fetch --unshallow`) or set HERALD_UPGRADE_FROM to a commit that is",
			previousCommit(), strings.TrimSpace(string(shallow)))
	}
	return strings.TrimSpace(string(out))
}
