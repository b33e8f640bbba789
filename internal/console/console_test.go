package console

import (
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	herald "github.com/heraldhq/herald"
)

func TestPasswordHash(t *testing.T) {
	h := hashPassword("s3cret password")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Errorf("hash %q", h)
	}
	if !checkPassword(h, "s3cret password") || checkPassword(h, "s3cret passwort") || checkPassword("garbage", "x") {
		t.Error("checkPassword disagrees")
	}
	if hashPassword("same") == hashPassword("same") {
		t.Error("no salt")
	}
}

func TestMatchStepAllowsOneStepOfDrift(t *testing.T) {
	key, _ := totp.Generate(totp.GenerateOpts{Issuer: "t", AccountName: "a"})
	now := time.Unix(1_700_000_000, 0)
	for d, ok := range map[time.Duration]bool{0: true, -30 * time.Second: true, 30 * time.Second: true, 90 * time.Second: false, -90 * time.Second: false} {
		c, _ := totp.GenerateCode(key.Secret(), now.Add(d))
		step, got := matchStep(key.Secret(), c, now)
		if got != ok {
			t.Errorf("drift %s: accepted=%v", d, got)
		}
		if ok && step != now.Add(d).Unix()/30 {
			t.Errorf("drift %s: step %d", d, step)
		}
	}
	if _, ok := matchStep(key.Secret(), "12345", now); ok {
		t.Error("5 digits accepted")
	}
}

func TestRedirects(t *testing.T) {
	s := &Service{cfg: Config{Origins: []string{"https://console.example.com", "http://localhost:3000"}}}
	for raw, ok := range map[string]bool{
		"/apps": true, "/apps?x=1#y": true, "https://console.example.com/x": true, "http://localhost:3000/": true,
		"https://console.example.com:444/": false, "http://console.example.com/": false, "//evil.example": false,
		"/\\evil.example": false, "https://evil.example": false, "javascript:alert(1)": false, "apps": false,
		"https://console.example.com@evil.example/": false, "https://evil.example#https://console.example.com": false,
		"/ok\r\nSet-Cookie: x": false, "data:text/html,x": false,
	} {
		var p herald.Problems
		got := s.CheckRedirect(raw, &p)
		if (len(p) == 0) != ok || (ok && got != raw) {
			t.Errorf("%q: accepted=%v (%v)", raw, len(p) == 0, p)
		}
	}
	var p herald.Problems
	s.CheckRedirect("", &p)
	if len(p) != 1 || p[0] != "redirect is required" {
		t.Errorf("empty: %v", p)
	}
}

func TestLinks(t *testing.T) {
	s := &Service{cfg: Config{ConsoleURL: "https://console.example.com"}}
	if got := s.link("/reset?x=1", "resetCode", "abc"); got != "https://console.example.com/reset?resetCode=abc&x=1" {
		t.Errorf("link %q", got)
	}
	if got := s.link("https://console.example.com/v", "verificationCode", "c d"); got != "https://console.example.com/v?verificationCode=c+d" {
		t.Errorf("link %q", got)
	}
}
