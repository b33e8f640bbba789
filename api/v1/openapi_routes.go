package v1

// Common error sets.
var (
	eBad     = []int{400}
	eRole    = []int{403, 404}
	eRoleBad = []int{400, 403, 404}
)

var redirectQ = queryParam{"redirect", "string", true, "console page to continue on: a path, or a URL on an allowed origin (HERALD_CONSOLE_ORIGINS); echoed back"}

// operations is the hand-written list of every /v1 route (kept in sync with the router by
// TestOpenAPIListsEveryRoute).
var operations = []operation{
	{method: "GET", path: "/v1/health", tag: "health", summary: "Status of Herald's dependencies", resp: "Health", errors: []int{503}},
	{method: "GET", path: "/v1/openapi.json", tag: "health", summary: "This document"},

	// Inbound delivery callbacks: no credentials; signature-checked where the provider signs.
	{method: "GET", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider (for providers that verify the URL with GET)", resp: "Boolean", errors: []int{400, 401, 404}},
	{method: "POST", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider: moves the message log to delivered, bounced, opened or clicked", resp: "Boolean", errors: []int{400, 401, 404}},
	{method: "PUT", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider", resp: "Boolean", errors: []int{400, 401, 404}},
	{method: "DELETE", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider", resp: "Boolean", errors: []int{400, 401, 404}},
	{method: "PATCH", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider", resp: "Boolean", errors: []int{400, 401, 404}},
	{method: "OPTIONS", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider", resp: "Boolean", errors: []int{400, 401, 404}},
	{method: "HEAD", path: "/v1/providerInstances/{instanceId}/callback", tag: "callbacks", summary: "Delivery callback from a provider (answered like GET, without a body)", resp: "Boolean", errors: []int{400, 401, 404}},

	{method: "POST", path: "/v1/auth", tag: "auth", summary: "Sign in with email and password; answers a session or, with 2FA, a challenge", query: []queryParam{redirectQ}, body: "LoginByEmailDto", resp: "SignInResult", errors: []int{400, 401, 403, 429}},
	{method: "POST", path: "/v1/ee/auth", tag: "auth", summary: "Sign in (same as POST /v1/auth)", query: []queryParam{redirectQ}, body: "LoginByEmailDto", resp: "SignInResult", errors: []int{400, 401, 403, 429}},
	{method: "POST", path: "/v1/auth/signup", tag: "auth", summary: "Create an account and email the verification link; when the address already has an account the answer is the same and that account is emailed instead (sign-up does not tell whether an address is taken)", query: []queryParam{redirectQ}, body: "SignUpWithCaptchaDTO", status: 201, resp: "SignedUp", errors: []int{400, 429, 503}},
	{method: "POST", path: "/v1/auth/verify/{verificationCode}", tag: "auth", summary: "Confirm the email address with the emailed code", resp: "ClientUserEntity", errors: []int{404}},
	{method: "POST", path: "/v1/auth/resendVerificationEmail", tag: "auth", summary: "Email a new verification link (same answer whether or not the account exists)", query: []queryParam{{"redirect", "string", false, "page of the link"}}, body: "ResendVerificationEmailDTO", resp: "Boolean", errors: eBad},
	{method: "POST", path: "/v1/auth/passwordResetRequests", tag: "auth", summary: "Email a password reset link (same answer whether or not the account exists)", query: []queryParam{redirectQ}, body: "ResendVerificationEmailDTO", status: 201, resp: "Boolean", errors: eBad},
	{method: "POST", path: "/v1/auth/resetPassword", tag: "auth", summary: "Set a new password with the emailed reset code; ends every session", body: "ResetPasswordDTO", status: 201, resp: "Boolean", errors: []int{400, 404}},
	{method: "POST", path: "/v1/auth/refresh", tag: "auth", summary: "Trade a refresh token for a new access and refresh token; a refresh token works once, and replaying a used one ends the session", body: "RefreshDto", resp: "Session", errors: []int{400, 401}},
	{method: "POST", path: "/v1/auth/console/refresh", tag: "auth", summary: "The console web app's refresh: trades the httpOnly refresh cookie (herald_console_refresh, set by sign-in when X-Herald-Console: 1 is sent) for a new access token and a rotated cookie; the refresh token is not in the answer. Without the cookie: 204, no body. Requires X-Herald-Console: 1 and a same-origin Origin (CSRF)", headers: []queryParam{{"X-Herald-Console", "string", true, "1"}}, resp: "Session", errors: []int{401, 403}},
	{method: "POST", path: "/v1/auth/signout", tag: "auth", summary: "End the session: its access and refresh tokens stop working", auth: "session", resp: "Boolean", errors: []int{403}},
	{method: "GET", path: "/v1/auth/validate", tag: "auth", summary: "Answer \"valid\" for a working token", auth: "member", resp: "String"},
	{method: "GET", path: "/v1/auth/me", tag: "auth", summary: "The signed-in console user", auth: "member", resp: "ClientUserEntity"},
	{method: "GET", path: "/v1/auth/onboarding", tag: "auth", summary: "The console user with onboarding progress", auth: "session", resp: "ClientUserEntity"},
	{method: "POST", path: "/v1/auth/onboarding", tag: "auth", summary: "Merge fields into the onboarding progress", auth: "session", body: "UpdateOnBoardingProgessDTO", status: 202, resp: "ClientUserEntity", errors: eBad},
	{method: "GET", path: "/v1/auth/app/{id}/generate-token", tag: "auth", summary: "Mint a secure-mode user token with the app's signing key (developers); the user is userIdentifier or the caller's email", auth: "member",
		query: []queryParam{{"userIdentifier", "string", false, "user the token is for"}, {"expiresIn", "integer", false, "seconds, 60 to 604800 (default 3600)"}}, resp: "UserToken", errors: eRoleBad},
	{method: "GET", path: "/v1/auth/user/{identifier}/generate-token", tag: "auth", summary: "Mint a secure-mode token for a user of an app (developers)", auth: "member",
		query: []queryParam{{"appId", "integer", true, "the app"}, {"expiresIn", "integer", false, "seconds, 60 to 604800 (default 3600)"}}, resp: "UserToken", errors: eRoleBad},

	{method: "GET", path: "/v1/ee/auth/2fa", tag: "2fa", summary: "Start TOTP setup: a new secret as otpauth URI and QR code (PNG with Accept: image/png)", auth: "session", resp: "TotpSetup", errors: []int{403, 409}},
	{method: "PATCH", path: "/v1/ee/auth/2fa/enable", tag: "2fa", summary: "Enable 2FA with a code from the authenticator; answers the 10 recovery codes, shown once", auth: "session", body: "TotpDto", resp: "TwoFactorEnabled", errors: []int{400, 403, 409}},
	{method: "PATCH", path: "/v1/ee/auth/2fa/disable", tag: "2fa", summary: "Disable 2FA with a current TOTP code or an unused recovery code (the account is emailed)", auth: "session", body: "TotpDto", resp: "TwoFactorDisabled", errors: []int{400, 403, 409, 429}},
	{method: "GET", path: "/v1/ee/auth/2fa/recoveryCodes", tag: "2fa", summary: "How many unused recovery codes are left; with a confirming code (a current TOTP code or an unused recovery code), a new set of 10 instead (the old ones stop working; the account is emailed)", auth: "session",
		query:   []queryParam{{"code", "string", false, "a current TOTP code or an unused recovery code: issues a new set; without it the call only reads"}},
		headers: []queryParam{{TwoFactorCodeHeader, "string", false, "the confirming code, instead of the code query parameter"}},
		resp:    "RecoveryCodes", errors: []int{400, 403, 409, 429}},
	{method: "POST", path: "/v1/ee/auth/2fa/validate", tag: "2fa", summary: "Complete a sign-in with a TOTP code (each code works once)", auth: "challenge", body: "TotpDto", resp: "SignInResult", errors: []int{400, 429}},
	{method: "POST", path: "/v1/ee/auth/2fa/recovery", tag: "2fa", summary: "Complete a sign-in with a single-use recovery code", auth: "challenge", body: "LoginWithRecoveryDto", resp: "SignInResult", errors: []int{400, 429}},
	{method: "GET", path: "/v1/ee/auth/codehost", tag: "auth", summary: "Start code-host (OAuth2) sign-in: the authorization URL and the state to hand back", query: []queryParam{redirectQ}, resp: "CodeHostStart", errors: []int{400, 404}},
	{method: "POST", path: "/v1/ee/auth/codehost", tag: "auth", summary: "Complete code-host sign-in with the authorization code and state", body: "CodeHostSignInDto", resp: "SignInResult", errors: []int{400, 401, 403, 404, 503}},

	{method: "GET", path: "/v1/clients", tag: "clients", summary: "The caller's clients with the caller's role", auth: "member", resp: "ClientList"},
	{method: "POST", path: "/v1/clients", tag: "clients", summary: "Create a client owned by the caller", auth: "session", body: "CreateClientDTO", status: 201, resp: "Client", errors: []int{400, 403}},
	{method: "GET", path: "/v1/clients/{clientId}", tag: "clients", summary: "A client", auth: "member", resp: "Client", errors: eRole},
	{method: "PATCH", path: "/v1/clients/{clientId}", tag: "clients", summary: "Rename a client (admins)", auth: "member", body: "UpdateClientDTO", resp: "Client", errors: eRoleBad},
	{method: "GET", path: "/v1/clients/{clientId}/apps", tag: "apps", summary: "The client's apps", auth: "member", resp: "AppList", errors: eRole},
	{method: "POST", path: "/v1/clients/{clientId}/apps", tag: "apps", summary: "Create an app (admins); the answer carries the API secret", auth: "member", body: "CreateAppDTO", status: 201, resp: "AppEntity", errors: eRoleBad},
	{method: "POST", path: "/v1/clients/{clientId}/initialize-client-environment", tag: "apps", summary: "Give a client without apps its Development and Production apps (admins)", auth: "member", resp: "Environment", errors: eRole},
	{method: "GET", path: "/v1/clients/{clientId}/clientUsers", tag: "clients", summary: "The client's members", auth: "member", resp: "MemberList", errors: eRole},
	{method: "POST", path: "/v1/clients/{clientId}/clientUsers", tag: "clients", summary: "Invite one address with a role (admins; the person joins by accepting)", auth: "member", body: "AddClientUserDTO", resp: "InvitationEntity", errors: eRoleBad},
	{method: "PUT", path: "/v1/clients/{clientId}/clientUsers/{clientUserId}", tag: "clients", summary: "Change a member's role (admins; ownership only by owners; the last owner stays)", auth: "member", body: "UpdateClientUserRoleDTO", resp: "Boolean", errors: []int{400, 403, 404, 409}},
	{method: "DELETE", path: "/v1/clients/{clientId}/clientUsers/{clientUserId}", tag: "clients", summary: "Remove a member (admins) or leave", auth: "member", resp: "Boolean", errors: []int{403, 404, 409}},
	{method: "GET", path: "/v1/clients/{clientId}/clientUserInvitations", tag: "clients", summary: "Open invitations (admins)", auth: "member", resp: "InvitationList", errors: eRole},
	{method: "DELETE", path: "/v1/clients/{clientId}/clientUserInvitations/{invitationId}", tag: "clients", summary: "Revoke an invitation (admins)", auth: "member", resp: "Boolean", errors: eRole},
	{method: "POST", path: "/v1/clients/{clientId}/invite-users", tag: "clients", summary: "Invite every address of the array (admins)", auth: "member",
		query: []queryParam{{"role", "string", false, "owner, admin, developer (default) or viewer"}}, body: "EmailList", resp: "InvitationList", errors: eRoleBad},
	{method: "GET", path: "/v1/clients/{clientId}/cli-token", tag: "clients", summary: "CLI tokens (admins see all, others their own)", auth: "member", resp: "CliTokenList", errors: eRole},
	{method: "POST", path: "/v1/clients/{clientId}/cli-token", tag: "clients", summary: "Create a CLI token acting with the caller's role; the token is shown once", auth: "session", body: "CreateCliTokenDTO", status: 201, resp: "CliToken", errors: eRoleBad},
	{method: "DELETE", path: "/v1/clients/{clientId}/cli-token/{tokenId}", tag: "clients", summary: "Revoke a CLI token (its creator or an admin)", auth: "member", resp: "Boolean", errors: []int{403, 404, 409}},
	{method: "GET", path: "/v1/auditLogs", tag: "clients", summary: "Page through a client's audit log, newest first (owners and admins)", auth: "member",
		query: []queryParam{{"clientId", "integer", false, "the client (may be omitted with one client, and by CLI tokens)"}, {"page", "integer", false, "1-based page (default 1)"},
			{"limit", "integer", false, "1 to 100 (default 20)"}, {"action", "string", false, "only this action, e.g. auth.signin_failed"},
			{"actorId", "integer", false, "only events by this console user"}, {"from", "string", false, "RFC 3339 time, inclusive"}, {"to", "string", false, "RFC 3339 time, exclusive"}},
		resp: "AuditLogPage", errors: eRoleBad},

	{method: "GET", path: "/v1/invitations/{code}", tag: "invitations", summary: "Describe an invitation to the holder of its code", resp: "InvitationView", errors: []int{404}},
	{method: "GET", path: "/v1/invitations/{code}/accept", tag: "invitations", summary: "Accept an invitation addressed to the caller's email", auth: "session", resp: "InvitationView", errors: []int{403, 404, 409}},
	{method: "POST", path: "/v1/invitations/{invitationId}/resend", tag: "invitations", summary: "Email the invitation again with a new code (admins)", auth: "member", resp: "InvitationEntity", errors: eRole},
	{method: "GET", path: "/v1/clientUsers/{id}", tag: "invitations", summary: "A console user: oneself, or name and email of someone sharing a client", auth: "member", resp: "ClientUserEntity", errors: []int{404}},
	{method: "PATCH", path: "/v1/clientUsers/{id}", tag: "invitations", summary: "Change one's name", auth: "session", body: "UpdateClientUserDTO", resp: "ClientUserEntity", errors: eRoleBad},
	{method: "PUT", path: "/v1/clientUsers/{id}/password", tag: "invitations", summary: "Change one's password; other sessions end", auth: "session", body: "UpdatePasswordDTO", resp: "String", errors: eRoleBad},
	{method: "PUT", path: "/v1/categories/{categoryId}", tag: "apps", summary: "Rename a category (developers)", auth: "member", body: "UpdateCategoryDto", resp: "CategoryEntity", errors: eRoleBad},
	{method: "DELETE", path: "/v1/categories/{categoryId}", tag: "apps", summary: "Delete a category (developers)", auth: "member", resp: "Boolean", errors: eRole},

	{method: "GET", path: "/v1/apps/{appId}", tag: "apps", summary: "An app", auth: "member", resp: "AppEntity", errors: eRole},
	{method: "PUT", path: "/v1/apps/{appId}", tag: "apps", summary: "Change an app's name and settings (admins)", auth: "member", body: "UpdateAppDTO", resp: "AppEntity", errors: eRoleBad},
	{method: "DELETE", path: "/v1/apps/{appId}", tag: "apps", summary: "Delete an app with its data (admins)", auth: "member", resp: "Boolean", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/secret", tag: "apps", summary: "The app with its API secret (admins)", auth: "member", resp: "AppEntity", errors: eRole},
	{method: "POST", path: "/v1/apps/{appId}/rsa-key", tag: "apps", summary: "Generate the RS256 signing key pair; the private key is shown once (admins)", auth: "member", resp: "AppEntity", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/rsa-key", tag: "apps", summary: "The app with its public key", auth: "member", resp: "AppEntity", errors: eRole},
	{method: "PUT", path: "/v1/apps/{appId}/secure-auth", tag: "apps", summary: "Toggle secure mode (admins; needs a signing key)", auth: "member", resp: "AppEntity", errors: eRoleBad},
	{method: "GET", path: "/v1/apps/{appId}/users", tag: "apps", summary: "Page through the app's users", auth: "member",
		query: []queryParam{{"pageNo", "integer", false, "1-based page (default 1)"}, {"limit", "integer", false, "1 to 100 (default 10)"}, {"identifier", "string", false, "identifier prefix"}}, resp: "UserPage", errors: eRoleBad},
	{method: "POST", path: "/v1/apps/{appId}/users", tag: "apps", summary: "Create a user (developers)", auth: "member", body: "CreateUserDTO", resp: "AppUser", errors: []int{400, 403, 404, 409}},
	{method: "PUT", path: "/v1/apps/{appId}/users/{identifier}", tag: "apps", summary: "Create the user or merge the body into its profile (developers)", auth: "member", body: "Profile", resp: "AppUser", errors: eRoleBad},
	{method: "DELETE", path: "/v1/apps/{appId}/users/{identifier}", tag: "apps", summary: "Delete a user with its inbox and preferences (developers)", auth: "member", resp: "Boolean", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/users/{identifier}/profile", tag: "apps", summary: "A user's profile", auth: "member", resp: "Profile", errors: eRole},
	{method: "GET", path: "/v1/apps/{appId}/users/{identifier}/preferences", tag: "apps", summary: "A user's effective preferences per category and channel", auth: "member", resp: "PreferenceList", errors: eRole},
	{method: "POST", path: "/v1/apps/{appId}/categories", tag: "apps", summary: "Create a category (developers)", auth: "member", body: "CreateCategoryDTO", status: 201, resp: "CategoryEntity", errors: []int{400, 403, 404, 409}},
	{method: "GET", path: "/v1/apps/{appId}/categories", tag: "apps", summary: "The app's categories", auth: "member", resp: "CategoryList", errors: eRole},

	{method: "POST", path: "/v1/files", tag: "files", summary: "Upload a file (developers): images to uploads/, JSON to workflows/, HTML/text/JSON to layouts/", auth: "member", body: "multipart", status: 201, resp: "File", errors: []int{400, 403, 404, 413}},
	{method: "GET", path: "/v1/files/uploads/{filename}", tag: "files", summary: "An uploaded image (public: names are unguessable)", errors: []int{404}},
	{method: "GET", path: "/v1/files/workflows/{filename}", tag: "files", summary: "A workflow file (members)", auth: "member", errors: []int{404}},
	{method: "GET", path: "/v1/files/layouts/{filename}", tag: "files", summary: "A layout file (members)", auth: "member", errors: []int{404}},
	{method: "GET", path: "/v1/files/{filename}", tag: "files", summary: "A file of any folder (members)", auth: "member", errors: []int{404}},
	{method: "DELETE", path: "/v1/files/{filename}", tag: "files", summary: "Delete a file (developers)", auth: "member", resp: "Boolean", errors: eRole},
}
