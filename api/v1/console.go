package v1

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/audience/appadmin"
	"github.com/heraldhq/herald/internal/audience/categories"
	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/console/apps"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/console/files"
	"github.com/heraldhq/herald/internal/lifecycle/erasure"
	"github.com/heraldhq/herald/internal/lifecycle/export"
	"github.com/heraldhq/herald/internal/lifecycle/retention"
	"github.com/heraldhq/herald/internal/platform/logctx"
)

// Console holds the handlers of the console's identity and tenancy routes: accounts,
// 2FA, clients, members, invitations, CLI tokens, apps, app users, categories and files.
type Console struct {
	Auth       *web.ConsoleAuth
	Console    *console.Service
	Clients    *clients.Service
	Apps       *apps.Service
	AppAdmin   *appadmin.Service
	Categories *categories.Service
	Files      *files.Service
	// Audit is the audit log read by GET /v1/auditLogs.
	Audit *audit.Log
	// Erasure erases an app's user; Export gathers everything about one (issue 33).
	Erasure *erasure.Service
	Export  *export.Service
	// Retention reads and changes an app's retention settings.
	Retention *retention.Service
}

// Register mounts the routes on r (the /v1 group). Each route names its credentials here;
// the role it needs on the owning client is checked in the handler (or by h.app).
func (h *Console) Register(r fiber.Router) {
	session, member := h.Auth.Session(), h.Auth.Member()

	r.Post("/auth", h.signIn)
	r.Post("/ee/auth", h.signIn)
	r.Post("/auth/signup", h.signUp)
	r.Post("/auth/verify/:verificationCode", h.verify)
	r.Post("/auth/resendVerificationEmail", h.resendVerification)
	r.Post("/auth/passwordResetRequests", h.requestPasswordReset)
	r.Post("/auth/resetPassword", h.resetPassword)
	r.Post("/auth/refresh", h.refresh)
	r.Post("/auth/console/refresh", h.consoleRefresh)
	r.Post("/auth/signout", session, h.signOut)
	r.Get("/auth/validate", member, h.validate)
	r.Get("/auth/me", member, h.me)
	r.Get("/auth/onboarding", session, h.getOnboarding)
	r.Post("/auth/onboarding", session, h.postOnboarding)
	r.Get("/auth/app/:id/generate-token", member, h.appToken)
	r.Get("/auth/user/:identifier/generate-token", member, h.userToken)

	r.Get("/ee/auth/2fa", session, h.setupTwoFactor)
	r.Patch("/ee/auth/2fa/enable", session, h.enableTwoFactor)
	r.Patch("/ee/auth/2fa/disable", session, h.disableTwoFactor)
	r.Get("/ee/auth/2fa/recoveryCodes", session, h.recoveryCodes)
	r.Post("/ee/auth/2fa/validate", h.completeTwoFactor)
	r.Post("/ee/auth/2fa/recovery", h.completeRecovery)
	r.Get("/ee/auth/codehost", h.startCodeHost)
	r.Get("/ee/auth/codehost/options", h.codeHostOptions)
	r.Post("/ee/auth/codehost", h.codeHostSignIn)

	r.Get("/clients", member, h.listClients)
	r.Post("/clients", session, h.createClient)
	r.Get("/clients/:clientId", member, h.getClient)
	r.Patch("/clients/:clientId", member, h.updateClient)
	r.Get("/clients/:clientId/apps", member, h.listApps)
	r.Post("/clients/:clientId/apps", member, h.createApp)
	r.Post("/clients/:clientId/initialize-client-environment", member, h.initializeEnvironment)
	r.Get("/clients/:clientId/clientUsers", member, h.listMembers)
	r.Post("/clients/:clientId/clientUsers", member, h.addMember)
	r.Put("/clients/:clientId/clientUsers/:clientUserId", member, h.setMemberRole)
	r.Delete("/clients/:clientId/clientUsers/:clientUserId", member, h.removeMember)
	r.Get("/clients/:clientId/clientUserInvitations", member, h.listInvitations)
	r.Delete("/clients/:clientId/clientUserInvitations/:invitationId", member, h.revokeInvitation)
	r.Post("/clients/:clientId/invite-users", member, h.inviteUsers)
	r.Get("/clients/:clientId/cli-token", member, h.listCLITokens)
	r.Post("/clients/:clientId/cli-token", session, h.createCLIToken)
	r.Delete("/clients/:clientId/cli-token/:tokenId", member, h.revokeCLIToken)
	r.Get("/auditLogs", member, h.listAuditLogs)

	r.Get("/invitations/:code", h.getInvitation)
	r.Get("/invitations/:code/accept", session, h.acceptInvitation)
	r.Post("/invitations/:invitationId/resend", member, h.resendInvitation)
	r.Get("/clientUsers/:id", member, h.getConsoleUser)
	r.Patch("/clientUsers/:id", session, h.updateConsoleUser)
	r.Put("/clientUsers/:id/password", session, h.changePassword)
	r.Put("/categories/:categoryId", member, h.updateCategory)
	r.Delete("/categories/:categoryId", member, h.deleteCategory)

	r.Get("/apps/:appId", member, h.app(clients.Viewer, h.getApp))
	r.Put("/apps/:appId", member, h.app(clients.Admin, h.updateApp))
	r.Delete("/apps/:appId", member, h.app(clients.Admin, h.deleteApp))
	r.Get("/apps/:appId/secret", member, h.app(clients.Admin, h.appSecret))
	r.Post("/apps/:appId/rsa-key", member, h.app(clients.Admin, h.newRSAKey))
	r.Get("/apps/:appId/rsa-key", member, h.app(clients.Viewer, h.getRSAKey))
	r.Put("/apps/:appId/secure-auth", member, h.app(clients.Admin, h.toggleSecureAuth))
	r.Get("/apps/:appId/retention", member, h.app(clients.Viewer, h.getRetention))
	r.Put("/apps/:appId/retention", member, h.app(clients.Admin, h.putRetention))
	r.Get("/apps/:appId/users", member, h.app(clients.Viewer, h.listUsers))
	r.Post("/apps/:appId/users", member, h.app(clients.Developer, h.createUser))
	r.Put("/apps/:appId/users/:identifier", member, h.app(clients.Developer, h.upsertUser))
	r.Delete("/apps/:appId/users/:identifier", member, h.app(clients.Developer, h.deleteUser))
	r.Get("/apps/:appId/users/:identifier/profile", member, h.app(clients.Viewer, h.userProfile))
	r.Get("/apps/:appId/users/:identifier/preferences", member, h.app(clients.Viewer, h.userPreferences))
	r.Patch("/apps/:appId/users/:identifier/preferences", member, h.app(clients.Developer, h.setUserPreferences))
	r.Get("/apps/:appId/users/:identifier/preferences/channels", member, h.app(clients.Viewer, h.userChannelPreferences))
	r.Put("/apps/:appId/users/:identifier/preferences/channels", member, h.app(clients.Developer, h.setUserChannelPreferences))
	r.Get("/apps/:appId/users/:identifier/preferences/quiet-hours", member, h.app(clients.Viewer, h.userQuietHours))
	r.Put("/apps/:appId/users/:identifier/preferences/quiet-hours", member, h.app(clients.Developer, h.setUserQuietHours))
	r.Get("/apps/:appId/users/:identifier/preferences/workflows", member, h.app(clients.Viewer, h.userFlowPreferences))
	r.Patch("/apps/:appId/users/:identifier/preferences/workflows", member, h.app(clients.Developer, h.setUserFlowPreferences))
	r.Get("/apps/:appId/users/:identifier/devices", member, h.app(clients.Viewer, h.userDevices))
	r.Get("/apps/:appId/users/:identifier/notifications", member, h.app(clients.Viewer, h.userInbox))
	r.Get("/apps/:appId/users/:identifier/export", member, h.app(clients.Developer, h.exportUser))
	r.Post("/apps/:appId/categories", member, h.app(clients.Developer, h.createCategory))
	r.Get("/apps/:appId/categories", member, h.app(clients.Viewer, h.listCategories))

	r.Post("/files", web.BodyLimit(int(h.Files.MaxSize())+64<<10), member, h.uploadFile)
	r.Get("/files/uploads/:filename", h.publicFile)
	r.Get("/files/workflows/:filename", member, h.folderFile(files.Workflows))
	r.Get("/files/layouts/:filename", member, h.folderFile(files.Layouts))
	r.Get("/files/:filename", member, h.getFile)
	r.Delete("/files/:filename", member, h.deleteFile)
}

