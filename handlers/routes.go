package handlers

import (
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/views"
)

// Every URL path Switchboard serves is spelled here once, so handlers,
// tests and the CLI cannot drift apart.
const (
	PathHealth         = "/healthz"
	PathServers        = "/api/v1/servers"
	PathServer         = PathServers + "/:" + nameParam
	PathServerRestart  = PathServer + "/restart"
	PathServerDisable  = PathServer + "/disable"
	PathServerEnable   = PathServer + "/enable"
	PathServerSettings = PathServer + "/settings"
	PathServerApprove  = PathServer + "/approve"
	PathServerReject   = PathServer + "/reject"
	PathEvents         = "/api/v1/events"
	PathConfig         = "/api/v1/config"
	PathConfigReload   = PathConfig + "/reload"

	// The dashboard: the page, its HTML event stream, and the fragment and
	// form endpoints htmx calls. Actions answer with HTML (or nothing), in
	// the person's language, unlike the JSON API above.
	PathDashboard     = "/"
	PathPageEvents    = "/events"
	PathUIPreferences = "/ui/preferences"
	PathUIServer      = "/ui/servers/:" + nameParam
	PathUIDrawer      = PathUIServer + "/drawer"
	PathUIRestart     = PathUIServer + "/restart"
	PathUIDisable     = PathUIServer + "/disable"
	PathUIEnable      = PathUIServer + "/enable"
	PathUISettings    = PathUIServer + "/settings"
	PathUIRemove      = PathUIServer + "/remove" // GET: the confirmation dialog; POST: remove
	PathUIApprove     = PathUIServer + "/approve"
	PathUIReject      = PathUIServer + "/reject"

	// Tool invocations: the JSON API, then the dashboard's fragments.
	PathToolCall         = PathServer + "/tools/:" + toolParam + "/call"
	PathInvocations      = "/api/v1/invocations"
	PathInvocation       = PathInvocations + "/:" + idParam
	PathInvocationCancel = PathInvocation + "/cancel"
	PathInvocationRetry  = PathInvocation + "/retry"

	// Reads that answer at once with the server's result: a resource
	// (GET ?uri=), a prompt with its arguments, an argument's completions.
	PathResourceRead = PathServer + "/resources/read"
	PathPromptGet    = PathServer + "/prompts/:" + promptParam + "/get"
	PathComplete     = PathServer + "/complete"

	// The drawer's Read and Get: HTML fragments over the same reads.
	PathUIResourceRead     = PathUIServer + "/resources/read"                        // GET ?uri=: the contents, rendered
	PathUIPromptGet        = PathUIServer + "/prompts/:" + promptParam               // GET: the argument form; POST: the messages
	PathUIPromptComplete   = PathUIServer + "/prompts/:" + promptParam + "/complete" // GET ?complete=arg&arg.x=…: <option>s
	PathUITemplate         = PathUIServer + "/templates"                             // GET ?template=: the form that fills its variables
	PathUITemplateRead     = PathUITemplate + "/read"                                // POST ?template= with arg.<var>=…: the resource, rendered
	PathUITemplateComplete = PathUITemplate + "/complete"                            // GET ?template=&complete=var&arg.x=…: <option>s

	PathUIRunForm         = PathUIServer + "/tools/:" + toolParam + "/run" // GET: the form (?from=<invocation id>: filled with that call's arguments); POST: start the call
	PathUIInvocation      = "/ui/invocations/:" + idParam                  // GET: one card, or ?item=N one content item in full
	PathUIInvocationCopy  = PathUIInvocation + "/copy"                     // GET ?part=arguments|result: the full text, for the clipboard
	PathUIInvocationRead  = PathUIInvocation + "/read"                     // GET ?uri=: a linked resource's preview
	PathUIInvocationMedia = PathUIInvocation + "/media"                    // GET ?item=N: an image, audio or blob item's bytes
	PathUIInvocationRetry = PathUIInvocation + "/retry"
	PathUIInvocationStop  = PathUIInvocation + "/stop"
	PathUIHistory         = "/ui/history"                     // ?view=drawer&server=: a server's recent calls, for its drawer
	PathUICalls           = "/ui/calls"                       // GET ?before=id and the page's filters: the call list's older rows
	PathUICallCard        = "/ui/calls/:" + idParam + "/card" // GET: a call's card, opened from its row

	// PathSignIn is the sign-in page (GET) and form (POST): the one page
	// served without the access token.
	PathSignIn = "/signin"

	// The MCP gateway for AI clients: every server aggregated, and one
	// server under its own names. A bearer token only (mcpRoot, auth.go).
	PathMCP       = mcpRoot
	PathMCPServer = PathMCP + "/:" + nameParam

	// PathStatic holds the pages' stylesheets and scripts, each under a
	// content-hashed file name (AssetURL in static.go).
	PathStatic = "/static"
)

