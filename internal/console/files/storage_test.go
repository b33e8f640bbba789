package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSanitize(t *testing.T) {
	cases := map[string]string{
		"logo.png":                        "logo.png",
		"../../etc/passwd":                "passwd",
		`..\..\win.ini`:                   "win.ini",
		".env":                            "env",
		"my photo (1).jpg":                "my-photo--1-.jpg",
		"":                                "file",
		"..":                              "file",
		"a..b.png":                        "a.b.png",
		"ünïcode.png":                     "n-code.png",
		strings.Repeat("x", 300) + ".png": strings.Repeat("x", 96) + ".png",
	}
	for in, want := range cases {
		if got := Sanitize(in); got != want {
			t.Errorf("Sanitize(%q) = %q, want %q", in, got, want)
		}
		if got := Sanitize(in); !ValidName(got) {
			t.Errorf("Sanitize(%q) = %q is not a valid name", in, got)
		}
	}
}

func TestLocalRefusesKeysOutsideItsRoot(t *testing.T) {
	root := t.TempDir()
	l := Local{Root: root}
	ctx := context.Background()
	for _, key := range []string{"../x", "uploads/../../x", "uploads/..", "/etc/passwd", "uploads/a/b", "uploads/.x", "x"} {
		if err := l.Put(ctx, key, strings.NewReader("x"), 1, "text/plain"); err == nil {
			t.Errorf("Put(%q) accepted", key)
		}
		if _, err := l.Get(ctx, key); err == nil {
			t.Errorf("Get(%q) accepted", key)
		}
	}
	if err := l.Put(ctx, "uploads/ok.txt", strings.NewReader("hello"), 5, "text/plain"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "uploads", "ok.txt"))
	if err != nil || string(b) != "hello" {
		t.Errorf("stored %q, %v", b, err)
	}
	if _, err := l.Get(ctx, "uploads/missing.txt"); err != ErrNotStored {
		t.Errorf("missing file: %v", err)
	}
}

func TestTruncateKeepsUTF8(t *testing.T) {
	for _, in := range []string{"héllo wörld", "\xff\xfebad", strings.Repeat("é", 150)} {
		got := truncate(in, 7)
		if len(got) > 7 || !utf8.ValidString(got) {
			t.Errorf("truncate(%q) = %q", in, got)
		}
	}
}

func TestStoredNameTakesTheExtensionFromTheDetectedType(t *testing.T) {
	cases := []struct{ name, ctype, want string }{
		{"x.html", "image/gif", "x.gif"},
		{"logo.png", "image/png", "logo.png"},
		{"photo.JPEG", "image/jpeg", "photo.jpg"},
		{"evil.html.gif", "image/gif", "evil-html.gif"},
		{"payload.svg", "image/png", "payload.png"},
		{"noext", "image/webp", "noext.webp"},
		{".htaccess", "text/plain; charset=utf-8", "htaccess.txt"},
		{"", "application/json", "file.json"},
		{"flow.workflow.js", "application/json", "flow-workflow.json"},
		{"layout.htm", "text/html; charset=utf-8", "layout.html"},
		{strings.Repeat("y", 300) + ".exe", "image/png", strings.Repeat("y", 96) + ".png"},
	}
	for _, c := range cases {
		got := StoredName(c.name, c.ctype)
		if got != c.want {
			t.Errorf("StoredName(%q, %q) = %q, want %q", c.name, c.ctype, got, c.want)
		}
		if !ValidName("0123abcd-" + got) {
			t.Errorf("StoredName(%q) = %q is not a valid name", c.name, got)
		}
	}
}
