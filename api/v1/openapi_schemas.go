package v1

import "github.com/heraldhq/herald/internal/console/audit"

// Schema helpers.
func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func integer() map[string]any        { return map[string]any{"type": "integer"} }
func boolean() map[string]any        { return map[string]any{"type": "boolean"} }
func stamp() map[string]any          { return map[string]any{"type": "string", "format": "date-time"} }
func anyObject() map[string]any {
	return map[string]any{"type": "object", "additionalProperties": true}
}
func arrayOf(s map[string]any) map[string]any {
	return map[string]any{"type": "array", "items": s}
}

func object(required []string, props map[string]any) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

var role = map[string]any{"type": "string", "enum": []string{"owner", "admin", "developer", "viewer"}}

// schemas are the named request and response bodies of the document.
var schemas = map[string]any{
	"Error": object([]string{"status", "message"}, map[string]any{"status": str("always \"error\""), "message": str("what went wrong"),
		"requestId": str("on 5xx, to find the log entry")}),
	"ValidationError": object([]string{"status", "message"}, map[string]any{"status": str("always \"error\""), "message": arrayOf(str("one violated rule"))}),
	"Boolean":         boolean(),
	"String":          map[string]any{"type": "string"},
	"Health":          anyObject(),

	"LoginByEmailDto": object([]string{"email", "password"}, map[string]any{"email": str("account email (case-insensitive)"), "password": str("")}),
	"SignUpWithCaptchaDTO": object([]string{"email", "password"}, map[string]any{"email": str(""), "password": str("8 to 128 characters"),
		"name": str("at most 100 characters"), "captchaToken": str("required when HERALD_CAPTCHA_SECRET is set")}),
	"SignedUp":                   object(nil, map[string]any{"email": str("as sent"), "verificationRequired": boolean(), "redirect": str("")}),
	"ResendVerificationEmailDTO": object([]string{"email"}, map[string]any{"email": str("")}),
	"ResetPasswordDTO":           object([]string{"code", "password"}, map[string]any{"code": str("the emailed reset code"), "password": str("8 to 128 characters")}),
	"RefreshDto":                 object([]string{"refreshToken"}, map[string]any{"refreshToken": str("hrt_…")}),
	"Session": object(nil, map[string]any{"accessToken": str("send as Authorization: Bearer"), "refreshToken": str("single use; rotates"),
		"tokenType": str("Bearer"), "expiresIn": integer(), "user": ref("ClientUserEntity")}),
	"SignInResult": object(nil, map[string]any{"accessToken": str("absent when twoFactorRequired"), "refreshToken": str(""), "tokenType": str(""),
		"expiresIn": integer(), "user": ref("ClientUserEntity"), "twoFactorRequired": boolean(),
		"challengeToken": str("when twoFactorRequired: send as bearer to /v1/ee/auth/2fa/validate or /recovery"), "redirect": str("the checked redirect, echoed")}),
	"ClientUserEntity": object(nil, map[string]any{"id": integer(), "email": str(""), "name": str(""), "emailVerified": boolean(),
		"twoFactorEnabled": boolean(), "hasPassword": boolean(), "onboarding": anyObject(), "createdAt": stamp()}),
	"UpdateOnBoardingProgessDTO": anyObject(),
	"UserToken":                  object(nil, map[string]any{"token": str("RS256 JWT"), "identifier": str(""), "expiresAt": stamp()}),

	"TotpSetup":            object(nil, map[string]any{"secret": str("base32"), "otpauthUri": str("otpauth://totp/…"), "qrCode": str("data:image/png;base64,…")}),
	"TotpDto":              object([]string{"code"}, map[string]any{"code": str("6 digits")}),
	"LoginWithRecoveryDto": object([]string{"recoveryCode"}, map[string]any{"recoveryCode": str("one of the recovery codes")}),
	"TwoFactorEnabled":     object(nil, map[string]any{"enabled": boolean(), "recoveryCodes": arrayOf(str(""))}),
	"TwoFactorDisabled":    object(nil, map[string]any{"enabled": boolean()}),
	"RecoveryCodes": object(nil, map[string]any{"recoveryCodes": arrayOf(str("only when a new set was issued")),
		"remaining": integer(), "total": integer()}),
	"AuditLogEntry": object(nil, map[string]any{"id": integer(), "clientId": integer(),
		"action":     map[string]any{"type": "string", "enum": audit.Actions},
		"actorId":    map[string]any{"type": []string{"integer", "null"}, "description": "the console user who acted; null when nobody was signed in (failed sign-ins)"},
		"actorEmail": str(""), "viaCliTokenId": map[string]any{"type": []string{"integer", "null"}, "description": "the CLI token used, if any"},
		"targetType": str("consoleUser, email, invitation, cliToken or app"), "targetId": str(""), "targetLabel": str("an email or a name"),
		"ip": str("client address"), "userAgent": str(""), "details": map[string]any{"type": "object", "additionalProperties": true}, "createdAt": stamp()}),
	"AuditLogPage":      pageOf("AuditLogEntry"),
	"CodeHostStart":     object(nil, map[string]any{"url": str("send the browser here"), "state": str("hand back with the code")}),
	"CodeHostSignInDto": object([]string{"code", "state"}, map[string]any{"code": str("authorization code"), "state": str("from GET /v1/ee/auth/codehost")}),

	"Client":          object(nil, map[string]any{"id": integer(), "name": str(""), "role": role, "createdAt": stamp(), "updatedAt": stamp()}),
	"ClientList":      arrayOf(ref("Client")),
	"CreateClientDTO": object([]string{"name"}, map[string]any{"name": str("at most 100 characters")}),
	"UpdateClientDTO": object([]string{"name"}, map[string]any{"name": str("at most 100 characters")}),
	"AppEntity": object(nil, map[string]any{"id": integer(), "clientId": integer(), "name": str(""), "apiKey": str(""), "secureAuth": boolean(),
		"hmacAuth": boolean(), "enableWebPush": boolean(), "hideBranding": boolean(), "publicKey": str("PEM"), "vapidPublicKey": str(""),
		"createdAt": stamp(), "updatedAt": stamp(), "apiSecret": str("only when revealed"), "privateKey": str("only from POST rsa-key"),
		"allowedOrigins": arrayOf(str("origin (scheme://host[:port]) or *"))}),
	"AppList":      arrayOf(ref("AppEntity")),
	"CreateAppDTO": object([]string{"name"}, map[string]any{"name": str("at most 100 characters")}),
	"UpdateAppDTO": object(nil, map[string]any{"name": str(""), "enableWebPush": boolean(), "hideBranding": boolean(), "hmacAuth": boolean(),
		"allowedOrigins": arrayOf(str("browser origins allowed to call the app's user routes (CORS), at most 50; * for any"))}),
	"Environment": object(nil, map[string]any{"created": boolean(), "apps": arrayOf(ref("AppEntity"))}),
	"ClientUserClientsEntity": object(nil, map[string]any{"id": integer(), "clientId": integer(), "role": role, "createdAt": stamp(),
		"clientUser": object(nil, map[string]any{"id": integer(), "email": str(""), "name": str("")})}),
	"MemberList":              arrayOf(ref("ClientUserClientsEntity")),
	"AddClientUserDTO":        object([]string{"email"}, map[string]any{"email": str(""), "role": role}),
	"UpdateClientUserRoleDTO": object([]string{"role"}, map[string]any{"role": role}),
	"InvitationEntity":        object(nil, map[string]any{"id": integer(), "clientId": integer(), "email": str(""), "role": role, "expiresAt": stamp(), "createdAt": stamp()}),
	"InvitationList":          arrayOf(ref("InvitationEntity")),
	"InvitationView": object(nil, map[string]any{"id": integer(), "clientId": integer(), "clientName": str(""), "email": str(""), "role": role,
		"status": map[string]any{"type": "string", "enum": []string{"open", "accepted", "expired"}}, "expiresAt": stamp()}),
	"EmailList": arrayOf(str("email address")),
	"CliToken": object(nil, map[string]any{"id": integer(), "clientId": integer(), "name": str(""), "prefix": str("first characters"),
		"createdBy": integer(), "creatorEmail": str(""), "lastUsedAt": stamp(), "revokedAt": stamp(), "createdAt": stamp(), "token": str("only when created")}),
	"CliTokenList":        arrayOf(ref("CliToken")),
	"CreateCliTokenDTO":   object(nil, map[string]any{"name": str("label; \"CLI token\" by default")}),
	"UpdateClientUserDTO": object([]string{"name"}, map[string]any{"name": str("")}),
	"UpdatePasswordDTO":   object([]string{"newPassword"}, map[string]any{"currentPassword": str("required when the account has a password"), "newPassword": str("8 to 128 characters")}),

	"CategoryEntity":    object(nil, map[string]any{"id": integer(), "appId": integer(), "identifier": str(""), "name": str(""), "createdAt": stamp()}),
	"CategoryList":      arrayOf(ref("CategoryEntity")),
	"CreateCategoryDTO": object([]string{"identifier", "name"}, map[string]any{"identifier": str("letters, digits, _ . : -"), "name": str("")}),
	"UpdateCategoryDto": object([]string{"name"}, map[string]any{"name": str("")}),
	"AppUser":           object(nil, map[string]any{"id": integer(), "identifier": str(""), "profile": anyObject(), "createdAt": stamp(), "updatedAt": stamp()}),
	"UserPage": object(nil, map[string]any{"pagination": object(nil, map[string]any{"totalCount": integer(), "pageNo": integer(), "limit": integer()}),
		"data": arrayOf(ref("AppUser"))}),
	"CreateUserDTO": object([]string{"identifier"}, map[string]any{"identifier": str("at most 255 characters"), "profile": anyObject()}),
	"Profile":       anyObject(),
	"PreferenceList": arrayOf(object(nil, map[string]any{
		"category":           map[string]any{"description": "null for notifications without a category", "anyOf": []any{map[string]any{"type": "null"}, object(nil, map[string]any{"id": integer(), "identifier": str(""), "name": str("")})}},
		"channelPreferences": arrayOf(object(nil, map[string]any{"channel": str(""), "enabled": boolean()})),
	})),

	"FileUpload": object([]string{"file"}, map[string]any{"file": map[string]any{"type": "string", "format": "binary"},
		"folder": map[string]any{"type": "string", "enum": []string{"uploads", "workflows", "layouts"}}, "clientId": integer()}),
	"File": object(nil, map[string]any{"filename": str("generated, unguessable"), "folder": str(""), "originalName": str(""), "contentType": str("sniffed"),
		"size": integer(), "url": str("/v1/files/<folder>/<filename>"), "clientId": integer(), "createdAt": stamp()}),
}
