// Package handlers is Switchboard's HTTP edge over echo: the JSON API
// under /api/v1, its event stream, the dashboard's pages, forms and
// out-of-band event stream under /ui, the sign-in page and OAuth callback,
// and the mount point of the MCP gateway that AI clients call.
//
// Every URL is spelled once, in routes.go, and New puts the guards in
// front of all of them: the Host and Origin checks and frame policy
// (security.go), the access token or session cookie (auth.go, signin.go),
// gzip for everything but event streams (compress.go).
//
// A handler parses the request, calls the domain and renders; it decides
// nothing the domain could. The API answers JSON; the dashboard's handlers
// render views components in the person's language (locales) and answer
// htmx swaps. A handler returns its error: errors.go maps each domain
// error to a status, a stable code and a message id, and logs it once.
// A failed dashboard action answers with a toast instead (drawer_toast.go).
// Time comes from Options, so tests drive it.
//
// The package imports domain, views, locales and static, never an adapter:
// what it needs of one (the MCP gateway, a schema validator) it takes as
// an interface in Options, and cmd/switchboard wires the real thing in.
// Files are named after the resource or page they serve.
package handlers
