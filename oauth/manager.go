package oauth

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// FlowTTL is how long a started sign-in waits for its callback.
const FlowTTL = 10 * time.Minute

// ClientName is how Switchboard names itself when it registers.
const ClientName = "Switchboard"

// ManagerOptions configures a Manager. Store and Sealer are required.
type ManagerOptions struct {
	Store  Store
	Sealer *Sealer
	// KeySource says where the Sealer's key came from, for the drawer.
	KeySource string
	// RedirectURI is http://127.0.0.1:<listen port>/oauth/callback; see
	// also SetRedirectURI.
	RedirectURI string
	// ClientMetadataURL is Switchboard's client ID metadata document, used
	// where a server supports them and its settings name none.
	ClientMetadataURL string
	// HTTPClient makes discovery, registration and token requests. The
	// default bounds each request to 30 s. For a server not on this
	// machine its connections to loopback, link-local and unspecified
	// addresses are refused as they are dialed.
	HTTPClient *http.Client
	// Resolver resolves names for those guarded connections; nil is the
	// system's. Tests give it names that lead to local addresses.
	Resolver *net.Resolver
	// Clock times token expiry, flow expiry and refresh backoff.
	Clock domain.Clock
	// Log receives one line per sign-in event; never a token.
	Log *slog.Logger
	// OnChange is told the name of a server whose sign-in changed. It is
	// called on its own goroutine, never under the manager's lock.
	OnChange func(server string)
}

// Manager holds every remote server's OAuth sign-in: it adds bearer
// tokens to requests, renews them, and runs the sign-in flows the
// dashboard starts. It implements domain.SignIns for handlers and
// mcpclient.Authenticator for the connector.
type Manager struct {
	opts ManagerOptions

	// guarded is opts.HTTPClient refusing local addresses as it dials,
	// for servers not on this machine; see httpFor.
	guarded *http.Client

	mu       sync.Mutex         // guards servers, flows and redirect
	servers  map[string]*server // by server name
	flows    map[string]*flow   // pending sign-ins by state
	redirect string             // where the authorization server sends the browser back
}

var _ domain.SignIns = (*Manager)(nil)

// NewManager returns a Manager with opts' defaults filled in.
func NewManager(opts ManagerOptions) *Manager {
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if opts.Clock == nil {
		opts.Clock = domain.SystemClock{}
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Manager{opts: opts, guarded: guardDial(opts.HTTPClient, opts.Resolver),
		servers: map[string]*server{}, flows: map[string]*flow{}, redirect: opts.RedirectURI}
}

// httpFor is the client for requests made on behalf of the server at
// serverURL: the guarded one unless that server is on this machine
// (httpClientFor's rule).
func (m *Manager) httpFor(serverURL string) *http.Client {
	u, err := url.Parse(serverURL)
	if err == nil && isLoopback(u.Hostname()) {
		return m.opts.HTTPClient
	}
	return m.guarded
}

// SetRedirectURI sets the callback address once the listen port is
// known: the connector needs the manager before Switchboard listens.
func (m *Manager) SetRedirectURI(uri string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.redirect = uri
}

func (m *Manager) redirectURI() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.redirect
}

// server is what the manager knows about one server's sign-in. Its fields
// are guarded by Manager.mu.
type server struct {
	name   string
	cfg    domain.ServerConfig
	loaded bool // stored tokens were looked for
	// oauth says the server asked for OAuth (a 401), has tokens, or has an
	// "oauth" settings key: only then does it have an AuthStatus.
	oauth bool

	state  domain.AuthState
	detail string
	// moreAccess and wanted: the server refused the grant as too narrow
	// and asked for wanted.
	moreAccess bool
	wanted     []string
	// challenge is the refusal that made a sign-in necessary: its scopes
	// and metadata address guide the sign-in. Later refusals while one is
	// needed do not replace it.
	challenge *Challenge

	md     *Metadata
	client *Client // a client ID a person typed in, or the one last used
	tok    *Token
	got    time.Time // when tok was obtained, for its lifetime

	// scopesCapped says dropped scopes were logged already.
	scopesCapped bool

	refreshing *refreshCall // the refresh in flight; nil when none
	// gen is the grant generation, bumped when a sign-in completes and
	// on sign-out. A refresh remembers it when it starts and discards its
	// result when it changed meanwhile, so that a renewal of the old grant
	// neither brings forgotten tokens back nor replaces a new sign-in.
	gen uint64
	// grantMu orders the writes of a grant's stored tokens (a refresh's
	// save or deletion, a sign-in's save, a sign-out's deletion) with the
	// change of gen that decides which of them is current. It is taken
	// before m.mu, never while holding it.
	grantMu sync.Mutex

	failures  int           // refreshes failed in a row for a passing reason
	retryAt   time.Time     // no proactive refresh before this after a failure
	retry     domain.Timer  // the scheduled retry of a failing refresh
	retryStop chan struct{} // closed to cancel retry
}

