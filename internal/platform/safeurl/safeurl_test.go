package safeurl

import (
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	allowed := []string{
		"", "https://example.com/a?b=c#d", "http://example.com", "HTTPS://EXAMPLE.COM", " https://x.example ",
		"/inbox/42", "a/b", "?x=1", "#y", "//cdn.example/x", "\\\\evil.example", "./a:b", "mailto-ish",
		"myapp://orders/42", "com.example.app://x", "fb123:/path", "web+herald:x", "tel:+15551234",
		"mailto:a@example.com", "sms:+15551234", "https://example.com/?next=javascript:alert(1)",
		"/redirect?to=javascript%3Aalert(1)", "&#x6A;", "java script:alert(1)", "ｊavascript:alert(1)",
		"https://example.com/a&amp;b", "https://example.com/%zz", "\thttps://example.com\n",
		"https://例え.jp/パス", "1javascript:alert(1)", ":javascript:alert(1)",
	}
	for _, raw := range allowed {
		if err := Check(raw); err != nil {
			t.Errorf("Check(%q) = %v, want allowed", raw, err)
		}
	}
	refusedURLs := []string{
		"javascript:alert(1)", "JAVASCRIPT:alert(1)", " jaVa\tscript:alert(1)", "java\nscript:alert(1)",
		"java\rscript:alert(1)", "\x01javascript:alert(1)", "\x00javascript:alert(1)", " \x1f javascript:x",
		"javascript:alert(1)\x00", "\njavascript:alert(1)", "javascript\t:alert(1)", "j\ta\nv\ra\tscript:x",
		"&#x6A;avascript:alert(1)", "&#106;avascript:alert(1)", "&#0000106avascript:alert(1)",
		"javascript&colon;alert(1)", "java&Tab;script:alert(1)", "&amp;#x6A;avascript:alert(1)",
		"%6Aavascript:alert(1)", "javascript%3Aalert(1)", "%256Aavascript:alert(1)",
		"vbscript:msgbox(1)", "VBScript:x", "livescript:x", "mocha:x", "ecmascript:x", "x-javascript:x",
		"data:text/html,<script>alert(1)</script>", "DATA:text/html;base64,PHNjcmlwdD4=", " data:x",
		"file:///etc/passwd", "blob:https://example.com/uuid", "filesystem:https://example.com/x",
		"about:blank", "view-source:https://x", "chrome://settings", "chrome-extension://id/x",
		"intent://scan/#Intent;scheme=zxing;end", "ws://example.com", "wss://example.com", "ftp://example.com",
		"jar:file:x!/y", "https://example.com/\x01", "https://exa\x7fmple.com", "a\x0bb",
	}
	for _, raw := range refusedURLs {
		if err := Check(raw); err == nil {
			t.Errorf("Check(%q) = nil, want refused", raw)
		}
	}
	if err := Check("JaVaScRiPt:x"); err == nil || err.Error() != "must be an http or https URL, a relative reference or an app link (javascript: is not allowed)" {
		t.Errorf("message: %v", err)
	}
	if err := Check("a\x01b"); err != ErrControl {
		t.Errorf("control: %v", err)
	}
}

func TestScheme(t *testing.T) {
	for raw, want := range map[string]string{
		"HTTPS://x": "https", " jaVa\tscript:": "javascript", "a+b-c.d:x": "a+b-c.d", "/a:b": "", "1a:b": "",
		"a b:c": "", ":x": "", "x": "", "\x00\x1f data:,": "data", "//h:1/": "",
	} {
		if got := Scheme(raw); got != want {
			t.Errorf("Scheme(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestEveryVariantOfARefusedSchemeIsRefused mixes case, inserts tabs and newlines anywhere
// and prepends and appends C0 controls and spaces, as browsers ignore them.
func TestEveryVariantOfARefusedSchemeIsRefused(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ignored := []string{"\t", "\n", "\r"}
	for scheme := range refused {
		for range 200 {
			var b strings.Builder
			for range rng.IntN(3) {
				b.WriteByte(byte(rng.IntN(0x21)))
			}
			for _, c := range scheme + ":" {
				if rng.IntN(2) == 0 {
					b.WriteString(strings.ToUpper(string(c)))
				} else {
					b.WriteRune(c)
				}
				if rng.IntN(4) == 0 {
					b.WriteString(ignored[rng.IntN(len(ignored))])
				}
			}
			b.WriteString("alert(1)")
			if Allowed(b.String()) {
				t.Fatalf("%q allowed", b.String())
			}
		}
	}
}

// FuzzCheck: an allowed URL never has a refused scheme as Go's URL parser reads it after
// the browser's clean-up, and Check never panics.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"https://x", "javascript:x", " jaVa\tscript:x", "&#x6A;avascript:x", "/a", "myapp://x", "\x01data:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !Allowed(raw) {
			return
		}
		s := Scheme(raw)
		if refused[s] || strings.Contains(s, "script") {
			t.Fatalf("%q allowed with scheme %q", raw, s)
		}
		if u, err := url.Parse(normalize(raw)); err == nil {
			if ls := strings.ToLower(u.Scheme); refused[ls] || strings.Contains(ls, "script") {
				t.Fatalf("%q allowed but net/url reads scheme %q", raw, u.Scheme)
			}
		}
	})
}
