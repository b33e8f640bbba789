package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gofiber/fiber/v2"

	webinbox "github.com/heraldhq/herald/web/inbox"
)

func widgetApp(t *testing.T, files fstest.MapFS) (*fiber.App, *Widget) {
	t.Helper()
	w, err := NewWidget(files)
	if err != nil {
		t.Fatal(err)
	}
	app := fiber.New()
	w.Register(app)
	return app, w
}

func get(t *testing.T, app *fiber.App, path string, h map[string]string) (int, map[string]string, string) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	res, err := app.Test(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	out := map[string]string{}
	for _, k := range []string{"Content-Type", "Cache-Control", "Access-Control-Allow-Origin", "ETag"} {
		out[k] = res.Header.Get(k)
	}
	return res.StatusCode, out, string(body)
}

func TestWidgetServesStableAndHashedNames(t *testing.T) {
	app, w := widgetApp(t, fstest.MapFS{"herald-inbox.js": {Data: []byte("export const v = 1;")}})
	hashed := w.Hashed["herald-inbox.js"]
	if !strings.HasPrefix(hashed, "herald-inbox.") || !strings.HasSuffix(hashed, ".js") || len(hashed) != len("herald-inbox..js")+12 {
		t.Fatalf("hashed name %q", hashed)
	}
	status, h, body := get(t, app, "/widget/herald-inbox.js", map[string]string{"Origin": "https://shop.example"})
	if status != 200 || body != "export const v = 1;" {
		t.Fatalf("stable entry: %d %q", status, body)
	}
	if h["Content-Type"] != "text/javascript; charset=utf-8" || h["Access-Control-Allow-Origin"] != "*" || !strings.Contains(h["Cache-Control"], "max-age=300") {
		t.Errorf("stable entry headers %v", h)
	}
	status, h2, body := get(t, app, "/widget/"+hashed, nil)
	if status != 200 || body != "export const v = 1;" || !strings.Contains(h2["Cache-Control"], "immutable") || h2["ETag"] != h["ETag"] {
		t.Errorf("hashed: %d %v", status, h2)
	}
	if status, _, _ := get(t, app, "/widget/herald-inbox.js", map[string]string{"If-None-Match": h["ETag"]}); status != 304 {
		t.Errorf("revalidation: %d, want 304", status)
	}
	for _, p := range []string{"/widget/nope.js", "/widget/herald-inbox.000000000000.js", "/widget/..%2Fassets.go"} {
		if status, _, _ := get(t, app, p, nil); status != 404 {
			t.Errorf("%s: %d, want 404", p, status)
		}
	}
	// Another content gets another hashed name.
	_, w2 := widgetApp(t, fstest.MapFS{"herald-inbox.js": {Data: []byte("export const v = 2;")}})
	if w2.Hashed["herald-inbox.js"] == hashed {
		t.Error("the hashed name does not follow the content")
	}
}

// A chunk (named by esbuild with its content hash) is served at its name only, immutable.
func TestWidgetServesChunksImmutable(t *testing.T) {
	app, w := widgetApp(t, fstest.MapFS{
		"herald-inbox.js":         {Data: []byte(`import"./chunk-ABCD1234.js";import("./panel-WXYZ9876.js");`)},
		"chunk-ABCD1234.js":       {Data: []byte("export const a = 1;")},
		"panel-WXYZ9876.js":       {Data: []byte("export const b = 2;")},
		"not-a-chunk-abcd1234.js": {Data: []byte("export const c = 3;")},
	})
	for _, name := range []string{"chunk-ABCD1234.js", "panel-WXYZ9876.js"} {
		if _, ok := w.Hashed[name]; ok {
			t.Errorf("%s got a second hashed name", name)
		}
		status, h, _ := get(t, app, "/widget/"+name, map[string]string{"Origin": "https://shop.example"})
		if status != 200 || !strings.Contains(h["Cache-Control"], "immutable") || h["Access-Control-Allow-Origin"] != "*" || h["Content-Type"] != "text/javascript; charset=utf-8" {
			t.Errorf("%s: %d %v", name, status, h)
		}
	}
	// A name without esbuild's hash is a stable name: revalidated, with a hashed alias.
	if _, h, _ := get(t, app, "/widget/not-a-chunk-abcd1234.js", nil); !strings.Contains(h["Cache-Control"], "max-age=300") {
		t.Errorf("stable name: %v", h)
	}
	if status, _, _ := get(t, app, "/widget/"+w.Hashed["herald-inbox.js"], nil); status != 200 {
		t.Errorf("hashed entry: %d", status)
	}
}

// staticImport finds the chunks a minified module imports statically (import"./x.js" or
// …from"./x.js"); import("./x.js") loads on demand and does not match.
var staticImport = regexp.MustCompile(`(?:from|import)\s*"\./([^"]+)"`)

// The bundle embedded in the binary is the built widget: what the page loads first (the
// entry and the chunks it imports statically, recursively) is within its size budget.
func TestEmbeddedWidgetBundle(t *testing.T) {
	w, err := NewWidget(webinbox.Files())
	if err != nil {
		t.Fatal(err)
	}
	a := w.assets["herald-inbox.js"]
	if a == nil || w.assets["herald-sw.js"] == nil {
		t.Fatal("web/inbox/dist/widget lacks herald-inbox.js or herald-sw.js")
	}
	if !bytes.Contains(a.body, []byte("herald-inbox")) || len(a.body) < 10_000 {
		t.Errorf("the embedded bundle (%d bytes) is not the built widget", len(a.body))
	}
	gz := func(b []byte) int {
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		return buf.Len()
	}
	initial := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		if initial[name] {
			return
		}
		c := w.assets[name]
		if c == nil {
			t.Fatalf("a module imports ./%s, which is not embedded", name)
		}
		initial[name] = true
		for _, m := range staticImport.FindAllSubmatch(c.body, -1) {
			visit(string(m[1]))
		}
	}
	visit("herald-inbox.js")
	size, total := 0, 0
	names, _ := fs.Glob(webinbox.Files(), "*.js")
	for _, name := range names {
		if name == "herald-sw.js" {
			continue
		}
		n := gz(w.assets[name].body)
		total += n
		if initial[name] {
			size += n
		}
		// Every lazily imported chunk is embedded too.
		for _, m := range regexp.MustCompile(`import\("\./([^"]+)"\)`).FindAllSubmatch(w.assets[name].body, -1) {
			if w.assets[string(m[1])] == nil {
				t.Errorf("%s imports ./%s on demand, which is not embedded", name, m[1])
			}
		}
	}
	if size > 35*1024 { // issue 32: the widget's first load stays within 35 KB gzip
		t.Errorf("the widget's initial load is %d bytes gzip, over the 35 KB budget", size)
	}
	t.Logf("initial load (%d files): %d bytes gzip; all chunks: %d bytes gzip", len(initial), size, total)
}
