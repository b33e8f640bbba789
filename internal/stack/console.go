package stack

import (
	"log/slog"
	"path/filepath"
	"strings"

	v1 "github.com/heraldhq/herald/api/v1"
	"github.com/heraldhq/herald/api/web"
	"github.com/heraldhq/herald/internal/audience/appadmin"
	"github.com/heraldhq/herald/internal/console"
	"github.com/heraldhq/herald/internal/console/audit"
	"github.com/heraldhq/herald/internal/console/captcha"
	"github.com/heraldhq/herald/internal/console/clients"
	"github.com/heraldhq/herald/internal/console/files"
	"github.com/heraldhq/herald/internal/console/mailer"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// ConsoleServices are the services behind the console's identity and tenancy routes.
type ConsoleServices struct {
	Mailer mailer.Mailer
	// Audit is the trail of security events (pruned by the worker after
	// HERALD_AUDIT_RETENTION).
	Audit    *audit.Log
	Console  *console.Service
	Clients  *clients.Service
	AppAdmin *appadmin.Service
	Files    *files.Service
}

// openConsole builds the console services from the configuration.
func (s *Stack) openConsole(log *slog.Logger) error {
	cc := s.Cfg.Console
	s.Mailer = mailer.New(mailer.Config{Host: cc.SMTPHost, Port: cc.SMTPPort, Username: cc.SMTPUsername,
		Password: cc.SMTPPassword, From: cc.SMTPFrom, TLS: cc.SMTPTLS}, log.With("component", "mailer"))
	s.Audit = audit.New(s.DB, log.With("component", "audit"))
	s.Console = console.NewService(s.DB, s.Box, s.Mailer, captcha.New(cc.CaptchaVerifyURL, cc.CaptchaSecret), s.Audit,
		log.With("component", "console"), console.Config{
			SigningKey: secrets.Derive(s.Cfg.SecretKey, "console tokens"),
			ConsoleURL: cc.URL, Origins: cc.Origins, AccessTTL: cc.AccessTTL, RefreshTTL: cc.RefreshTTL,
			SecureCookies: strings.HasPrefix(strings.ToLower(s.Cfg.PublicURL), "https://"),
			Throttle: console.ThrottleConfig{AccountMax: cc.SignInMaxFailures, IPMax: cc.SignInMaxFailuresPerIP,
				Window: cc.SignInLock, Lock: cc.SignInLock},
			CodeHost: console.CodeHostConfig{Name: cc.CodeHostName, ClientID: cc.CodeHostClientID, ClientSecret: cc.CodeHostClientSecret,
				AuthURL: cc.CodeHostAuthURL, TokenURL: cc.CodeHostTokenURL, APIURL: cc.CodeHostAPIURL, RedirectURL: cc.CodeHostRedirectURL},
			Requests: console.LimitConfig{Window: cc.AccountLimitWindow, SignUpPerIP: cc.SignUpLimitPerIP,
				ResetPerIP: cc.PasswordResetLimitPerIP, InvitePerIP: cc.InvitationLimitPerIP, PerEmail: cc.AccountLimitPerEmail},
			LimitStore: s.Limits,
		})
	s.Clients = clients.NewService(s.DB, s.Mailer, s.Audit, log.With("component", "clients"), cc.URL)
	s.Clients.Limits = s.Console.Limits()
	s.AppAdmin = appadmin.NewService(s.DB, s.Apps, s.Users)
	s.AppAdmin.Detail = appadmin.Detail{Prefs: s.Prefs, Inbox: s.Inbox}
	var store files.Storage
	if cc.FilesS3Bucket != "" {
		s3, err := files.NewS3(files.S3Config{Endpoint: cc.FilesS3Endpoint, Region: cc.FilesS3Region, Bucket: cc.FilesS3Bucket,
			AccessKey: cc.FilesS3AccessKey, SecretKey: cc.FilesS3SecretKey, Prefix: cc.FilesS3Prefix,
			Insecure: cc.FilesS3Insecure, PathStyle: cc.FilesS3PathStyle})
		if err != nil {
			return err
		}
		store = s3
	} else {
		dir := cc.FilesDir
		if dir == "" {
			dir = filepath.Join(s.Cfg.DataDir, "files")
		}
		store = files.Local{Root: dir}
	}
	s.Files = files.NewService(s.DB, store, int64(cc.FilesMaxBytes))
	return nil
}

// consoleHandlers are the /v1 handlers of the console routes.
func (s *Stack) consoleHandlers() *v1.Console {
	return &v1.Console{
		Auth:    &web.ConsoleAuth{Console: s.Console, Clients: s.Clients},
		Console: s.Console, Clients: s.Clients, Apps: s.Apps, AppAdmin: s.AppAdmin, Categories: s.Categories, Files: s.Files,
		Audit: s.Audit, Erasure: s.Erasure, Export: s.Export, Retention: s.Retention,
	}
}
