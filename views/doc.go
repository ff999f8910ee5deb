// Package views renders the dashboard with templ: the page, the server
// chips and list, the drawer and its parts, tool call cards, the run form,
// dialogs, toasts and the Connect and sign-in pages. Each UI piece is one
// .templ file (its generated _templ.go is committed) beside a _props.go
// file holding its Props struct and the pure constructor that builds it
// from domain values, table-tested without a browser.
//
// Templates never fetch or decide: handlers call the constructors and pass
// the props in. Every component carries a data-testid, and every string a
// person reads comes from locales by message id (Message), so nothing here
// speaks English on its own; untrusted text reaches the page only through
// templ's escaping, or through the sanitizer for Markdown. URLs come from
// handlers' route table through Links in the context, never spelled here.
// A component that the page stream pushes takes an OOB flag and swaps out
// of band by element id (oobAttrs, ServerKey).
//
// The package imports domain and locales, never echo, handlers, a
// database or the MCP client; TestViewsNeverSeeHTTPOrSQL keeps it so.
package views
