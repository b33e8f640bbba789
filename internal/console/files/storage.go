// Package files stores files uploaded through the console (images for notifications,
// exported workflows, email layouts): validation of size, type and name, metadata in
// Postgres, and the bytes on local disk (HERALD_FILES_DIR) or in an S3-compatible bucket
// (HERALD_FILES_S3_*) behind a Storage interface.
package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Storage keeps file contents under keys of the form "folder/name".
type Storage interface {
	// Put stores size bytes of r (of the given content type) under key.
	Put(ctx context.Context, key string, r io.Reader, size int64, contentType string) error
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	Delete(ctx context.Context, key string) error
}

// ErrNotStored means the storage has no object under a key.
var ErrNotStored = errors.New("files: not stored")

// namePattern is the only shape a stored name (and a folder) may have: no separators, no
// leading dot, so a key can never leave its folder.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$`)

// ValidName reports whether s is a safe folder or file name.
func ValidName(s string) bool { return namePattern.MatchString(s) && !strings.Contains(s, "..") }

// Local stores files on disk under Root.
type Local struct {
	Root string
}

// path maps a key to a file under Root, refusing anything that could escape it.
func (l Local) path(key string) (string, error) {
	folder, name, ok := strings.Cut(key, "/")
	if !ok || !ValidName(folder) || !ValidName(name) {
		return "", fmt.Errorf("files: invalid key %q", key)
	}
	root, err := filepath.Abs(l.Root)
	if err != nil {
		return "", err
	}
	p := filepath.Join(root, folder, name)
	if !strings.HasPrefix(p, root+string(filepath.Separator)) {
		return "", fmt.Errorf("files: key %q escapes the root", key)
	}
	return p, nil
}

// Put writes r to key atomically (a temporary file renamed into place).
func (l Local) Put(_ context.Context, key string, r io.Reader, _ int64, _ string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".upload-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after a successful rename
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// Get opens the file of key.
func (l Local) Get(_ context.Context, key string) (io.ReadCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if errors.Is(err, os.ErrNotExist) {
		return nil, ErrNotStored
	}
	return f, err
}

// Delete removes the file of key; a missing file is not an error.
func (l Local) Delete(_ context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
