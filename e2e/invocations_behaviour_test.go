//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	playwright "github.com/mxschmitt/playwright-go"
)

// TestInvocationCancel: a slow long_task is cancelled by the card's
// Cancel button, and another through the API; both cards end cancelled.
func TestInvocationCancel(t *testing.T) {
	in := startWith(t, servers{"alpha": demoStdio("alpha", map[string]any{"callTimeoutSeconds": 600})})
	in.waitState(t, "alpha", "connected")
	invs := followInvocations(t, in)
	page := openCards(t, in, playwright.BrowserNewContextOptions{})

	t.Run("button", func(t *testing.T) {
		inv := callTool(t, in, "alpha", "long_task", map[string]any{"steps": 100, "stepMillis": 2000})
		card := feedCard(inv.ID)
		waitCard(t, page, inv.ID, "running")
		cancel := card + ` [data-testid="invocation-cancel"]`
		waitVisible(t, page, cancel, "Cancel on the running card")
		click(t, page, cancel)
		waitCard(t, page, inv.ID, "cancelled")
		if got := text(t, page, card+` [data-testid="invocation-badge"]`); !strings.Contains(got, "Cancelled") {
			t.Errorf("badge: got %q, want ⊘ Cancelled", got)
		}
		if n := count(t, page, cancel); n != 0 {
			t.Errorf("a cancelled card still offers Cancel")
		}
		if n := count(t, page, card+` [data-testid="invocation-progress"]`); n != 0 {
			t.Errorf("a cancelled card still shows a progress bar")
		}
		if got := invs.waitFinal(t, inv.ID); got.Status != "cancelled" {
			t.Errorf("API: the invocation ended %s, want cancelled", got.Status)
		}
		var got invocation
		apiGet(t, in, "/api/v1/invocations/"+inv.ID, &got)
		if got.Status != "cancelled" {
			t.Errorf("GET invocation: status %q, want cancelled", got.Status)
		}
	})

	t.Run("api", func(t *testing.T) {
		inv := callTool(t, in, "alpha", "long_task", map[string]any{"steps": 100, "stepMillis": 2000})
		invs.waitStatus(t, inv.ID, "running")
		resp, err := http.Post(in.URL+"/api/v1/invocations/"+inv.ID+"/cancel", "application/json", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("POST cancel: got %s, want 200", resp.Status)
		}
		waitCard(t, page, inv.ID, "cancelled")
	})
}

// hostile is Markdown built to run script if any of it reached the DOM as
// HTML: raw script, an event handler, javascript: links (Markdown and
// raw), raw HTML blocks.
const hostile = "# Hostile\n\n" +
	"<script>window.__pwned=1; alert('script')</script>\n\n" +
	"<img src=x onerror=\"window.__pwned=2; alert('img')\">\n\n" +
	"[click](javascript:window.__pwned=3)\n\n" +
	"<a href=\"javascript:window.__pwned=5\">raw link</a>\n\n" +
	"<div onclick=\"window.__pwned=4\" onmouseover=\"window.__pwned=6\">raw html div</div>\n\n" +
	"<iframe src=\"javascript:window.__pwned=7\"></iframe>\n\n" +
	"<svg><script>window.__pwned=8</script></svg> <math><mtext><style><img src=x onerror=alert(9)></style></mtext></math>\n\n" +
	"<style>body{display:none}</style>\n\n" +
	"`<script>in code</script>` and [data](data:text/html,<script>alert(10)</script>)\n"

