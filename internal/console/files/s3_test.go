package files

import (
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// TestS3 runs the S3 storage against an in-process S3-compatible server.
func TestS3(t *testing.T) {
	backend := s3mem.New()
	if err := backend.CreateBucket("herald-files"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	defer srv.Close()
	s, err := NewS3(S3Config{Endpoint: strings.TrimPrefix(srv.URL, "http://"), Region: "us-east-1", Bucket: "herald-files",
		AccessKey: "key", SecretKey: "secret", Prefix: "tenant/", Insecure: true, PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.Put(ctx, "uploads/a.png", strings.NewReader("png bytes"), 9, "image/png"); err != nil {
		t.Fatal(err)
	}
	obj, err := backend.HeadObject("herald-files", "tenant/uploads/a.png")
	if err != nil || obj.Metadata["Content-Type"] != "image/png" {
		t.Errorf("stored object %+v, %v", obj, err)
	}
	rc, err := s.Get(ctx, "uploads/a.png")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "png bytes" {
		t.Errorf("read %q", b)
	}
	if _, err := s.Get(ctx, "uploads/missing.png"); err != ErrNotStored {
		t.Errorf("missing object: %v", err)
	}
	if err := s.Put(ctx, "uploads/../x", strings.NewReader("x"), 1, "text/plain"); err == nil {
		t.Error("traversing key accepted")
	}
	if err := s.Delete(ctx, "uploads/a.png"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(ctx, "uploads/a.png"); err != ErrNotStored {
		t.Errorf("deleted object: %v", err)
	}
	if err := s.Delete(ctx, "uploads/a.png"); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
}
