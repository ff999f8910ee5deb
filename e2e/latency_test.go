//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// frameProbe runs in the page before its own scripts. For one server it
// watches the htmx SSE messages: once a message has carried the chip in
// connecting, the next one that carries it in connected is timed, and on
// the following animation frame the list's chip is read back. A
// MutationObserver notes when that chip first reads connected.
const frameProbe = `(() => {
	const server = %q;
	const chip = '[data-testid="status-chip"][data-server="' + server + '"]';
	const headerChip = '[data-testid="server-list"] ' + chip;
	const carries = (html, state) => {
		const tpl = document.createElement('template');
		tpl.innerHTML = String(html || '');
		// Table rows travel inside <template> (htmx's way for <tr>), whose
		// content querySelector does not enter.
		const sel = chip + '[data-state="' + state + '"]';
		const find = root => !!root.querySelector(sel) || [...root.querySelectorAll('template')].some(t => find(t.content));
		return find(tpl.content);
	};
	const r = {messages: 0, armed: false, found: false, beforeAt: null, messageAt: null, mutationAt: null,
		rafAt: null, stateAtMessage: null, rafState: null, rafDot: null, rafBadge: null};
	window.__frame = r;
	window.__sseOpen = false;
	let resolve;
	window.__frameDone = new Promise(res => { resolve = res; });
	document.addEventListener('htmx:sseOpen', () => { window.__sseOpen = true; });
	document.addEventListener('htmx:sseBeforeMessage', e => {
		r.messages++;
		const data = e.detail && e.detail.data;
		if (!r.armed) { r.armed = carries(data, 'connecting'); return; }
		if (!r.found && carries(data, 'connected')) { r.found = true; r.beforeAt = performance.now(); }
	});
	document.addEventListener('htmx:sseMessage', () => {
		if (!r.found || r.messageAt !== null) return;
		r.messageAt = performance.now();
		const c = document.querySelector(headerChip);
		r.stateAtMessage = c && c.getAttribute('data-state');
		requestAnimationFrame(() => {
			r.rafAt = performance.now();
			const c = document.querySelector(headerChip);
			const dot = c && c.querySelector('[data-testid="chip-dot"]');
			const badge = c && c.querySelector('[data-testid="chip-badge"]');
			r.rafState = c && c.getAttribute('data-state');
			r.rafDot = dot && dot.getAttribute('aria-label');
			r.rafBadge = badge && badge.textContent.trim();
			resolve();
		});
	});
	new MutationObserver(() => {
		if (!r.armed || r.mutationAt !== null) return;
		const c = document.querySelector(headerChip);
		if (c && c.getAttribute('data-state') === 'connected') r.mutationAt = performance.now();
	}).observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
})()`

// frameResult is what frameProbe measured; times are performance.now() ms.
type frameResult struct {
	Messages       int      `json:"messages"`
	BeforeAt       *float64 `json:"beforeAt"`
	MessageAt      *float64 `json:"messageAt"`
	MutationAt     *float64 `json:"mutationAt"`
	RafAt          *float64 `json:"rafAt"`
	StateAtMessage *string  `json:"stateAtMessage"`
	RafState       *string  `json:"rafState"`
	RafDot         *string  `json:"rafDot"`
	RafBadge       *string  `json:"rafBadge"`
}

// N1: the chip reads connected on the animation frame right after the
// SSE message that carries connected (triggered by a restart).
func TestConnectedWithinOneFrame(t *testing.T) {
	const name = "alpha"
	g := newGate(t, demoHTTP(t, name))
	g.release()
	in := startWith(t, servers{name: {"url": g.URL}})
	in.waitState(t, name, "connected")
	page := newPage(t, playwright.BrowserNewContextOptions{Locale: playwright.String("en-US")})
	if err := page.AddInitScript(playwright.Script{Content: playwright.String(fmt.Sprintf(frameProbe, name))}); err != nil {
		t.Fatal(err)
	}
	goTo(t, page, in.link())
	waitAllChips(t, page, name, "connected")
	waitTrue(t, page, `() => window.__sseOpen === true`, nil, "htmx:sseOpen on the page stream")

	// The gate holds the reconnect, so the page surely sees connecting
	// before connected.
	g.hold()
	in.post(t, name, "restart")
	waitChip(t, page, name, "connecting")
	g.release()
	var r frameResult
	evalJSON(t, page, `async () => {
		await Promise.race([window.__frameDone, new Promise(res => setTimeout(res, 60000))]);
		return JSON.stringify(window.__frame);
	}`, nil, &r)
	if r.MessageAt == nil || r.RafAt == nil {
		t.Fatalf("no SSE message carried %s connecting then connected (%d messages seen)", name, r.Messages)
	}
	t.Logf("message handled in %.1f ms, next frame %.1f ms after it; chip mutated to connected %.1f ms after the message arrived",
		*r.MessageAt-*r.BeforeAt, *r.RafAt-*r.MessageAt, deref(r.MutationAt)-*r.BeforeAt)
	if got := deref(r.RafState); got != "connected" {
		t.Errorf("list chip data-state on the next frame: got %q, want connected (right after the swap it was %q)", got, deref(r.StateAtMessage))
	}
	if got := deref(r.RafDot); got != "connected" {
		t.Errorf("list chip dot aria-label on the next frame: got %q, want connected", got)
	}
	if r.MutationAt == nil || *r.MutationAt > *r.RafAt {
		t.Errorf("MutationObserver saw the chip read connected at %v, want before the next frame at %.1f", r.MutationAt, *r.RafAt)
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}