// TestInvocationHostileContent: a result full of script-bearing Markdown
// and HTML renders inert in the feed, the drawer and the history.
func TestInvocationHostileContent(t *testing.T) {
	in := demoOnly(t, "alpha")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	var mu sync.Mutex
	var dialogs, requests []string
	page.OnDialog(func(d playwright.Dialog) {
		mu.Lock()
		dialogs = append(dialogs, d.Type()+": "+d.Message())
		mu.Unlock()
		_ = d.Dismiss()
	})
	page.OnRequest(func(r playwright.Request) {
		mu.Lock()
		requests = append(requests, r.URL())
		mu.Unlock()
	})
	var consoleCSP []string
	page.OnConsole(func(m playwright.ConsoleMessage) {
		if strings.Contains(m.Text(), "Content Security Policy") {
			mu.Lock()
			consoleCSP = append(consoleCSP, m.Text())
			mu.Unlock()
		}
	})

	inv := callTool(t, in, "alpha", "echo", map[string]any{"message": hostile})
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")
	waitFor(t, page, card+` [data-testid="content-text"] h4`, "the hostile Markdown's heading renders")
	// Open everything that holds the text: arguments (JSON and form view),
	// the drawer's recent calls and the call list's row.
	click(t, page, card+` [data-testid="invocation-args"] > summary`)
	click(t, page, card+` [data-testid="invocation-args-view"]`)
	openDrawer(t, page, "alpha")
	waitFor(t, page, drawerSel("alpha")+` [data-testid="drawer-invocations"] [data-invocation="`+inv.ID+`"][data-status="success"]`,
		"the call in the drawer's recent calls")
	press(t, page, "Escape")
	waitHidden(t, page, drawerSel("alpha"), "the drawer closes")
	waitFor(t, page, callRow(inv.ID), "the call's row in the call list")
	// Hover and click the raw div's text, if it is there as text.
	if err := page.Locator(card + ` [data-testid="content-text"]`).Hover(); err != nil {
		t.Fatal(err)
	}
	if _, err := page.Evaluate(`() => fetch('/healthz').then(r => r.text())`); err != nil {
		t.Fatal(err) // a round trip, so a pending request or dialog surfaces first
	}

	type verdict struct {
		Pwned       any      `json:"pwned"`
		Scripts     []string `json:"scripts"`
		Handlers    []string `json:"handlers"`
		JSLinks     []string `json:"jsLinks"`
		DataLinks   []string `json:"dataLinks"`
		Frames      int      `json:"frames"`
		Styles      int      `json:"styles"`
		Images      []string `json:"images"`
		BodyShown   bool     `json:"bodyShown"`
		CodeLiteral bool     `json:"codeLiteral"`
	}
	var v verdict
	evalJSON(t, page, `() => {
		const roots = [...document.querySelectorAll('[data-testid="calls"], [data-testid="drawer-invocations"]')];
		const all = roots.flatMap(r => [r, ...r.querySelectorAll('*')]);
		const handlers = [];
		for (const el of all) for (const a of el.attributes) if (/^on/i.test(a.name)) handlers.push(el.tagName + '[' + a.name + ']');
		const q = s => roots.flatMap(r => [...r.querySelectorAll(s)]);
		return JSON.stringify({
			pwned: window.__pwned === undefined ? null : window.__pwned,
			scripts: q('script').map(s => s.outerHTML.slice(0, 80)),
			handlers,
			jsLinks: q('a[href^="javascript" i], [href*="javascript:" i], [src*="javascript:" i]').map(a => a.outerHTML.slice(0, 80)),
			dataLinks: q('a[href^="data:text/html" i]').map(a => a.outerHTML.slice(0, 80)),
			frames: q('iframe, object, embed').length,
			styles: q('style').length,
			images: q('[data-testid="content-text"] img').map(i => i.outerHTML.slice(0, 80)),
			bodyShown: getComputedStyle(document.body).display !== 'none',
			codeLiteral: q('[data-testid="content-text"] code').some(c => c.textContent.includes('<script>in code</script>')),
		});
	}`, nil, &v)
	if v.Pwned != nil {
		t.Errorf("window.__pwned = %v: hostile content ran script", v.Pwned)
	}
	if len(v.Scripts) > 0 {
		t.Errorf("<script> elements inside the feed/drawer: %q", v.Scripts)
	}
	if len(v.Handlers) > 0 {
		t.Errorf("elements with on* attributes inside the feed/drawer: %q", v.Handlers)
	}
	if len(v.JSLinks) > 0 {
		t.Errorf("javascript: URLs inside the feed/drawer: %q", v.JSLinks)
	}
	if len(v.DataLinks) > 0 {
		t.Errorf("data:text/html links inside the feed/drawer: %q", v.DataLinks)
	}
	if v.Frames > 0 {
		t.Errorf("%d iframe/object/embed elements inside the feed/drawer", v.Frames)
	}
	if v.Styles > 0 {
		t.Errorf("%d <style> elements inside the feed/drawer", v.Styles)
	}
	if len(v.Images) > 0 {
		t.Errorf("<img> elements from Markdown inside the feed: %q", v.Images)
	}
	if !v.BodyShown {
		t.Errorf("a <style> in the result hid the page body")
	}
	if !v.CodeLiteral {
		t.Errorf("inline code `<script>in code</script>` not shown literally")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialogs) > 0 {
		t.Errorf("dialogs opened: %q", dialogs)
	}
	for _, u := range requests {
		if strings.HasSuffix(u, "/x") || strings.HasSuffix(u, "/x/") {
			t.Errorf("the page requested %s (an <img src=x> reached the DOM)", u)
		}
	}
	if len(consoleCSP) > 0 {
		t.Logf("CSP reports on the console (something tried): %q", consoleCSP)
	}
}

