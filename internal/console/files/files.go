package files

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// Folders files are uploaded to. Files in Public folders are served without credentials:
// their names carry 128 random bits, and notifications and emails link to them.
const (
	Uploads   = "uploads"
	Workflows = "workflows"
	Layouts   = "layouts"
)

// Folders lists the folders.
var Folders = []string{Uploads, Workflows, Layouts}

// Public reports whether a folder is served without credentials.
func Public(folder string) bool { return folder == Uploads }

// allowed lists the content types each folder takes, as sniffed from the bytes (a
// declared type is never trusted). SVG is refused: it can carry scripts.
var allowed = map[string][]string{
	Uploads:   {"image/png", "image/jpeg", "image/gif", "image/webp"},
	Workflows: {"application/json"},
	Layouts:   {"text/html; charset=utf-8", "text/plain; charset=utf-8", "application/json"},
}

// DefaultMaxSize is the largest upload unless configured (HERALD_FILES_MAX_BYTES).
const DefaultMaxSize = 5 << 20

// Service validates, records and stores files.
type Service struct {
	db      *db.DB
	store   Storage
	maxSize int64
}

// NewService builds the service; maxSize 0 means DefaultMaxSize.
func NewService(d *db.DB, store Storage, maxSize int64) *Service {
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}
	return &Service{db: d, store: store, maxSize: maxSize}
}

// MaxSize is the largest accepted file.
func (s *Service) MaxSize() int64 { return s.maxSize }

// File is a stored file's metadata.
type File struct {
	Name         string    `json:"filename"`
	Folder       string    `json:"folder"`
	OriginalName string    `json:"originalName"`
	ContentType  string    `json:"contentType"`
	Size         int64     `json:"size"`
	URL          string    `json:"url"`
	ClientID     int64     `json:"clientId"`
	CreatedAt    time.Time `json:"createdAt"`
}

func fileOf(r dbsqlc.File) File {
	return File{Name: r.Name, Folder: r.Folder, OriginalName: r.OriginalName, ContentType: r.ContentType, Size: r.Size,
		URL: "/v1/files/" + r.Folder + "/" + r.Name, ClientID: r.ClientID, CreatedAt: r.CreatedAt}
}

// Upload is one file to store.
type Upload struct {
	ClientID     int64
	CreatedBy    int64
	Folder       string
	OriginalName string
	Size         int64
	Content      io.Reader
}

// Sanitize reduces a client-supplied file name to a safe base name: no directories, only
// letters, digits and . _ -, no leading dot, at most 100 characters.
func Sanitize(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	out := strings.TrimLeft(b.String(), ".-_")
	for strings.Contains(out, "..") {
		out = strings.ReplaceAll(out, "..", ".")
	}
	if len(out) > 100 {
		ext := path.Ext(out)
		if len(ext) > 10 {
			ext = ""
		}
		out = out[:100-len(ext)] + ext
	}
	if out == "" {
		out = "file"
	}
	return out
}

// extensions maps each accepted type to the extension of stored names.
var extensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
	"application/json": ".json", "text/html; charset=utf-8": ".html", "text/plain; charset=utf-8": ".txt",
}

// StoredName is the name a file is stored under (after its random prefix): the sanitised
// client name without its extension, plus the extension of the detected type. An object
// store or CDN that types files by extension then serves what Herald detected, never what
// the client's name claims (a GIF header followed by HTML, named x.html, is stored as
// x.gif; inner dots become dashes).
func StoredName(original, ctype string) string {
	base := Sanitize(original)
	if ext := path.Ext(base); ext != "" && len(ext) < len(base) {
		base = base[:len(base)-len(ext)]
	}
	// No dot is left in the stem: some servers (Apache's mod_mime) honour every extension
	// of a name, so x.html.gif could still be served as HTML.
	base = strings.Trim(strings.ReplaceAll(base, ".", "-"), "-")
	if base == "" {
		base = "file"
	}
	return base + extensions[ctype]
}

// Put checks and stores an upload.
func (s *Service) Put(ctx context.Context, u Upload) (File, error) {
	if u.Size > s.maxSize {
		return File{}, herald.Errorf(herald.ETOOLARGE, "the file is too large: the limit is %d bytes", s.maxSize)
	}
	var p herald.Problems
	if !slices.Contains(Folders, u.Folder) {
		p.Addf("folder must be one of uploads, workflows, layouts")
	}
	if u.Size == 0 {
		p.Addf("file must not be empty")
	}
	if err := p.Err(); err != nil {
		return File{}, err
	}
	// Read one byte past the limit, so a size that lied is caught too.
	data, err := io.ReadAll(io.LimitReader(u.Content, s.maxSize+1))
	if err != nil {
		return File{}, err
	}
	if int64(len(data)) > s.maxSize {
		return File{}, herald.Errorf(herald.ETOOLARGE, "the file is too large: the limit is %d bytes", s.maxSize)
	}
	ctype := sniff(data)
	if !slices.Contains(allowed[u.Folder], ctype) {
		return File{}, herald.Invalid("file type " + ctype + " is not accepted in " + u.Folder + " (accepted: " + strings.Join(allowed[u.Folder], ", ") + ")")
	}
	name := secrets.HexToken(16) + "-" + StoredName(u.OriginalName, ctype)
	if err := s.store.Put(ctx, u.Folder+"/"+name, bytes.NewReader(data), int64(len(data)), ctype); err != nil {
		return File{}, err
	}
	var by *int64
	if u.CreatedBy != 0 {
		by = &u.CreatedBy
	}
	row, err := s.db.CreateFile(ctx, dbsqlc.CreateFileParams{ClientID: u.ClientID, Folder: u.Folder, Name: name,
		OriginalName: truncate(u.OriginalName, 200), ContentType: ctype, Size: int64(len(data)), CreatedBy: by})
	if err != nil {
		_ = s.store.Delete(ctx, u.Folder+"/"+name)
		return File{}, db.MapError(err)
	}
	return fileOf(row), nil
}

// sniff names the type of the bytes; JSON is recognised by parsing, since sniffing calls
// it text.
func sniff(data []byte) string {
	t := http.DetectContentType(data)
	if strings.HasPrefix(t, "text/plain") && json.Valid(data) {
		return "application/json"
	}
	return t
}

// truncate makes s valid UTF-8 (Postgres text refuses anything else) and cuts it to at
// most n bytes on a character boundary.
func truncate(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// Lookup finds a file by name (and folder, when not empty). Unsafe names are simply not
// found.
func (s *Service) Lookup(ctx context.Context, folder, name string) (File, error) {
	if !ValidName(name) {
		return File{}, herald.NotFound("file")
	}
	row, err := s.db.GetFileByName(ctx, name)
	if err != nil || (folder != "" && row.Folder != folder) {
		if err == nil || herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			return File{}, herald.NotFound("file")
		}
		return File{}, db.MapError(err)
	}
	return fileOf(row), nil
}

// Open returns a file's contents.
func (s *Service) Open(ctx context.Context, f File) (io.ReadCloser, error) {
	rc, err := s.store.Get(ctx, f.Folder+"/"+f.Name)
	if errors.Is(err, ErrNotStored) {
		return nil, herald.NotFound("file")
	}
	return rc, err
}

// Delete removes a file of a client.
func (s *Service) Delete(ctx context.Context, f File) error {
	n, err := s.db.DeleteFile(ctx, dbsqlc.DeleteFileParams{Name: f.Name, ClientID: f.ClientID})
	if err != nil {
		return db.MapError(err)
	}
	if n == 0 {
		return herald.NotFound("file")
	}
	return s.store.Delete(ctx, f.Folder+"/"+f.Name)
}
