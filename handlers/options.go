package handlers

import (
	"fmt"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/locales"
	"github.com/switchboard-mcp/switchboard/views"
)

// DefaultHeartbeat keeps idle event streams alive through proxies that
// close silent connections, without waking clients needlessly.
const DefaultHeartbeat = 15 * time.Second

// Options carries everything the handlers need from outside; the zero
// value of each optional field has a sensible default.
type Options struct {
	Fleet     *domain.Fleet // required
	Log       *slog.Logger  // nil discards
	Heartbeat time.Duration // idle time before an event stream sends a ping; 0 means DefaultHeartbeat
	// Done is closed at shutdown to end event streams, which would
	// otherwise keep http.Server.Shutdown waiting forever.
	Done <-chan struct{}
	// AllowedHosts are the Host values, beside loopback names, that the
	// server answers to: the listening host:port and the bare host.
	AllowedHosts []string
	// Scope is whose servers and invocations these are (until accounts
	// exist: domain.LocalUser and the project directory).
	Scope domain.Scope
	// Invocations runs and records tool calls; nil serves no tool routes.
	Invocations *domain.Invocations
	// Validator checks elicitation answers against the schema the server
	// asked with; nil skips that check.
	Validator domain.SchemaValidator
	// Approvals answers project servers' approval questions; nil when
	// --demo forced the demo.
	Approvals *domain.Approvals
	// Config reloads the settings files; nil when --demo forced the demo.
	// A demo started for want of a settings file has one, which ends the
	// demo once the file appears.
	Config *domain.Reloader
	// Preferences keeps each user's theme and language; nil keeps none.
	Preferences domain.PreferenceStore
	// ClientTokens are the named tokens that open the MCP endpoints only;
	// nil accepts none and hides their management.
	ClientTokens *domain.ClientTokens
	// ClientConfigs reads and edits the AI clients' own config files for
	// the Connect page; nil leaves the page to snippets.
	ClientConfigs ClientConfigFiles
	// SignIns runs OAuth sign-ins for remote servers; nil: no server uses sign-in.
	SignIns domain.SignIns
	// Elicitations holds servers' questions to the person; nil serves no
	// elicitation routes.
	Elicitations *domain.Elicitations
	// ServerLogs keeps servers' log messages for their drawers and asks
	// servers for a level; nil shows no log messages.
	ServerLogs *domain.ServerLogs
	// History holds servers' state changes and probe samples for the
	// uptime strip and latency sparklines; nil draws no history.
	History *domain.History
	// CallStats counts stored calls per minute for the calls chart; nil
	// draws no chart.
	CallStats domain.CallStats
	// Gateway serves MCP to AI clients at PathMCP; nil serves none.
	Gateway MCPGateway
	// Catalog translates the dashboard; nil loads the embedded one.
	Catalog *locales.Catalog
	// Demo says whether the built-in demo servers ran at start, for the
	// dashboard's notice; while Config's state says Demo, they still do.
	Demo views.DemoProps
	// Token is the access token every route but the public ones requires
	// (required, at least MinTokenLength characters): as a bearer
	// credential, or exchanged once for the dashboard's session cookie.
	Token string
	// TokenCommand is the command a person runs to print the token, shown
	// on the sign-in page.
	TokenCommand string
	// FrameAncestors are the origins allowed to frame the dashboard; empty
	// forbids framing altogether.
	FrameAncestors []string
	// Now is the handlers' only source of the time — session expiry, the
	// dashboard's relative times, log messages' ages — so tests can fix
	// it; nil means time.Now.
	Now func() time.Time
}

func (o Options) withDefaults() Options {
	if o.Fleet == nil {
		panic("handlers: Options.Fleet is nil")
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Catalog == nil {
		c, err := locales.Load()
		if err != nil {
			panic(fmt.Sprintf("handlers: load the embedded message catalogues: %v", err))
		}
		o.Catalog = c
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.TokenCommand == "" {
		o.TokenCommand = "switchboard token"
	}
	return o
}

// New returns the configured echo instance: routes, the JSON error
// renderer and the host and origin guards. Echo's own loggers are routed
// to opts.Log so that nothing is written to stdout, which the CLI owns.
func New(opts Options) *echo.Echo {
	opts = opts.withDefaults()
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.Logger.SetOutput(slog.NewLogLogger(opts.Log.Handler(), slog.LevelError).Writer())
	e.StdLogger = slog.NewLogLogger(opts.Log.Handler(), slog.LevelError)
	e.HTTPErrorHandler = renderError(opts.Log)
	e.Pre(guard(newHostPolicy(opts.AllowedHosts), opts.FrameAncestors))
	auth := newAuthenticator(opts.Token, opts.Now)
	auth.clients = clientVerifier(opts.ClientTokens)
	signIn := &signInPage{auth: auth, prefs: newPreferences(opts), command: opts.TokenCommand}
	e.Pre(requireToken(auth, signIn.showInPlace))
	e.Use(compress())
	register(e, opts, signIn)
	return e
}
