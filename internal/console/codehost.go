package console

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/oauth2"

	herald "github.com/heraldhq/herald"
	"github.com/heraldhq/herald/db"
	"github.com/heraldhq/herald/db/dbsqlc"
	"github.com/heraldhq/herald/internal/platform/secrets"
)

// CodeHostConfig is a GitHub-compatible OAuth2 identity provider (HERALD_CODEHOST_*).
type CodeHostConfig struct {
	// Name labels linked identities ("github" by default).
	Name                   string
	ClientID, ClientSecret string
	// AuthURL and TokenURL are the OAuth2 endpoints; APIURL serves GET /user and
	// GET /user/emails.
	AuthURL, TokenURL, APIURL string
	// RedirectURL is the console page the code host sends the browser back to.
	RedirectURL string
}

// Enabled reports whether code-host sign-in is configured.
func (c CodeHostConfig) Enabled() bool { return c.ClientID != "" }

func (c CodeHostConfig) oauth() *oauth2.Config {
	return &oauth2.Config{
		ClientID: c.ClientID, ClientSecret: c.ClientSecret, RedirectURL: c.RedirectURL,
		Endpoint: oauth2.Endpoint{AuthURL: c.AuthURL, TokenURL: c.TokenURL},
		Scopes:   []string{"read:user", "user:email"},
	}
}

// CodeHostOption is a code host the sign-in page offers a button for.
type CodeHostOption struct {
	// Name is the configured name of the code host (HERALD_CODEHOST_NAME), e.g. "github".
	Name string `json:"name"`
}

// CodeHostOptions lists the code hosts a browser may sign in with: none when code-host
// sign-in is not configured. It reveals nothing but the configured name.
func (s *Service) CodeHostOptions() []CodeHostOption {
	if !s.cfg.CodeHost.Enabled() {
		return []CodeHostOption{}
	}
	name := s.cfg.CodeHost.Name
	if name == "" {
		name = "github"
	}
	return []CodeHostOption{{Name: name}}
}

func errNoCodeHost() error {
	return herald.Errorf(herald.ENOTFOUND, "code-host sign-in is not configured (HERALD_CODEHOST_CLIENT_ID)")
}

// CodeHostStart is where to send the browser, and the state the console must hand back.
// Nonce goes into the browser's cookie (never into the answer): the callback is refused
// unless the same browser presents it, so an attacker cannot have a victim's browser
// complete the attacker's sign-in (login CSRF).
type CodeHostStart struct {
	URL   string `json:"url"`
	State string `json:"state"`
	Nonce string `json:"-"`
}

// StartCodeHost returns the code host's authorization URL. The state is a signed,
// short-lived token carrying the checked redirect and the hash of a fresh nonce.
func (s *Service) StartCodeHost(redirect string) (CodeHostStart, error) {
	if !s.cfg.CodeHost.Enabled() {
		return CodeHostStart{}, errNoCodeHost()
	}
	nonce := secrets.Token(32)
	state := s.signClaims(claims{Kind: kindState, Redirect: redirect, Nonce: nonceHash(nonce)}, 0, stateTTL)
	return CodeHostStart{URL: s.cfg.CodeHost.oauth().AuthCodeURL(state), State: state, Nonce: nonce}, nil
}

// CodeHostStateTTL is how long a code-host sign-in may take (and its nonce cookie lives).
const CodeHostStateTTL = stateTTL

func nonceHash(nonce string) string { return hex.EncodeToString(secrets.Hash(nonce)) }

// checkState verifies the state token and that nonce (the browser's cookie) is the one it
// was issued with, comparing in constant time.
func (s *Service) checkState(state, nonce string) (*claims, error) {
	st, err := s.parse(state, kindState)
	if err != nil {
		return nil, unauthorized("invalid or expired state: start the code-host sign-in again")
	}
	if nonce == "" || st.Nonce == "" || !secrets.Equal([]byte(nonceHash(nonce)), []byte(st.Nonce)) {
		return nil, unauthorized("the code-host sign-in was not started in this browser: start it again")
	}
	return st, nil
}

// codeHostUser is what GET /user answers (GitHub's shape).
type codeHostUser struct {
	ID    json.Number `json:"id"`
	Login string      `json:"login"`
	Name  string      `json:"name"`
}

type codeHostEmail struct {
	Email    string `json:"email"`
	Primary  bool   `json:"primary"`
	Verified bool   `json:"verified"`
}

