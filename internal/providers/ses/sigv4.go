package ses

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// Why not aws-sdk-go-v2: the SES v2 client pulls in the SDK core, smithy-go and a dozen
// modules for one signed POST. AWS Signature Version 4 for a request with its body in hand
// is the hundred lines below, checked against AWS's published test suite in sigv4_test.go.

// credentials are an AWS access key (and a session token for temporary credentials).
type credentials struct {
	AccessKeyID     string
	SecretAccessKey string
	SessionToken    string
}

// amzDateFormat is the ISO 8601 basic format of X-Amz-Date.
const amzDateFormat = "20060102T150405Z"

// signV4 signs req (whose body is body) for service in region at now: it sets X-Amz-Date,
// X-Amz-Security-Token for temporary credentials, and Authorization. Signed headers are
// host, content-type and every x-amz-* header.
func signV4(req *http.Request, body []byte, c credentials, region, service string, now time.Time) {
	amzDate := now.UTC().Format(amzDateFormat)
	req.Header.Set("X-Amz-Date", amzDate)
	if c.SessionToken != "" {
		req.Header.Set("X-Amz-Security-Token", c.SessionToken)
	}
	headers, signed := canonicalHeaders(req)
	sum := sha256.Sum256(body)
	canonical := strings.Join([]string{
		req.Method,
		canonicalPath(req.URL),
		canonicalQuery(req.URL.Query()),
		headers,
		signed,
		hex.EncodeToString(sum[:]),
	}, "\n")
	scope := strings.Join([]string{amzDate[:8], region, service, "aws4_request"}, "/")
	canonicalSum := sha256.Sum256([]byte(canonical))
	toSign := "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + hex.EncodeToString(canonicalSum[:])

	key := hmacSHA256([]byte("AWS4"+c.SecretAccessKey), amzDate[:8])
	key = hmacSHA256(key, region)
	key = hmacSHA256(key, service)
	key = hmacSHA256(key, "aws4_request")
	signature := hex.EncodeToString(hmacSHA256(key, toSign))
	req.Header.Set("Authorization", fmt.Sprintf("AWS4-HMAC-SHA256 Credential=%s/%s, SignedHeaders=%s, Signature=%s",
		c.AccessKeyID, scope, signed, signature))
}

func hmacSHA256(key []byte, data string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(data))
	return m.Sum(nil)
}

// canonicalHeaders returns the canonical header block (each "name:value\n", names
// lowercased and sorted, values trimmed with inner spaces collapsed) and the signed-headers
// list.
func canonicalHeaders(req *http.Request) (block, signed string) {
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	values := map[string]string{"host": host}
	for name, vs := range req.Header {
		lower := strings.ToLower(name)
		if lower != "content-type" && !strings.HasPrefix(lower, "x-amz-") {
			continue
		}
		trimmed := make([]string, len(vs))
		for i, v := range vs {
			trimmed[i] = strings.Join(strings.Fields(v), " ")
		}
		values[lower] = strings.Join(trimmed, ",")
	}
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + ":" + values[n] + "\n")
	}
	return b.String(), strings.Join(names, ";")
}

// canonicalPath is the URI-encoded path ("/" when empty).
func canonicalPath(u *url.URL) string {
	p := u.EscapedPath()
	if p == "" {
		return "/"
	}
	return p
}

// canonicalQuery sorts parameters by encoded name, then value, each RFC 3986 encoded.
func canonicalQuery(q url.Values) string {
	type pair struct{ k, v string }
	var pairs []pair
	for k, vs := range q {
		for _, v := range vs {
			pairs = append(pairs, pair{uriEncode(k), uriEncode(v)})
		}
	}
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i].k != pairs[j].k {
			return pairs[i].k < pairs[j].k
		}
		return pairs[i].v < pairs[j].v
	})
	out := make([]string, len(pairs))
	for i, p := range pairs {
		out[i] = p.k + "=" + p.v
	}
	return strings.Join(out, "&")
}

// uriEncode percent-encodes everything but the RFC 3986 unreserved characters.
func uriEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if ('A' <= c && c <= 'Z') || ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
