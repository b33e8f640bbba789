package doctor

import "fmt"

// MinKeyVariety is the fewest distinct characters a secret key should use. A key of 32
// random hexadecimal digits (`openssl rand -hex 16`) uses about 14; a word repeated to the
// required length ("passwordpassword…") uses far fewer, and is guessed the same way.
const MinKeyVariety = 10

// weakKey is a WARN finding when key passed config.CheckSecretKey (long enough, not
// published, not a placeholder) but uses few distinct characters; nil otherwise.
func weakKey(key string) *Finding {
	seen := map[rune]bool{}
	for _, r := range key {
		seen[r] = true
	}
	if len(seen) >= MinKeyVariety {
		return nil
	}
	f := warn("secret-key", fmt.Sprintf("HERALD_SECRET_KEY is long enough but uses only %d distinct characters: a pattern or a repeated word, not a random value", len(seen)),
		"Replace it with the output of `openssl rand -base64 32` before anything is stored: HERALD_SECRET_KEY has no rotation (docs/security.md), so a new key cannot open what the old one sealed.")
	return &f
}