// SignInWithCodeHost completes the authorization-code flow: it checks the state against
// the browser's nonce, exchanges the code, reads the account and its verified email, and
// signs in the linked console user — linking by verified email (taking back an unverified
// account, see reclaim), or creating the account, on first use.
func (s *Service) SignInWithCodeHost(ctx context.Context, code, state, nonce string, from Caller) (SignInResult, error) {
	ch := s.cfg.CodeHost
	if !ch.Enabled() {
		return SignInResult{}, errNoCodeHost()
	}
	st, err := s.checkState(state, nonce)
	if err != nil {
		return SignInResult{}, err
	}
	conf := ch.oauth()
	tok, err := conf.Exchange(ctx, code)
	if err != nil {
		s.log.InfoContext(ctx, "code-host token exchange failed", "error", err)
		return SignInResult{}, unauthorized("the code host did not accept the authorization code")
	}
	hc := conf.Client(ctx, tok)
	var u codeHostUser
	if err := getJSON(ctx, hc, ch.APIURL+"/user", &u); err != nil {
		return SignInResult{}, &herald.Error{Code: herald.EUNAVAILABLE, Message: "the code host did not answer", Err: err}
	}
	var emails []codeHostEmail
	if err := getJSON(ctx, hc, ch.APIURL+"/user/emails", &emails); err != nil {
		return SignInResult{}, &herald.Error{Code: herald.EUNAVAILABLE, Message: "the code host did not answer", Err: err}
	}
	email := verifiedEmail(emails)
	if u.ID.String() == "" || email == "" {
		return SignInResult{}, herald.Errorf(herald.EFORBIDDEN, "the code-host account has no verified email address")
	}
	row, err := s.linkCodeHost(ctx, ch.name(), u, email, from)
	if err != nil {
		return SignInResult{}, err
	}
	return s.admit(ctx, row, st.Redirect, from, methodCodeHost)
}

func (c CodeHostConfig) name() string {
	if c.Name == "" {
		return "github"
	}
	return c.Name
}

// verifiedEmail picks the primary verified address, else any verified one.
func verifiedEmail(list []codeHostEmail) string {
	pick := ""
	for _, e := range list {
		if !e.Verified {
			continue
		}
		if e.Primary {
			return e.Email
		}
		if pick == "" {
			pick = e.Email
		}
	}
	return pick
}

// linkCodeHost finds or creates the console user of a code-host account.
func (s *Service) linkCodeHost(ctx context.Context, provider string, u codeHostUser, email string, from Caller) (dbsqlc.ConsoleUser, error) {
	subject := u.ID.String()
	ident, err := s.db.GetConsoleIdentity(ctx, dbsqlc.GetConsoleIdentityParams{Provider: provider, Subject: subject})
	if err == nil {
		row, err := s.db.GetConsoleUser(ctx, ident.ConsoleUserID)
		return row, db.MapError(err)
	}
	if herald.ErrorCode(db.MapError(err)) != herald.ENOTFOUND {
		return dbsqlc.ConsoleUser{}, db.MapError(err)
	}
	var row dbsqlc.ConsoleUser
	err = s.db.InTx(ctx, func(q *dbsqlc.Queries, _ pgxTx) error {
		var err error
		row, err = q.GetConsoleUserByEmail(ctx, email)
		if err == nil {
			// The code host vouches for the address. A verified account is its owner's and is
			// linked as it is. An unverified one may have been registered by someone else
			// before its owner, with a password the owner never chose: it is taken back
			// (password, sessions, CLI tokens and 2FA dropped) and verified.
			if row.EmailVerifiedAt == nil {
				if row, err = s.reclaim(ctx, q, row, nil, methodCodeHost, from); err != nil {
					return err
				}
			}
		} else if herald.ErrorCode(db.MapError(err)) == herald.ENOTFOUND {
			name := u.Name
			if name == "" {
				name = u.Login
			}
			now := s.now()
			row, err = q.CreateConsoleUser(ctx, dbsqlc.CreateConsoleUserParams{Email: email, Name: truncate(name, 100), EmailVerifiedAt: &now})
			if err != nil {
				return db.MapError(err)
			}
		} else {
			return db.MapError(err)
		}
		return db.MapError(q.CreateConsoleIdentity(ctx, dbsqlc.CreateConsoleIdentityParams{ConsoleUserID: row.ID, Provider: provider, Subject: subject}))
	})
	return row, err
}

func getJSON(ctx context.Context, hc *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %s", url, strconv.Itoa(res.StatusCode))
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.UseNumber()
	return dec.Decode(v)
}
