package api

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// widgetAsset is one embedded widget file with its content hash.
type widgetAsset struct {
	body        []byte
	contentType string
	etag        string
}

// Widget serves the embeddable inbox under /widget/: each file at a stable name
// (herald-inbox.js, revalidated after a few minutes) and at a name carrying its content
// hash (herald-inbox.<hash>.js, cached for a year). The chunks the entry imports (the
// parts loaded on demand, and code they share) carry esbuild's content hash in their own
// name (position-AEVEDDPX.js): they are served at that name only, cached for a year; the
// entry imports them relatively, so from either of its names they load from /widget/.
// Module scripts load in CORS mode from the customer's page, so every answer allows any
// origin; the files are public.
type Widget struct {
	assets map[string]*widgetAsset
	// Hashed maps a stable name to its hashed name.
	Hashed map[string]string
}

// chunkName matches the name esbuild gives a chunk (web/inbox/build.mjs: chunkNames
// "[name]-[hash]", the hash eight upper-case letters or digits).
var chunkName = regexp.MustCompile(`^[a-z0-9-]+-[A-Z0-9]{8}\.js$`)

// NewWidget indexes the files of files (flat: only the top directory is served).
func NewWidget(files fs.FS) (*Widget, error) {
	w := &Widget{assets: map[string]*widgetAsset{}, Hashed: map[string]string{}}
	entries, err := fs.ReadDir(files, ".")
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		body, err := fs.ReadFile(files, e.Name())
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		hash := hex.EncodeToString(sum[:])[:12]
		ct := fiber.MIMETextPlainCharsetUTF8
		switch path.Ext(e.Name()) {
		case ".js", ".mjs":
			ct = "text/javascript; charset=utf-8"
		case ".map", ".json":
			ct = fiber.MIMEApplicationJSONCharsetUTF8
		}
		a := &widgetAsset{body: body, contentType: ct, etag: `"` + hash + `"`}
		w.assets[e.Name()] = a
		if chunkName.MatchString(e.Name()) {
			continue // already named by its content
		}
		ext := path.Ext(e.Name())
		hashed := strings.TrimSuffix(e.Name(), ext) + "." + hash + ext
		w.assets[hashed] = a
		w.Hashed[e.Name()] = hashed
	}
	return w, nil
}

// Register mounts GET /widget/:file.
func (w *Widget) Register(r fiber.Router) {
	r.Get("/widget/:file", w.serve)
	r.Head("/widget/:file", w.serve)
}

func (w *Widget) serve(c *fiber.Ctx) error {
	name := c.Params("file")
	a, ok := w.assets[name]
	if !ok {
		return fiber.ErrNotFound
	}
	c.Set(fiber.HeaderAccessControlAllowOrigin, "*")
	c.Set(fiber.HeaderContentType, a.contentType)
	c.Set(fiber.HeaderETag, a.etag)
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	if _, stable := w.Hashed[name]; stable {
		// The stable entry changes with each release: caches revalidate it (ETag) soon.
		c.Set(fiber.HeaderCacheControl, "public, max-age=300, must-revalidate")
	} else {
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
	}
	if c.Get(fiber.HeaderIfNoneMatch) == a.etag {
		return c.SendStatus(fiber.StatusNotModified)
	}
	return c.Send(a.body)
}