// Client tokens and the Connect page: the JSON API (owner's token only),
// the page, and its htmx forms.
const (
	PathClientTokens     = "/api/v1/client-tokens"
	PathClientToken      = PathClientTokens + "/:" + nameParam
	PathConnect          = "/connect"
	PathUIClientTokens   = "/ui/client-tokens"                               // POST: create one, answer the token once
	PathUIClientTokenDel = PathUIClientTokens + "/:" + nameParam + "/revoke" // POST: revoke
	PathUIConnectFile    = "/ui/connect/:" + clientParam                     // GET: a client's config file panel
	PathUIConnectReview  = PathUIConnectFile + "/review"                     // POST write=1&import=…, or undo=1: the confirmation
	PathUIConnectApply   = PathUIConnectFile + "/apply"                      // POST write=1&import=…: change the file
	PathUIConnectUndo    = PathUIConnectFile + "/undo"                       // POST: restore the newest backup
)

// Approvals and tool policies: the JSON API, then the dashboard's actions.
const (
	PathInvocationApprove   = PathInvocation + "/approve"
	PathInvocationDeny      = PathInvocation + "/deny"
	PathToolPolicy          = PathServer + "/tools/:" + toolParam + "/policy" // PUT {"policy": ...}
	PathServerPolicy        = PathServer + "/policy"                          // PUT {"askAll": ...}
	PathUIInvocationApprove = PathUIInvocation + "/approve"
	PathUIInvocationDeny    = PathUIInvocation + "/deny"
	PathUIToolPolicy        = PathUIServer + "/tools/:" + toolParam + "/policy" // PUT form policy=...
	PathUIServerPolicy      = PathUIServer + "/policy"                          // PUT form askAll=true, or nothing for off
)

// Sign-in to remote servers (OAuth): the JSON API, the callback
// the authorization server sends the browser back to (public: the single-use
// state protects it), and the drawer's forms.
const (
	PathServerAuthStart    = PathServer + "/auth/start"    // POST → {"authorizationUrl"}
	PathServerAuthSignOut  = PathServer + "/auth/signout"  // POST → 204
	PathServerAuthComplete = PathServer + "/auth/complete" // POST {"callbackUrl"}: an address a person pasted
	PathServerAuthClient   = PathServer + "/auth/client"   // POST {"clientId","clientSecret"}
	PathOAuthCallback      = "/oauth/callback"
	PathUIAuthStart        = PathUIServer + "/auth/start" // POST from a form in a new tab: the way to the authorization server
	PathUIAuthSignOut      = PathUIServer + "/auth/signout"
	PathUIAuthComplete     = PathUIServer + "/auth/complete"
	PathUIAuthClient       = PathUIServer + "/auth/client"
)

// Servers' questions to the person (elicitation): the JSON API,
// then the dashboard's form and the drawer's list of questions of no call.
const (
	PathElicitations         = "/api/v1/elicitations"
	PathElicitation          = PathElicitations + "/:" + idParam // POST {"action","content"}
	PathUIElicitation        = "/ui/elicitations/:" + idParam    // POST: the form's answer
	PathUIServerElicitations = PathUIServer + "/elicitations"    // GET: the drawer's questions of no call
)

// Servers' log messages (notifications/message): the JSON API, then the
// drawer's level selector.
const (
	PathServerLogs     = PathServer + "/logs"         // GET: the kept messages and the level
	PathServerLogLevel = PathServerLogs + "/level"    // PUT {"level"}: ask the server for it
	PathUILogLevel     = PathUIServer + "/logs/level" // POST form level=...
)

