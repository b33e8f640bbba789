package doctor

import (
	"strings"
	"testing"
)

func TestWeakKey(t *testing.T) {
	for key, weak := range map[string]bool{
		"passwordpasswordpasswordpassword":         true,  // 7 distinct
		strings.Repeat("ab12", 10):                 true,  // 4 distinct
		"3f9c0a7e41d28b6c5e0f9a1d7c3b2e48":         false, // openssl rand -hex 16
		"q8Jx0vN2c+Lr7T/aZk5m1WbYp3Hd9sFe4uGo6iQ=": false, // openssl rand -base64 32
	} {
		d := &Doctor{}
		d.Cfg.SecretKey = key
		f := d.secretKey()
		if got := f.Level == Warn; got != weak {
			t.Errorf("%q: %+v, want weak=%v", key, f, weak)
		}
		if f.Level != OK && f.Fix == "" {
			t.Errorf("%q: no fix", key)
		}
	}
}
