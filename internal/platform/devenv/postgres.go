package devenv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// PostgresAnswers reports whether a Postgres server accepts a connection for url (to its
// "postgres" database, which always exists).
func PostgresAnswers(ctx context.Context, url string) bool {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return false
	}
	cfg.Database = "postgres"
	cfg.ConnectTimeout = 2 * time.Second
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		return false
	}
	conn.Close(ctx)
	return true
}

// PrivatePostgres makes sure a Postgres cluster of our own runs under dir (initdb on first
// use, pg_ctl start on a free port when stopped) and returns the URL of database dbName in
// it. It needs the PostgreSQL server binaries, not Docker. Concurrent callers (parallel test
// processes) share one cluster through a lock file.
func PrivatePostgres(ctx context.Context, dir, dbName string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	unlock, err := lockFile(dir + ".lock")
	if err != nil {
		return "", err
	}
	defer unlock()

	bin, err := postgresBinDir()
	if err != nil {
		return "", err
	}
	runAs, err := unprivilegedUser()
	if err != nil {
		return "", err
	}
	dir = reachableDir(dir, runAs)
	portFile := filepath.Join(dir, "herald.port")
	if _, err := os.Stat(filepath.Join(dir, "PG_VERSION")); err != nil {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		if err := chown(dir, runAs); err != nil {
			return "", err
		}
		if out, err := run(ctx, runAs, filepath.Join(bin, "initdb"), "-D", dir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"); err != nil {
			return "", fmt.Errorf("initdb %s: %w\n%s", dir, err, out)
		}
	}
	port := 0
	if b, err := os.ReadFile(portFile); err == nil {
		if p, _ := strconv.Atoi(strings.TrimSpace(string(b))); p > 0 {
			url := postgresURL(p, dbName)
			if PostgresAnswers(ctx, url) {
				return url, nil
			}
			// Start again on the same port when it is free, so the URL clients hold
			// (a running API, a restart in a fault test) keeps working.
			if portFree(p) {
				port = p
			}
		}
	}
	if port == 0 {
		if port, err = FreePort(); err != nil {
			return "", err
		}
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300", port, dir)
	logFile := filepath.Join(dir, "server.log")
	if out, err := run(ctx, runAs, filepath.Join(bin, "pg_ctl"), "start", "-D", dir, "-o", opts, "-l", logFile, "-w", "-t", "60"); err != nil {
		return "", fmt.Errorf("pg_ctl start (log: %s): %w\n%s", logFile, err, out)
	}
	if err := os.WriteFile(portFile, []byte(strconv.Itoa(port)), 0o644); err != nil {
		return "", err
	}
	return postgresURL(port, dbName), nil
}

// StopPrivatePostgres stops the cluster under dir, if it runs.
func StopPrivatePostgres(ctx context.Context, dir string) error {
	bin, err := postgresBinDir()
	if err != nil {
		return err
	}
	runAs, err := unprivilegedUser()
	if err != nil {
		return err
	}
	abs, _ := filepath.Abs(dir)
	abs = reachableDir(abs, runAs)
	out, err := run(ctx, runAs, filepath.Join(bin, "pg_ctl"), "stop", "-D", abs, "-m", "fast", "-w")
	if err != nil && !strings.Contains(string(out), "not running") && !strings.Contains(string(out), "does not exist") {
		return fmt.Errorf("pg_ctl stop: %w\n%s", err, out)
	}
	return nil
}

func postgresURL(port int, db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", port, db)
}

// postgresBinDir finds initdb and pg_ctl: on $PATH, or in the newest
// /usr/lib/postgresql/<version>/bin.
func postgresBinDir() (string, error) {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p), nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOf(dirs[i]) > versionOf(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no Postgres answers at HERALD_DATABASE_URL and the PostgreSQL server binaries (initdb, pg_ctl) are not installed: install them (apt-get install postgresql) or start Postgres yourself")
}

func versionOf(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

// unprivilegedUser returns the user to run Postgres as: nobody special unless we are root,
// which initdb refuses; then the "postgres" system user.
func unprivilegedUser() (*user.User, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, errors.New("running as root, and Postgres refuses to run as root: create a 'postgres' system user or run as another user")
	}
	return u, nil
}

func chown(path string, u *user.User) error {
	if u == nil {
		return nil
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return os.Chown(path, uid, gid)
}

func run(ctx context.Context, as *user.User, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	if as != nil {
		uid, _ := strconv.Atoi(as.Uid)
		gid, _ := strconv.Atoi(as.Gid)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
		cmd.Dir = "/"
	}
	// The server must outlive this process (and the test that started it).
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	return cmd.CombinedOutput()
}

func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}

// reachableDir returns dir, or a stand-in under the system temp directory when the user
// Postgres runs as cannot traverse dir's parents (a checkout under /root, say).
func reachableDir(dir string, u *user.User) string {
	if u == nil {
		return dir
	}
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err != nil {
			break
		}
		if st.Mode().Perm()&0o001 == 0 {
			sum := sha256.Sum256([]byte(dir))
			return filepath.Join(os.TempDir(), "herald-pg-"+hex.EncodeToString(sum[:6]))
		}
		if p == filepath.Dir(p) {
			break
		}
	}
	return dir
}