// The pictures (charts.go): a server's history section for its drawer, and
// the calls-per-minute chart for the page's filters.
const (
	PathUIServerHistory = PathUIServer + "/history" // GET: the uptime strip and latency sparklines
	PathUICallsChart    = "/ui/charts/calls"        // GET ?server=&source=: the chart, bars linking to the list
)

const (
	nameParam   = "name"
	toolParam   = "tool"
	promptParam = "prompt"
	idParam     = "id"
	partParam   = "part"
	clientParam = "client"
)

// ServerPath fills pattern's server name with name, escaped, so that a name
// holding "/" or a space still reaches its own route.
func ServerPath(pattern, name string) string {
	return strings.Replace(pattern, ":"+nameParam, url.PathEscape(name), 1)
}

// viewLinks are the URLs templates need beyond their props; the handlers
// put them in each render's context.
var viewLinks = views.Links{History: PathUIHistory, RunForm: RunFormPath, Connect: PathConnect,
	Elicitations: func(server string) string { return ServerPath(PathUIServerElicitations, server) },
	SignIn:       func(server string) string { return ServerPath(PathUIAuthStart, server) },
	ResourceRead: UIResourceReadPath, PromptGet: UIPromptGetPath, TemplateForm: UITemplatePath}

// register adds every route. It is the one route table of the binary.
func register(e *echo.Echo, opts Options, signIn *signInPage) {
	servers := &serversAPI{fleet: opts.Fleet, policies: policiesOf(opts), scope: opts.Scope, log: opts.Log}
	events := &eventsAPI{hub: opts.Fleet.Hub(), heartbeat: opts.Heartbeat, done: opts.Done, config: opts.Config}
	config := &configAPI{reloader: opts.Config}

	e.GET(PathHealth, health)
	e.GET(PathSignIn, signIn.show)
	e.POST(PathSignIn, signIn.submit)

	e.GET(PathServers, servers.list)
	e.GET(PathServer, servers.get)
	e.DELETE(PathServer, servers.remove)
	e.POST(PathServerRestart, servers.restart)
	e.POST(PathServerDisable, servers.disable)
	e.POST(PathServerEnable, servers.enable)
	e.PATCH(PathServerSettings, servers.updateSettings)
	approvals := &approvalsAPI{approvals: opts.Approvals}
	e.POST(PathServerApprove, approvals.approve)
	e.POST(PathServerReject, approvals.reject)

	e.GET(PathEvents, events.stream)
	e.GET(PathConfig, config.get)
	e.POST(PathConfigReload, config.reload)

	e.GET(PathStatic+"/*", staticFiles())

	// The dashboard, its event stream and the preferences form.
	prefs := signIn.prefs
	dashboard := &dashboardPage{fleet: opts.Fleet, config: opts.Config, prefs: prefs, demo: opts.Demo, now: opts.Now}
	pageStream := &pageEvents{hub: opts.Fleet.Hub(), config: opts.Config, demo: opts.Demo, prefs: prefs, heartbeat: opts.Heartbeat, done: opts.Done, now: opts.Now,
		elicitations: opts.Elicitations}
	e.GET(PathDashboard, dashboard.show)
	e.GET(PathPageEvents, pageStream.stream)
	e.POST(PathUIPreferences, prefs.save)

	// The drawer and its actions; a failure answers with a toast, not an error page.
	drawer := &drawerUI{fleet: opts.Fleet, prefs: prefs, log: opts.Log, policies: policiesOf(opts), scope: opts.Scope, gateway: opts.Gateway}
	e.GET(PathUIDrawer, drawer.withToast("ToastDrawerFailed", drawer.show))
	e.POST(PathUIRestart, drawer.withToast("ToastRestartFailed", drawer.restart))
	e.POST(PathUIDisable, drawer.withToast("ToastDisableFailed", drawer.disable))
	e.POST(PathUIEnable, drawer.withToast("ToastEnableFailed", drawer.enable))
	e.POST(PathUISettings, drawer.withToast("ToastSaveSettingsFailed", drawer.saveSettings))
	e.GET(PathUIRemove, drawer.withToast("ToastRemoveFailed", drawer.confirmRemove))
	e.POST(PathUIRemove, drawer.withToast("ToastRemoveFailed", drawer.remove))

	// Tool calls: the JSON API and the dashboard's cards, which share one feed
	// so the API's /events stream and the page's stream see the same calls.
	cards := &cardRenderer{fleet: opts.Fleet, elicitations: opts.Elicitations}
	invFeed := newInvocationFeed(opts, cards)
	events.invocations, pageStream.cards = invFeed, invFeed
	if opts.Invocations != nil {
		api := &invocationsAPI{svc: opts.Invocations, scope: opts.Scope}
		e.POST(PathToolCall, api.call)
		e.GET(PathInvocations, api.list)
		e.GET(PathInvocation, api.get)
		e.POST(PathInvocationCancel, api.cancel)
		e.POST(PathInvocationRetry, api.retry)
		ui := &invocationUI{svc: opts.Invocations, cards: cards, scope: opts.Scope, prefs: prefs}
		e.GET(PathUIInvocation, ui.card)
		e.GET(PathUIInvocationCopy, ui.copyText)
		e.GET(PathUIInvocationRead, ui.read)
		e.GET(PathUIInvocationMedia, ui.media)
		e.POST(PathUIInvocationRetry, ui.retry)
		e.POST(PathUIInvocationStop, ui.stop)
		e.GET(PathUIHistory, ui.history)
		e.GET(PathUICalls, ui.olderCalls)
		e.GET(PathUICallCard, ui.callCard)
	}

	// Resources, prompts and completions: reads that pass straight to a server.
	reads := &readAPI{fleet: opts.Fleet}
	e.GET(PathResourceRead, reads.readResource)
	e.POST(PathPromptGet, reads.getPrompt)
	e.POST(PathComplete, reads.complete)
	registerReadUI(e, opts, prefs)

	// The run form that starts a tool call from the drawer.
	if opts.Invocations != nil {
		run := &runForm{invocations: opts.Invocations, scope: opts.Scope, ui: drawer}
		e.GET(PathUIRunForm, run.withToast(run.show))
		e.POST(PathUIRunForm, run.withToast(run.submit))
	}

	// Approval of servers a project's config file declares (the dialog's buttons).
	approval := &approvalUI{approvals: opts.Approvals, ui: drawer}
	e.POST(PathUIApprove, drawer.withToast("ToastApproveFailed", approval.approve))
	e.POST(PathUIReject, drawer.withToast("ToastRejectFailed", approval.reject))

	// The MCP gateway that AI clients connect to: all servers at once, or one.
	if opts.Gateway != nil {
		mcp := &mcpMount{gateway: opts.Gateway, hosts: newHostPolicy(opts.AllowedHosts)}
		e.Any(PathMCP, mcp.aggregated)
		e.Any(PathMCPServer, mcp.server)
	}

	// Sign-in to remote servers (OAuth).
	registerSignIns(e, opts, drawer)

	// Servers' questions to the person (elicitation).
	registerElicitations(e, opts, prefs)

	// Servers' log messages.
	registerServerLogs(e, opts, drawer, pageStream)

	// The pictures: uptime, latency and calls per minute.
	registerCharts(e, opts, prefs, pageStream)

	// Client tokens and the Connect page.
	registerConnect(e, opts, signIn.prefs)

	// Calls held for approval, and the per-tool policies that hold them.
	if opts.Invocations != nil {
		api := &invocationsAPI{svc: opts.Invocations, scope: opts.Scope}
		e.POST(PathInvocationApprove, api.approve)
		e.POST(PathInvocationDeny, api.deny)
		ui := &invocationUI{svc: opts.Invocations, scope: opts.Scope, prefs: prefs}
		e.POST(PathUIInvocationApprove, ui.approve)
		e.POST(PathUIInvocationDeny, ui.deny)
	}
	if p := policiesOf(opts); p != nil {
		policies := &policyAPI{policies: p, fleet: opts.Fleet, scope: opts.Scope, gateway: opts.Gateway}
		e.PUT(PathToolPolicy, policies.setTool)
		e.PUT(PathServerPolicy, policies.setServer)
		e.PUT(PathUIToolPolicy, drawer.withToast("ToastPolicyFailed", drawer.setToolPolicy))
		e.PUT(PathUIServerPolicy, drawer.withToast("ToastAskAllFailed", drawer.setAskAll))
	}
}
