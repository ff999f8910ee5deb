package views

import (
	"context"
	"strconv"
)

// resourceReadURL is where a resource's Read button loads its contents.
func resourceReadURL(ctx context.Context, server, uri string) string {
	if f := LinksFrom(ctx).ResourceRead; f != nil {
		return f(server, uri)
	}
	return ""
}

// promptGetURL is where a prompt's Get button loads its form (GET) or,
// for a prompt without arguments, its messages (POST).
func promptGetURL(ctx context.Context, server, prompt string) string {
	if f := LinksFrom(ctx).PromptGet; f != nil {
		return f(server, prompt)
	}
	return ""
}

// templateFormURL is where a resource template's Read button loads the
// form that fills its variables.
func templateFormURL(ctx context.Context, server, template string) string {
	if f := LinksFrom(ctx).TemplateForm; f != nil {
		return f(server, template)
	}
	return ""
}

// templatePanelID is the region under template i of a server where its
// form and the resource it names appear.
func templatePanelID(server string, i int) string {
	return "template-panel-" + ServerKey(server) + "-" + strconv.Itoa(i)
}

// PromptKey makes the ids of one prompt's form and answer unique in the
// page, whatever characters the server and prompt names hold.
func PromptKey(server, prompt string) string { return ServerKey(server) + "-" + ServerKey(prompt) }

// resourcePanelID is the region under resource i of a server where its
// contents appear.
func resourcePanelID(server string, i int) string {
	return "resource-panel-" + ServerKey(server) + "-" + strconv.Itoa(i)
}

// promptPanelID is the region under a prompt where its form or messages
// appear.
func promptPanelID(server, prompt string) string { return "prompt-panel-" + PromptKey(server, prompt) }

// roleClass is the CSS class suffix of a message's role: one of two known
// roles, so a server's text never becomes a class.
func roleClass(roleID string) string {
	switch roleID {
	case "CapsRoleUser":
		return "user"
	case "CapsRoleAssistant":
		return "assistant"
	}
	return "other"
}
