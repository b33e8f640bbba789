package apps

// Warning is a setting of an app that weakens its users' authentication, shown by the
// console on the app list and page and listed in the app's answers (AppEntity.warnings).
type Warning struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// The warning codes.
const (
	// WarnInsecureUserMode: neither secure mode nor HMAC signatures, so the public API key
	// plus any user id acts as that user (docs/security.md).
	WarnInsecureUserMode = "insecure_user_mode"
	// WarnLongLivedUserTokens: secure mode accepts user JWTs without exp.
	WarnLongLivedUserTokens = "long_lived_user_tokens"
)

// Warn lists the warnings of an app with these settings; never nil.
func Warn(secureAuth, hmacAuth, longLived bool) []Warning {
	out := []Warning{}
	if !secureAuth && !hmacAuth {
		out = append(out, Warning{Code: WarnInsecureUserMode, Message: "Not secure: anyone with the app's public API key can act as any user " +
			"(read their inbox, change their delivery addresses and preferences) by naming their user id. " +
			"Turn on secure mode: generate the signing key pair, sign user JWTs on your backend, and pass them to the inbox widget."})
	}
	if secureAuth && longLived {
		out = append(out, Warning{Code: WarnLongLivedUserTokens, Message: "User JWTs without an expiry (exp) are accepted: a leaked token works until the signing key is replaced."})
	}
	return out
}
