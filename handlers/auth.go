package handlers

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
)

// MinTokenLength is the shortest access token accepted: 32 characters of a
// URL-safe alphabet carry well over 128 bits when generated at random.
const MinTokenLength = 32

// tokenParam is the query parameter that carries the token once, in the
// sign-in link printed at start-up.
const tokenParam = "token"

// authenticator decides whether a request comes from the holder of the
// access token: Switchboard starts processes and calls tools, so nothing
// but its owner may drive it.
type authenticator struct {
	token      []byte
	cookieName string
	sessionKey []byte // signs session cookies; derived from the token, so a new token ends every session
	now        func() time.Time
	// clients verifies client tokens, which open the MCP endpoints only;
	// nil accepts none.
	clients clientTokenVerifier
}

// clientTokenVerifier is the part of *domain.ClientTokens the
// authenticator uses.
type clientTokenVerifier interface {
	Verify(ctx context.Context, secret string) (string, bool)
}

func newAuthenticator(token string, now func() time.Time) *authenticator {
	if len(token) < MinTokenLength {
		panic("handlers: Options.Token is shorter than MinTokenLength")
	}
	if now == nil {
		now = time.Now
	}
	id := sha256.Sum256([]byte("switchboard cookie name\x00" + token))
	mac := hmac.New(sha256.New, []byte(token))
	mac.Write([]byte("switchboard dashboard session key v2"))
	return &authenticator{
		token: []byte(token),
		// One name per token, so two instances on one host (cookies ignore
		// the port) never overwrite each other's session.
		cookieName: "switchboard_session_" + hex.EncodeToString(id[:4]),
		sessionKey: mac.Sum(nil),
		now:        now,
	}
}