// actor is the caller as the tenancy layer sees it.
func actor(c *fiber.Ctx) clients.Actor { return web.ConsoleOf(c).Actor }

// caller describes the request's origin for throttling and session records.
func caller(c *fiber.Ctx) console.Caller {
	return console.Caller{IP: web.ClientIPOf(c), UserAgent: strings.Clone(c.Get(fiber.HeaderUserAgent))}
}

// appScope is an app the caller may act on, with the caller's role on its client.
type appScope struct {
	AppID, ClientID int64
	Role            clients.Role
}

// app wraps a handler of /apps/:appId/...: the app must belong to a client where the
// caller has at least min; apps of other clients are not found.
func (h *Console) app(min clients.Role, fn func(*fiber.Ctx, appScope) error) fiber.Handler {
	return func(c *fiber.Ctx) error {
		var p herald.Problems
		appID := pathID(c, "appId", &p)
		if err := p.Err(); err != nil {
			return err
		}
		s, err := h.appAccess(c, appID, min)
		if err != nil {
			return err
		}
		return fn(c, s)
	}
}

func (h *Console) appAccess(c *fiber.Ctx, appID int64, min clients.Role) (appScope, error) {
	clientID, err := h.Apps.ClientOf(c.UserContext(), appID)
	if err != nil {
		return appScope{}, err
	}
	role, err := h.Clients.Access(c.UserContext(), actor(c), clientID, min)
	if err != nil {
		if herald.ErrorCode(err) == herald.ENOTFOUND {
			return appScope{}, herald.NotFound("app")
		}
		return appScope{}, err
	}
	logctx.SetApp(c.UserContext(), appID)
	logctx.SetClient(c.UserContext(), clientID)
	return appScope{AppID: appID, ClientID: clientID, Role: role}, nil
}