// AuthStatus returns the server's sign-in state, or nil when it does not
// use OAuth.
func (m *Manager) AuthStatus(name string) *domain.AuthStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.servers[name]
	if s == nil || !s.oauth {
		return nil
	}
	state := s.state
	if state == domain.AuthSigningIn && !m.waitingLocked(name) {
		state = domain.AuthSignInNeeded // the browser never came back
	}
	st := &domain.AuthStatus{
		State:       state,
		Detail:      s.detail,
		MoreAccess:  s.moreAccess,
		KeySource:   m.opts.KeySource,
		RedirectURI: m.redirect,
	}
	if s.md != nil {
		st.Issuer = s.md.Issuer
	}
	switch {
	case s.moreAccess:
		st.Scopes, _ = union(s.grantedScopes(), s.wanted)
	case s.tok != nil:
		st.Scopes = slices.Clone(s.tok.Scopes)
	case s.challenge != nil:
		st.Scopes = slices.Clone(s.challenge.Scopes)
	}
	if s.tok != nil {
		st.ExpiresAt = s.tok.Expiry
	}
	return st
}

// waitingLocked reports whether a sign-in of name waits for its callback;
// m.mu is held.
func (m *Manager) waitingLocked(name string) bool {
	now := m.opts.Clock.Now()
	for _, f := range m.flows {
		if f.server == name && now.Before(f.expires) {
			return true
		}
	}
	return false
}

// grantedScopes are the scopes the current token carries.
func (s *server) grantedScopes() []string {
	if s.tok == nil {
		return nil
	}
	return s.tok.Scopes
}

// changed tells OnChange about name, off the caller's goroutine so that
// the listener may call back into the manager or the fleet freely.
func (m *Manager) changed(name string) {
	if m.opts.OnChange != nil {
		go m.opts.OnChange(name)
	}
}

// serverLocked returns the entry for name, creating it; m.mu is held.
func (m *Manager) serverLocked(name string) *server {
	s := m.servers[name]
	if s == nil {
		s = &server{name: name, state: domain.AuthSignInNeeded}
		m.servers[name] = s
	}
	return s
}

// setState moves s to state with detail; m.mu is held. It reports whether
// anything visible changed.
func (s *server) setState(state domain.AuthState, detail string) bool {
	if s.state == state && s.detail == detail {
		return false
	}
	s.state, s.detail = state, detail
	return true
}

// noteDroppedLocked logs, once per server, that scopes from where were
// left out (too many, too long, or not scope tokens); m.mu is held.
func (m *Manager) noteDroppedLocked(s *server, where string, dropped int) {
	if dropped == 0 || s.scopesCapped {
		return
	}
	s.scopesCapped = true
	m.opts.Log.Warn("scopes left out", "server", s.name, "from", where, "dropped", dropped,
		"max_scopes", maxScopes, "max_scope_bytes", maxScopeLen)
}

// detailOf is an error in words safe to show: the redactor removes any
// token or secret that an authorization server echoed back.
func detailOf(err error) string {
	if err == nil {
		return ""
	}
	return domain.NewRedactor().Redact(err.Error())
}

// background is the context for work that must not end with the request
// that started it, such as saving a rotated refresh token.
func background() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 30*time.Second)
}