// TestInvocationHugeResult: a result of megabytes renders without
// freezing the page, and the rest of it arrives on request.
func TestInvocationHugeResult(t *testing.T) {
	in := demoOnly(t, "alpha")
	invs := followInvocations(t, in)
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	if _, err := page.Evaluate(`() => { window.__longest = 0; new PerformanceObserver(l => { for (const e of l.getEntries())
		window.__longest = Math.max(window.__longest, e.duration); }).observe({type: 'longtask', buffered: true}); }`); err != nil {
		t.Fatal(err)
	}

	// 5 MB cannot be sent: a call's arguments are capped at 4 MiB.
	five, _ := json.Marshal(map[string]any{"message": strings.Repeat("x", 5<<20)})
	if code, out := callToolRaw(t, in, "alpha", "echo", five); code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 5 MB echo: got %d %s, want 413 (the 4 MiB arguments cap)", code, clip(out))
	} else {
		t.Logf("5 MB echo refused as documented in code: 413 %s", clip(out))
	}

	// The biggest echo that fits: 4,000,000 bytes on 50,000 lines.
	var b strings.Builder
	for i := range 50_000 {
		line := fmt.Sprintf("huge result line %05d ", i)
		b.WriteString(line + strings.Repeat("z", 79-len(line)) + "\n")
	}
	msg := b.String()
	inv := callTool(t, in, "alpha", "echo", map[string]any{"message": msg})
	done := invs.waitFinal(t, inv.ID)
	if done.Status != "success" {
		t.Fatalf("the %d-byte echo ended %s, want success", len(msg), done)
	}
	t.Logf("result of %d bytes (resultSize %d, truncated %v)", len(msg), done.ResultSize, done.Truncated)
	card := feedCard(inv.ID)
	waitCard(t, page, inv.ID, "success")
	responsive(t, page, "after the card succeeded")
	waitVisible(t, page, card+` [data-testid="content-show-more"]`, "Show more on the huge text")
	full := card + ` [data-testid="content-show-full"]`
	waitVisible(t, page, full, "Show the full text on text past the inline cap")
	var inline int
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).textContent.length)`, card+` [data-testid="content-text"]`, &inline)
	if inline >= len(msg) {
		t.Errorf("the card holds %d characters inline, want it capped below the %d of the result", inline, len(msg))
	}
	t.Logf("inline text: %d characters of %d", inline, len(msg))

	click(t, page, full)
	waitGone(t, page, full, "Show the full text fetched the rest")
	responsive(t, page, "after the full text arrived")
	var all int
	evalJSON(t, page, `sel => JSON.stringify(document.querySelector(sel).textContent.length)`, card+` [data-testid="content-text"]`, &all)
	if all < len(msg)-60_000 {
		t.Errorf("after Show the full text the item holds %d characters, want about %d", all, len(msg))
	}
	var longest float64
	evalJSON(t, page, `() => JSON.stringify(window.__longest)`, nil, &longest)
	t.Logf("longest main-thread task while rendering: %.0f ms", longest)
}

// responsive evaluates a trivial script and fails when the page does not
// answer within 10 s.
func responsive(t *testing.T, page playwright.Page, when string) {
	t.Helper()
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, err := page.Evaluate(`() => 1 + 1`)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("evaluate %s: %v", when, err)
		}
		t.Logf("page answered a trivial script %s in %s", when, time.Since(start).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatalf("the page did not answer a trivial script within 10 s %s: frozen", when)
	}
}
