package temporalcodec

import (
	"crypto/subtle"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// ServerOptions configure the codec server.
type ServerOptions struct {
	// Token is the operator credential every encode and decode must present as
	// "Authorization: Bearer <token>" (compared in constant time).
	Token string
	// Origins may call the server from a browser (the Temporal Web UI's origin): they get
	// the CORS headers, credentials included. Other origins get none.
	Origins []string
	// LoopbackWithoutToken lets callers on a loopback address in without the token while
	// no token is set (herald dev: its Temporal UI runs in the developer's browser).
	LoopbackWithoutToken bool
	// MaxBody bounds a request body (0: 4 MiB).
	MaxBody int64
	// Log records every decode and encode (caller's address, namespace, payload count) and
	// every refused credential; nil logs nothing.
	Log *slog.Logger
}

// Paths of the codec server protocol, appended by the Web UI and the CLI to the endpoint.
const (
	PathEncode = "/encode"
	PathDecode = "/decode"
)

// Server answers Temporal's codec server protocol: POST <endpoint>/encode and
// <endpoint>/decode with {"payloads":[…]} (protobuf JSON: base64 data and metadata),
// answering the same shape. The X-Namespace header the Web UI sends is accepted and not
// needed: Herald has one codec for its namespace.
type Server struct {
	codec *Codec
	opts  ServerOptions
}

// NewServer returns the codec server of c.
func NewServer(c *Codec, o ServerOptions) *Server {
	if o.MaxBody <= 0 {
		o.MaxBody = 4 << 20
	}
	return &Server{codec: c, opts: o}
}

// Enabled reports whether the server would let anyone in: a token is set, or loopback
// callers may come without one.
func (s *Server) Enabled() bool { return s.opts.Token != "" || s.opts.LoopbackWithoutToken }

// ServeHTTP answers preflights, checks the credential and encodes or decodes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	encode := strings.HasSuffix(r.URL.Path, PathEncode)
	if !encode && !strings.HasSuffix(r.URL.Path, PathDecode) {
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	allowed := s.cors(w, r)
	if r.Method == http.MethodOptions {
		if !allowed {
			writeError(w, http.StatusForbidden, "origin not allowed: add it to HERALD_CODEC_SERVER_ORIGINS")
			return
		}
		w.WriteHeader(http.StatusNoContent)
		return
	}
	// A browser names its page's origin: one not allowed is refused before anything is
	// decoded (a page the operator happens to have open cannot use the codec server, even
	// where no token is needed: herald dev's loopback callers). The CLI sends no Origin.
	if r.Header.Get("Origin") != "" && !allowed {
		writeError(w, http.StatusForbidden, "origin not allowed: add it to HERALD_CODEC_SERVER_ORIGINS")
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST, OPTIONS")
		writeError(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	if !s.authorized(r) {
		s.log("codec server refused a call without the right token", r, -1)
		w.Header().Set("WWW-Authenticate", `Bearer realm="herald codec"`)
		writeError(w, http.StatusUnauthorized, "missing or wrong codec server token (Authorization: Bearer …)")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.opts.MaxBody))
	if err != nil {
		writeError(w, http.StatusRequestEntityTooLarge, "body too large")
		return
	}
	var in commonpb.Payloads
	if err := protojson.Unmarshal(body, &in); err != nil {
		writeError(w, http.StatusBadRequest, `body must be {"payloads":[{"metadata":{…},"data":"<base64>"}]}`)
		return
	}
	var out []*commonpb.Payload
	if encode {
		out, err = s.codec.Encode(in.GetPayloads())
	} else {
		out, err = s.codec.Decode(in.GetPayloads())
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if encode {
		s.log("codec server encoded payloads", r, len(out))
	} else {
		s.log("codec server decoded payloads", r, len(out))
	}
	b, err := protojson.Marshal(&commonpb.Payloads{Payloads: out})
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}

// cors sets the CORS headers for an allowed origin and reports whether the request's
// origin is allowed (a request without Origin, such as the CLI's, needs none).
func (s *Server) cors(w http.ResponseWriter, r *http.Request) bool {
	w.Header().Add("Vary", "Origin")
	origin := r.Header.Get("Origin")
	if origin == "" || !slices.Contains(s.opts.Origins, origin) {
		return false
	}
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Allow-Credentials", "true")
	h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	h.Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace, Authorization")
	h.Set("Access-Control-Max-Age", "600")
	return true
}

func (s *Server) authorized(r *http.Request) bool {
	if s.opts.Token == "" {
		return s.opts.LoopbackWithoutToken && loopback(r.RemoteAddr)
	}
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(s.opts.Token)) == 1
}

// log records a call: who (the peer address), for which namespace, how many payloads (-1
// when refused). Never the payloads or the credential.
func (s *Server) log(msg string, r *http.Request, payloads int) {
	if s.opts.Log == nil {
		return
	}
	attrs := []any{"remote", r.RemoteAddr, "namespace", r.Header.Get("X-Namespace"), "origin", r.Header.Get("Origin")}
	if payloads < 0 {
		s.opts.Log.Warn(msg, attrs...)
		return
	}
	s.opts.Log.Info(msg, append(attrs, "payloads", payloads)...)
}

func loopback(remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"status": "error", "message": msg})
}
