package static

// Bundle is one file a page loads: sources joined in order (and minified
// when Minify is set) under Name, whose extension gives its type.
type Bundle struct {
	Name    string
	Sources []string
	// Minify is false for vendored files, which ship minified already and
	// must stay byte for byte what their version names.
	Minify bool
}

// Bundle names the pages ask for.
const (
	DashboardCSS = "dashboard.css"
	DashboardJS  = "dashboard.js"
	WorkbenchJS  = "workbench.js"
	WorkbenchCSS = "workbench.css"
	SignInCSS    = "signin.css"
	OAuthCSS     = "oauth.css"
	ConnectCSS   = "connect.css"
	ConnectJS    = "connect.js"
	HTMX         = "htmx-2.0.11.min.js"
	HTMXSSE      = "htmx-ext-sse-2.2.4.js"
)

// Bundles returns every file the pages load. A page's stylesheets join
// into one file and its scripts into another, in the order the separate
// files were loaded before, so a later rule still wins and a script still
// finds what an earlier one set up; htmx and its extension stay apart, so
// they stay cached across releases that change only our own code. The
// drawer's scripts and the stylesheets of the drawer and of a call's card
// wait for the first drawer or card (js/workbench-loader.js), which keeps
// the first load under 40 KB gzipped. The workbench stylesheet is added
// after the page's, so its rules come last in the cascade: each of them
// must win or lose by specificity alone, never by losing to a later rule of
// the page's (the controls both use live in css/controls.css and
// css/call-parts.css, in the page's).
func Bundles() []Bundle {
	base := []string{"css/app.css", "css/themes.css", "css/signin.css"}
	return []Bundle{
		{Name: DashboardCSS, Minify: true, Sources: []string{
			"css/app.css", "css/controls.css", "css/call-parts.css", "css/themes.css",
			"css/approval.css", "css/auth.css", "css/header.css", "css/servers.css", "css/calls.css",
			"css/charts.css"}},
		// What only an open drawer or card uses, loaded with the first one.
		{Name: WorkbenchCSS, Minify: true, Sources: []string{
			"css/drawer.css", "css/cards.css", "css/run.css", "css/results.css", "css/caps.css"}},
		{Name: DashboardJS, Minify: true, Sources: []string{
			"js/app.js", "js/toast.js", "js/approval.js", "js/header.js", "js/calls.js", "js/workbench-loader.js"}},
		// What only an open drawer or card uses, loaded with the first one;
		// the cards' scripts first, as they came before the drawer's.
		{Name: WorkbenchJS, Minify: true, Sources: []string{
			"js/cards.js", "js/elicitation.js", "js/drawer.js", "js/logs.js", "js/run.js", "js/caps.js"}},
		{Name: SignInCSS, Minify: true, Sources: base},
		{Name: OAuthCSS, Minify: true, Sources: append(base[:len(base):len(base)], "css/auth.css")},
		{Name: ConnectCSS, Minify: true, Sources: []string{"css/app.css", "css/themes.css", "css/connect.css"}},
		{Name: ConnectJS, Minify: true, Sources: []string{"js/connect.js"}},
		{Name: HTMX, Sources: []string{"js/htmx-2.0.11.min.js"}},
		{Name: HTMXSSE, Sources: []string{"js/htmx-ext-sse-2.2.4.js"}},
	}
}
