package views

import (
	"context"
	"net/url"
)

// Links are the URLs templates need beyond their props. Handlers own the
// route table (handlers/routes.go spells every URL once) and put these in
// the request context, so no template or props constructor spells a path.
type Links struct {
	History string
	RunForm func(server, tool string) string
	Connect string // the Connect page, linked from the header
	// Elicitations is where a server's drawer loads the questions that
	// belong to no call; nil shows none.
	Elicitations func(server string) string
	// SignIn is where a chip's Sign in form posts, the drawer's Sign in
	// URL; nil offers none.
	SignIn func(server string) string
	// ResourceRead, PromptGet and TemplateForm are where the drawer's
	// Read and Get buttons load a resource's contents, a prompt's form
	// and a resource template's form from.
	ResourceRead func(server, uri string) string
	PromptGet    func(server, prompt string) string
	TemplateForm func(server, template string) string
}

type linksKey struct{}

// WithLinks returns ctx carrying l for the templates rendered with it.
func WithLinks(ctx context.Context, l Links) context.Context {
	return context.WithValue(ctx, linksKey{}, l)
}

// LinksFrom returns the request's links; the zero Links renders empty
// URLs, which tests of pure markup may accept.
func LinksFrom(ctx context.Context) Links {
	l, _ := ctx.Value(linksKey{}).(Links)
	return l
}

// runFormURL is where a tool's Run button loads its form from.
func runFormURL(ctx context.Context, server, tool string) string {
	if f := LinksFrom(ctx).RunForm; f != nil {
		return f(server, tool)
	}
	return ""
}

// drawerHistoryURL is the history filtered to one server, for its drawer.
func drawerHistoryURL(ctx context.Context, server string) string {
	return LinksFrom(ctx).History + "?view=drawer&server=" + url.QueryEscape(server)
}
