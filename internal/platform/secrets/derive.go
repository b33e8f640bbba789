package secrets

import (
	"crypto/hmac"
	"crypto/sha256"
)

// Derive returns a 32-byte key for one purpose (such as signing console tokens) derived
// from the configured secret key, so one HERALD_SECRET_KEY serves every use without reuse.
func Derive(key, purpose string) []byte {
	mac := hmac.New(sha256.New, []byte("herald derive v1: "+purpose))
	mac.Write([]byte(key))
	return mac.Sum(nil)
}