// tokenMatches compares in constant time, so response timing reveals
// nothing about how much of a guess was right. Hashing first makes the
// comparison independent of the guess's length as well.
func tokenMatches(got, want []byte) bool {
	g, w := sha256.Sum256(got), sha256.Sum256(want)
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

// bearer reports whether req carries the token as a bearer credential.
func (a *authenticator) bearer(req *http.Request) bool {
	h := req.Header.Get(echo.HeaderAuthorization)
	scheme, cred, ok := strings.Cut(h, " ")
	return ok && strings.EqualFold(scheme, "Bearer") && tokenMatches([]byte(strings.TrimSpace(cred)), a.token)
}

// bearerCredential returns what req carries as a bearer credential.
func bearerCredential(req *http.Request) (string, bool) {
	scheme, cred, ok := strings.Cut(req.Header.Get(echo.HeaderAuthorization), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(cred), true
}

// mcpIdentity returns the name of the token c's request carries as a bearer
// credential, when that token may use the MCP endpoints: the owner's access
// token goes by domain.OwnerTokenName, a client token by its own name. The
// cookie is not accepted there: no browser page talks MCP.
func (a *authenticator) mcpIdentity(c echo.Context) (tokenName string, ok bool) {
	req := c.Request()
	cred, ok := bearerCredential(req)
	switch {
	case !ok:
		return "", false
	case tokenMatches([]byte(cred), a.token):
		return domain.OwnerTokenName, true
	case a.clients == nil:
		return "", false
	}
	return a.clients.Verify(req.Context(), cred)
}

// newSession returns a cookie value of its own for each sign-in: a random
// nonce and the time it was issued, signed with the session key. It is
// never the token, and it stops working after sessionMaxAge.
func (a *authenticator) newSession() string {
	payload := make([]byte, 16+8)
	rand.Read(payload[:16]) // never fails: crypto/rand panics rather than return weak bytes
	binary.BigEndian.PutUint64(payload[16:], uint64(a.now().Unix()))
	return base64.RawURLEncoding.EncodeToString(payload) + "." + hex.EncodeToString(a.sign(payload))
}

func (a *authenticator) sign(payload []byte) []byte {
	mac := hmac.New(sha256.New, a.sessionKey)
	mac.Write(payload)
	return mac.Sum(nil)
}

// cookie reports whether req carries a session cookie this token signed
// that has not expired.
func (a *authenticator) cookie(req *http.Request) bool {
	ck, err := req.Cookie(a.cookieName)
	if err != nil {
		return false
	}
	enc, sig, ok := strings.Cut(ck.Value, ".")
	payload, perr := base64.RawURLEncoding.DecodeString(enc)
	mac, merr := hex.DecodeString(sig)
	if !ok || perr != nil || merr != nil || len(payload) != 24 || !hmac.Equal(mac, a.sign(payload)) {
		return false
	}
	issued := time.Unix(int64(binary.BigEndian.Uint64(payload[16:])), 0)
	age := a.now().Sub(issued)
	return age > -time.Minute && age < sessionMaxAge*time.Second
}

// authenticated reports whether req may drive Switchboard. The JSON API
// takes the bearer token only: the cookie is the dashboard's, and browsers
// send it to every port of the host, so it opens no more than it must.
func (a *authenticator) authenticated(req *http.Request) bool {
	if apiPath(req.URL.Path) {
		return a.bearer(req)
	}
	return a.bearer(req) || a.cookie(req)
}

// sessionCookie is what a correct token is exchanged for: HttpOnly so no
// script reads it, SameSite=Strict so no other site's page sends it, and
// Secure when the page was reached over TLS (a proxy in front).
func (a *authenticator) sessionCookie(req *http.Request) *http.Cookie {
	return &http.Cookie{
		Name:     a.cookieName,
		Value:    a.newSession(),
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		Secure:   req.TLS != nil || strings.EqualFold(req.Header.Get("X-Forwarded-Proto"), "https"),
		MaxAge:   sessionMaxAge,
	}
}

// sessionMaxAge keeps a person signed in for two weeks, across browser
// restarts; a new token (switchboard token --rotate) ends every session.
const sessionMaxAge = 14 * 24 * 60 * 60

// public reports whether path is served without the token: the assets the
// sign-in page itself needs, the sign-in page, the liveness probe, and the
// OAuth callback, which the single-use state of a sign-in protects instead.
func public(path string) bool {
	return path == PathHealth || path == PathSignIn || path == PathOAuthCallback || strings.HasPrefix(path, PathStatic+"/")
}

// mcpRoot is where the MCP endpoints live: the aggregated one, and one per
// server below it.
const mcpRoot = "/mcp"

// mcpPath reports whether path is an MCP endpoint, the only place a client
// token opens.
func mcpPath(path string) bool {
	return path == mcpRoot || strings.HasPrefix(path, mcpRoot+"/")
}

// requireMCPToken lets an MCP request through when it carries the owner's
// token or a client token, with the token's name in the request's context
// (MCPTokenName) for the gateway to attribute the client's calls.
func requireMCPToken(a *authenticator, next echo.HandlerFunc, c echo.Context) error {
	name, ok := a.mcpIdentity(c)
	if !ok {
		// No resource metadata is advertised: a client that saw OAuth
		// offered would drop the static header it was configured with.
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="switchboard"`)
		return &apiError{http.StatusUnauthorized, "unauthorized",
			"send a client token (or the access token) as Authorization: Bearer <token>; create one on the Connect page"}
	}
	req := c.Request()
	c.SetRequest(req.WithContext(withMCPTokenName(req.Context(), name)))
	return next(c)
}

// apiPath reports whether path belongs to the JSON API, which answers a
// missing token with a JSON error rather than the sign-in page.
func apiPath(path string) bool {
	return strings.HasPrefix(path, "/api/")
}

// requireToken runs after the host guard and before routing. A GET with a
// correct ?token= is exchanged for the session cookie and redirected to
// the same URL without the token, so it leaves the address bar and the
// history at once.
func requireToken(a *authenticator, signIn echo.HandlerFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			path := req.URL.Path
			if public(path) {
				return next(c)
			}
			if mcpPath(path) {
				return requireMCPToken(a, next, c)
			}
			if q := req.URL.Query(); q.Has(tokenParam) && req.Method == http.MethodGet && !apiPath(path) {
				if !tokenMatches([]byte(q.Get(tokenParam)), a.token) {
					return signIn(c)
				}
				c.SetCookie(a.sessionCookie(req))
				q.Del(tokenParam)
				u := *req.URL
				u.RawQuery = q.Encode()
				c.Response().Header().Set("Cache-Control", "no-store")
				// The same check as the sign-in form's return address:
				// "//evil.example?token=…" must not send the person away.
				return c.Redirect(http.StatusSeeOther, localPath(u.RequestURI()))
			}
			if a.authenticated(req) {
				return next(c)
			}
			switch {
			case apiPath(path):
				c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="switchboard"`)
				return &apiError{http.StatusUnauthorized, "unauthorized",
					"send the access token as Authorization: Bearer <token>; `switchboard token` prints it"}
			case req.Header.Get("HX-Request") != "":
				// An htmx action whose session ended: send the whole page to
				// the sign-in page instead of swapping an error into it.
				c.Response().Header().Set("HX-Redirect", PathSignIn)
				return c.NoContent(http.StatusUnauthorized)
			case req.Method == http.MethodGet && path != PathPageEvents:
				// A page: the sign-in form in its place, coming back here.
				return signIn(c)
			}
			return &apiError{http.StatusUnauthorized, "unauthorized", "sign in to Switchboard first"}
		}
	}
}
