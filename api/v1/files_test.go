package v1_test

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"github.com/heraldhq/herald/internal/platform/config"
	"github.com/heraldhq/herald/internal/testkit/stacktest"
)

// pngBytes is a PNG signature followed by n bytes of filler: enough for type sniffing.
func pngBytes(n int) []byte {
	return append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0}, n)...)
}

// upload posts a multipart form with one file and extra fields.
func (e *env) upload(t *testing.T, tok, filename string, content []byte, fields map[string]string) *stacktest.Response {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		w.WriteField(k, v)
	}
	if filename != "" {
		fw, err := w.CreateFormFile("file", filename)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(content)
	}
	w.Close()
	req, _ := http.NewRequest("POST", e.BaseURL+"/v1/files", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return &stacktest.Response{Status: res.StatusCode, Body: body, Header: res.Header}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(t, func(c *config.Config) { c.Console.FilesDir = dir; c.Console.FilesMaxBytes = 2 << 20 })
	tok := e.user(t, "files@example.com")
	client := e.client(t, tok, "Acme")

	// Bigger than the general body limit (1 MiB), within the file limit (2 MiB).
	img := pngBytes(1500 << 10)
	f := must(t, e.upload(t, tok, "logo.png", img, nil), 201, "upload").Map(t)
	name := f["filename"].(string)
	if !strings.HasSuffix(name, "-logo.png") || f["folder"] != "uploads" || f["contentType"] != "image/png" || f["url"] != "/v1/files/uploads/"+name {
		t.Fatalf("upload answer %v", f)
	}
	pub := must(t, e.Do("GET", "/v1/files/uploads/"+name, nil, nil), 200, "public image")
	if !bytes.Equal(pub.Body, img) || pub.Header.Get("Content-Type") != "image/png" || pub.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("served %d bytes as %q", len(pub.Body), pub.Header.Get("Content-Type"))
	}
	must(t, e.Do("GET", "/v1/files/"+name, nil, bearer(tok)), 200, "get with auth")
	if res := e.Do("GET", "/v1/files/"+name, nil, nil); res.Status != 401 {
		t.Errorf("get without auth: %d", res.Status)
	}
	stranger := e.user(t, "stranger@example.com")
	if res := e.Do("GET", "/v1/files/"+name, nil, bearer(stranger)); res.Status != 404 {
		t.Errorf("another client's file: %d", res.Status)
	}
	if res := e.Do("DELETE", "/v1/files/"+name, nil, bearer(stranger)); res.Status != 404 {
		t.Errorf("deleting another client's file: %d", res.Status)
	}

	// Names are sanitised: nothing lands outside the files directory.
	for _, evil := range []string{"../../escape.png", "..\\..\\escape.png", "/etc/escape.png", ".hidden.png"} {
		got := must(t, e.upload(t, tok, evil, pngBytes(10), nil), 201, "upload "+evil).Map(t)["filename"].(string)
		if strings.ContainsAny(got, "/\\") || strings.Contains(got, "..") || !strings.HasSuffix(got, "-escape.png") && !strings.HasSuffix(got, "-hidden.png") {
			t.Errorf("%q stored as %q", evil, got)
		}
		if _, err := os.Stat(filepath.Join(dir, "uploads", got)); err != nil {
			t.Errorf("%q not inside the files directory: %v", got, err)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(filepath.Dir(dir), "*escape*")); len(m) > 0 {
		t.Errorf("files escaped: %v", m)
	}
	for _, p := range []string{"/v1/files/..%2F..%2Fetc%2Fpasswd", "/v1/files/uploads/..%2Fuploads%2F" + name, "/v1/files/uploads/%2e%2e", "/v1/files/.." + name} {
		if res := e.Do("GET", p, nil, bearer(tok)); res.Status != 404 {
			t.Errorf("GET %s: %d", p, res.Status)
		}
	}

	// Limits: size and type.
	res := must(t, e.upload(t, tok, "big.png", pngBytes(2<<20), nil), 413, "oversized upload")
	if !strings.Contains(string(res.Body), "the limit is 2097152 bytes") {
		t.Errorf("413 body %s", res.Body)
	}
	res = must(t, e.upload(t, tok, "note.png", []byte("just text"), nil), 400, "text as an image")
	if got := errMessages(t, res); !slices.Equal(got, []string{"file type text/plain; charset=utf-8 is not accepted in uploads (accepted: image/png, image/jpeg, image/gif, image/webp)"}) {
		t.Errorf("%q", got)
	}
	must(t, e.upload(t, tok, "x.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), nil), 400, "svg")
	res = must(t, e.upload(t, tok, "", nil, map[string]string{"folder": "etc", "clientId": "x"}), 400, "no file")
	if got := errMessages(t, res); !slices.Equal(got, []string{"file is required (a multipart/form-data field named file)", "clientId must be a positive integer"}) {
		t.Errorf("%q", got)
	}
	res = must(t, e.upload(t, tok, "a.png", pngBytes(10), map[string]string{"folder": "etc"}), 400, "bad folder")
	if got := errMessages(t, res); !slices.Equal(got, []string{"folder must be one of uploads, workflows, layouts"}) {
		t.Errorf("%q", got)
	}
	if res := e.upload(t, "", "a.png", pngBytes(10), nil); res.Status != 401 {
		t.Errorf("upload without auth: %d", res.Status)
	}

	// Members-only folders.
	wf := must(t, e.upload(t, tok, "flow.json", []byte(`{"steps":[]}`), map[string]string{"folder": "workflows", "clientId": fmt.Sprint(client)}), 201, "workflow").Map(t)
	wfName := wf["filename"].(string)
	if res := e.Do("GET", "/v1/files/workflows/"+wfName, nil, nil); res.Status != 401 {
		t.Errorf("workflow file without auth: %d", res.Status)
	}
	if res := e.Do("GET", "/v1/files/uploads/"+wfName, nil, nil); res.Status != 404 {
		t.Errorf("workflow file through the public folder: %d", res.Status)
	}
	got := must(t, e.Do("GET", "/v1/files/workflows/"+wfName, nil, bearer(tok)), 200, "workflow file")
	if string(got.Body) != `{"steps":[]}` || !strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("workflow file %s %v", got.Body, got.Header)
	}
	must(t, e.upload(t, tok, "layout.html", []byte("<html><body>{{content}}</body></html>"), map[string]string{"folder": "layouts"}), 201, "layout")

	// A viewer reads but does not delete; a second client makes clientId required.
	viewer := e.member(t, tok, client, "fview@example.com", "viewer")
	must(t, e.Do("GET", "/v1/files/"+name, nil, bearer(viewer)), 200, "viewer reads")
	if res := e.Do("DELETE", "/v1/files/"+name, nil, bearer(viewer)); res.Status != 403 {
		t.Errorf("viewer deletes: %d", res.Status)
	}
	if res := e.upload(t, viewer, "v.png", pngBytes(10), nil); res.Status != 403 {
		t.Errorf("viewer uploads: %d", res.Status)
	}
	e.client(t, tok, "Second")
	res = must(t, e.upload(t, tok, "a.png", pngBytes(10), nil), 400, "ambiguous client")
	if got := errMessages(t, res); !slices.Equal(got, []string{"clientId is required (you belong to several clients, or to none)"}) {
		t.Errorf("%q", got)
	}
	must(t, e.Do("DELETE", "/v1/files/"+name, nil, bearer(tok)), 200, "delete")
	if res := e.Do("GET", "/v1/files/uploads/"+name, nil, nil); res.Status != 404 {
		t.Errorf("deleted file: %d", res.Status)
	}
	if _, err := os.Stat(filepath.Join(dir, "uploads", name)); !os.IsNotExist(err) {
		t.Errorf("deleted file still on disk: %v", err)
	}
}

// TestFilesOnS3 stores uploads in an S3-compatible bucket (an in-process S3 server).
func TestFilesOnS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("uploads-bucket"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	e := newEnv(t, func(c *config.Config) {
		c.Console.FilesS3Endpoint, c.Console.FilesS3Bucket = strings.TrimPrefix(srv.URL, "http://"), "uploads-bucket"
		c.Console.FilesS3Region, c.Console.FilesS3AccessKey, c.Console.FilesS3SecretKey = "us-east-1", "k", "s"
		c.Console.FilesS3Insecure, c.Console.FilesS3PathStyle = true, true
	})
	tok := e.user(t, "s3@example.com")
	e.client(t, tok, "Acme")
	img := pngBytes(100)
	name := must(t, e.upload(t, tok, "pic.png", img, nil), 201, "upload").Map(t)["filename"].(string)
	if _, err := backend.HeadObject("uploads-bucket", "uploads/"+name); err != nil {
		t.Fatalf("object not in the bucket: %v", err)
	}
	if got := must(t, e.Do("GET", "/v1/files/uploads/"+name, nil, nil), 200, "get").Body; !bytes.Equal(got, img) {
		t.Errorf("served %d bytes", len(got))
	}
	must(t, e.Do("DELETE", "/v1/files/"+name, nil, bearer(tok)), 200, "delete")
	if _, err := backend.HeadObject("uploads-bucket", "uploads/"+name); err == nil {
		t.Error("object still in the bucket")
	}
}

// TestUploadNamesTakeTheDetectedExtension: a GIF header followed by HTML, uploaded as
// x.html, is accepted as image/gif and stored as …-x.gif, on disk and in an object store,
// so a store or CDN that types by extension serves an image, never a page.
func TestUploadNamesTakeTheDetectedExtension(t *testing.T) {
	polyglot := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00<html><script>alert(document.domain)</script></html>")
	dir := t.TempDir()
	e := newEnv(t, func(c *config.Config) { c.Console.FilesDir = dir })
	tok := e.user(t, "ext@example.com")
	e.client(t, tok, "Acme")
	for original, want := range map[string]string{"x.html": "-x.gif", "x.html.gif": "-x-html.gif", "x.svg": "-x.gif", "x": "-x.gif", "x.GIF": "-x.gif"} {
		f := must(t, e.upload(t, tok, original, polyglot, nil), 201, "upload "+original).Map(t)
		name := f["filename"].(string)
		if f["contentType"] != "image/gif" || !strings.HasSuffix(name, want) || f["originalName"] != original {
			t.Errorf("%s: stored as %q (%v), want …%s", original, name, f["contentType"], want)
		}
		if _, err := os.Stat(filepath.Join(dir, "uploads", name)); err != nil {
			t.Errorf("%s: not on disk as %s: %v", original, name, err)
		}
		res := must(t, e.Do("GET", "/v1/files/uploads/"+name, nil, nil), 200, "serve "+original)
		if res.Header.Get("Content-Type") != "image/gif" {
			t.Errorf("%s served as %q", original, res.Header.Get("Content-Type"))
		}
	}
	// Layout HTML keeps .html only because it is detected as HTML; text named .html is .txt.
	lay := must(t, e.upload(t, tok, "note.html", []byte("just some text"), map[string]string{"folder": "layouts"}), 201, "text layout").Map(t)
	if name := lay["filename"].(string); !strings.HasSuffix(name, "-note.txt") {
		t.Errorf("text named note.html stored as %q", name)
	}

	// In an object store the key carries the detected extension too.
	backend := s3mem.New()
	if err := backend.CreateBucket("ext-bucket"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	s3e := newEnv(t, func(c *config.Config) {
		c.Console.FilesS3Endpoint, c.Console.FilesS3Bucket = strings.TrimPrefix(srv.URL, "http://"), "ext-bucket"
		c.Console.FilesS3Region, c.Console.FilesS3AccessKey, c.Console.FilesS3SecretKey = "us-east-1", "k", "s"
		c.Console.FilesS3Insecure, c.Console.FilesS3PathStyle = true, true
	})
	stok := s3e.user(t, "ext3@example.com")
	s3e.client(t, stok, "Acme")
	name := must(t, s3e.upload(t, stok, "x.html", polyglot, nil), 201, "s3 upload").Map(t)["filename"].(string)
	obj, err := backend.HeadObject("ext-bucket", "uploads/"+name)
	if err != nil {
		t.Fatalf("object %s not in the bucket: %v", name, err)
	}
	if !strings.HasSuffix(name, "-x.gif") || obj.Metadata["Content-Type"] != "image/gif" {
		t.Errorf("object %s stored with metadata %v", name, obj.Metadata)
	}
}
