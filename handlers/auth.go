package handlers

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
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
	session    string // the cookie value: derived from the token, never the token itself
}

func newAuthenticator(token string) *authenticator {
	if len(token) < MinTokenLength {
		panic("handlers: Options.Token is shorter than MinTokenLength")
	}
	id := sha256.Sum256([]byte("switchboard cookie name\x00" + token))
	mac := hmac.New(sha256.New, []byte(token))
	mac.Write([]byte("switchboard dashboard session v1"))
	return &authenticator{
		token: []byte(token),
		// One name per token, so two instances on one host (cookies ignore
		// the port) never overwrite each other's session.
		cookieName: "switchboard_session_" + hex.EncodeToString(id[:4]),
		session:    hex.EncodeToString(mac.Sum(nil)),
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

// cookie reports whether req carries the dashboard's session cookie.
func (a *authenticator) cookie(req *http.Request) bool {
	ck, err := req.Cookie(a.cookieName)
	return err == nil && tokenMatches([]byte(ck.Value), []byte(a.session))
}

// authenticated reports whether req may drive Switchboard.
func (a *authenticator) authenticated(req *http.Request) bool {
	return a.bearer(req) || a.cookie(req)
}

// sessionCookie is what a correct token is exchanged for: HttpOnly so no
// script reads it, SameSite=Strict so no other site's page sends it.
func (a *authenticator) sessionCookie() *http.Cookie {
	return &http.Cookie{
		Name:     a.cookieName,
		Value:    a.session,
		Path:     "/",
		HttpOnly: true,
		SameSite: http.SameSiteStrictMode,
		MaxAge:   sessionMaxAge,
	}
}

// sessionMaxAge keeps a person signed in for a month, across browser
// restarts; changing the token ends every session at once.
const sessionMaxAge = 30 * 24 * 60 * 60

// public reports whether path is served without the token: the assets the
// sign-in page itself needs, the sign-in page, and the liveness probe.
func public(path string) bool {
	return path == PathHealth || path == PathSignIn || strings.HasPrefix(path, PathStatic+"/")
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
			if q := req.URL.Query(); q.Has(tokenParam) && req.Method == http.MethodGet && !apiPath(path) {
				if !tokenMatches([]byte(q.Get(tokenParam)), a.token) {
					return signIn(c)
				}
				c.SetCookie(a.sessionCookie())
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
