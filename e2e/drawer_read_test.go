//go:build e2e

package e2e

import (
	"strings"
	"testing"
)

// TestDrawerReadAndGet: a resource's Read shows its Markdown rendered
// under it and Close gives focus back; a prompt's Get opens its argument
// form, whose fields offer the server's completions, and shows the
// messages with their roles. Both views pass axe.
func TestDrawerReadAndGet(t *testing.T) {
	in := startWith(t, servers{"demo": demoStdio("demo", nil), "everything": everythingStdio(t)})
	in.waitState(t, "demo", "connected")
	in.waitState(t, "everything", "connected")
	page := open(t, in)
	waitAllChips(t, page, "demo", "connected")

	// Read: demo://readme, Markdown.
	demo := drawerSel("demo")
	openDrawer(t, page, "demo")
	click(t, page, demo+` details[data-testid="caps-resources"] > summary`)
	read := demo + ` [data-testid="resource-read"][data-resource="demo://readme"]`
	click(t, page, read)
	result := demo + ` [data-testid="resource-read-result"]`
	waitVisible(t, page, result, "the readme's contents under its Read button")
	if got := squash(text(t, page, result+` [data-testid="content-text"]`)); !strings.HasPrefix(got, "Switchboard demo server") {
		t.Errorf("contents: got %q, want the readme rendered", got)
	}
	checkAxe(t, page, "resource read")
	click(t, page, result+` [data-testid="caps-close"]`)
	waitGone(t, page, result, "Close removes the contents")
	if got := attr(t, page, ":focus", "data-resource"); got != "demo://readme" {
		t.Errorf("focus after Close: got the element of resource %q, want the readme's Read button", got)
	}

	// A template's Read fills its variables, here on a phone-sized screen
	// where the answer must not widen the drawer.
	if err := page.SetViewportSize(390, 844); err != nil {
		t.Fatal(err)
	}
	click(t, page, demo+` details[data-testid="caps-templates"] > summary`)
	click(t, page, demo+` [data-testid="template-read"][data-template="demo://notes/{id}"]`)
	tform := demo + ` [data-testid="template-panel"] [data-testid="prompt-form"]`
	waitVisible(t, page, tform, "the template's form")
	if err := page.Locator(tform + ` [data-arg="id"] input`).Fill("welcome"); err != nil {
		t.Fatal(err)
	}
	click(t, page, tform+` [data-testid="prompt-get-submit"]`)
	waitVisible(t, page, demo+` [data-testid="template-panel"] [data-testid="resource-read-result"]`, "the welcome note")
	var culprits []string
	evalJSON(t, page, `sel => { const d = document.querySelector(sel), r = d.getBoundingClientRect();
		const mine = [...d.querySelectorAll('[data-caps-panel] *, .caps-list > li > .cap-line *')];
		return JSON.stringify(mine.filter(el => el.getBoundingClientRect().right > Math.min(r.right, window.innerWidth) + 1)
			.slice(0, 8).map(el => el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(el.getBoundingClientRect().right))); }`, demo, &culprits)
	if len(culprits) > 0 {
		t.Errorf("at 390 px these reach past the drawer's edge: %q", culprits)
	}
	checkAxe(t, page, "template read at 390 px")

	// Get: server-everything's completable-prompt, with completions, on a
	// page of its own (the demo row's tooltip would cover the next chip).
	page = open(t, in)
	waitAllChips(t, page, "everything", "connected")
	ev := drawerSel("everything")
	openDrawer(t, page, "everything")
	click(t, page, ev+` details[data-testid="caps-prompts"] > summary`)
	click(t, page, ev+` [data-testid="prompt-get"][data-prompt="completable-prompt"]`)
	form := ev + ` [data-testid="prompt-form"]`
	waitVisible(t, page, form, "the argument form")
	dept := form + ` [data-arg="department"] input`
	if err := page.Locator(dept).Fill("S"); err != nil {
		t.Fatalf("type a department: %v", err)
	}
	var opts []string
	waitTrue(t, page, `sel => { const i = document.querySelector(sel); return i && i.list && i.list.options.length === 2; }`,
		dept, "the department's completions arrive")
	evalJSON(t, page, `sel => JSON.stringify([...document.querySelector(sel).list.options].map(o => o.value))`, dept, &opts)
	if strings.Join(opts, ",") != "Sales,Support" {
		t.Errorf("completions: got %q, want Sales, Support", opts)
	}
	if err := page.Locator(dept).Fill("Sales"); err != nil {
		t.Fatal(err)
	}
	if err := page.Locator(form + ` [data-arg="name"] input`).Fill("Eve"); err != nil {
		t.Fatal(err)
	}
	click(t, page, form+` [data-testid="prompt-get-submit"]`)
	msg := ev + ` [data-testid="prompt-message"]`
	waitVisible(t, page, msg, "the prompt's messages")
	if got := squash(text(t, page, msg+` [data-testid="prompt-role"]`)); got == "" {
		t.Error("the message's role is not written out")
	}
	if got := squash(text(t, page, msg+` [data-testid="content-text"]`)); !strings.Contains(got, "Eve") || !strings.Contains(got, "Sales") {
		t.Errorf("message: got %q, want it to name Eve of Sales", got)
	}
	checkAxe(t, page, "prompt messages")

	// A refusal is a message in words where the answer would have been.
	if err := page.Locator(dept).Fill(""); err != nil {
		t.Fatal(err)
	}
	if _, err := page.Locator(form).Evaluate(`f => f.noValidate = true`, nil); err != nil {
		t.Fatal(err)
	}
	click(t, page, form+` [data-testid="prompt-get-submit"]`)
	alert := ev + ` [data-testid="prompt-result"] [data-testid="caps-error"][role="alert"]`
	waitVisible(t, page, alert, "the refusal of an empty required argument")
	if got := squash(text(t, page, alert)); !strings.Contains(got, "department") {
		t.Errorf("refusal: got %q, want it to name the department", got)
	}
}
