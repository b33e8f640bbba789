package api

import (
	"io/fs"
	"mime"
	"path"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// ConsoleCSP is the Content-Security-Policy of the console's pages: scripts, fetches and
// fonts from this origin only, no plugins, no framing. Styles allow 'unsafe-inline'
// because the component kit's scroll lock (Radix dialogs) inserts a <style> element;
// no script runs from markup.
const ConsoleCSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// consolePlaceholder is served when the binary was built without the console's bundle.
const consolePlaceholder = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Herald</title></head>
<body><main><h1>Herald</h1><p>The console was not built into this binary. Run <code>make build</code>
(it needs Node.js) and start Herald again. The APIs are at <code>/v1</code> and <code>/v3</code>.</p></main></body></html>`

// apiPrefixes are paths that never fall back to the console's index.html: a miss there is
// the API's 404.
var apiPrefixes = []string{"/v1", "/v3", "/widget", "/socket.io", "/metrics"}

// Console serves the console web app at /: files under assets/ (content-hashed names,
// cached as immutable), other files of the bundle, and index.html for every other path so
// deep links such as /apps/3/settings load the app.
type Console struct {
	files fs.FS
	index []byte
}

// NewConsole serves files (the output of the console's build); without an index.html it
// serves a page saying how to build the console.
func NewConsole(files fs.FS) *Console {
	index, err := fs.ReadFile(files, "index.html")
	if err != nil {
		index = []byte(consolePlaceholder)
	}
	return &Console{files: files, index: index}
}

// Register mounts the console as the last handler: it answers the GET and HEAD requests
// no route took (a middleware rather than a wildcard route, so the route table lists only
// the APIs).
func (s *Console) Register(r fiber.Router) {
	r.Use(s.serve)
}

func (s *Console) serve(c *fiber.Ctx) error {
	if c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead {
		return c.Next()
	}
	p := c.Path()
	for _, pre := range apiPrefixes {
		if p == pre || strings.HasPrefix(p, pre+"/") {
			return c.Next() // the router's own 404 or 405
		}
	}
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set("Referrer-Policy", "same-origin")
	name := strings.TrimPrefix(path.Clean(p), "/")
	if name != "" && name != "index.html" && fs.ValidPath(name) {
		if body, err := fs.ReadFile(s.files, name); err == nil {
			ct := mime.TypeByExtension(path.Ext(name))
			if ct == "" {
				ct = fiber.MIMEOctetStream
			}
			c.Set(fiber.HeaderContentType, ct)
			if strings.HasPrefix(name, "assets/") {
				c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
			} else {
				c.Set(fiber.HeaderCacheControl, "no-cache")
			}
			return c.Send(body)
		}
		if strings.HasPrefix(name, "assets/") || path.Ext(name) != "" {
			return fiber.ErrNotFound // a missing file, not a page
		}
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextHTMLCharsetUTF8)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("Content-Security-Policy", ConsoleCSP)
	c.Set("X-Frame-Options", "DENY")
	return c.Send(s.index)
}
