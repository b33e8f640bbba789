package config

import (
	"fmt"
	"strings"
)

// MinSecretKeyLength is the shortest HERALD_SECRET_KEY a Herald process starts with. The
// key seals every stored secret and signs console and realtime tokens, so it must be as hard
// to guess as the AES-256 key derived from it: 32 characters of `openssl rand -base64 32`
// (44 characters) carry more than 190 bits.
const MinSecretKeyLength = 32

// knownSecretKeys are values that appeared in Herald's documentation, compose file or
// examples (and the usual placeholders): anyone can read them, so a key equal to one of them
// protects nothing. Compared without case and surrounding blanks.
var knownSecretKeys = []string{
	"0123456789abcdef0123",
	"0123456789abcdef0123456789abcdef",
	"change-me-to-a-long-random-string",
	"$(openssl rand -base64 32)",
	"change-me", "changeme", "change_me", "secret", "password", "herald", "test", "dev",
}

// placeholderWords mark a value written to be replaced, whatever its length.
var placeholderWords = []string{"change-me", "changeme", "change_me", "replace-me", "replaceme", "your-secret", "yoursecret", "openssl rand"}

// CheckSecretKey reports why key may not be used as HERALD_SECRET_KEY: shorter than
// MinSecretKeyLength, a value published with Herald, or a placeholder. herald dev generates
// a key of 43 random characters into .data/secret.key, which passes.
func CheckSecretKey(key string) error {
	norm := strings.ToLower(strings.TrimSpace(key))
	for _, k := range knownSecretKeys {
		if norm == strings.ToLower(k) {
			return fmt.Errorf("HERALD_SECRET_KEY is a published example value; generate your own with `openssl rand -base64 32`")
		}
	}
	for _, w := range placeholderWords {
		if strings.Contains(norm, w) {
			return fmt.Errorf("HERALD_SECRET_KEY is a placeholder (it contains %q); generate your own with `openssl rand -base64 32`", w)
		}
	}
	if len(key) < MinSecretKeyLength {
		return fmt.Errorf("HERALD_SECRET_KEY must be at least %d characters, got %d; generate one with `openssl rand -base64 32`", MinSecretKeyLength, len(key))
	}
	if strings.Count(key, key[:1]) == len(key) {
		return fmt.Errorf("HERALD_SECRET_KEY repeats one character; generate one with `openssl rand -base64 32`")
	}
	return nil
}
