//go:build e2e

package e2e

import (
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// chipSnapshot is everything one header chip showed at one instant.
type chipSnapshot struct {
	State string `json:"state"`
	Badge string `json:"badge"`
	Dot   string `json:"dot"`
	// Tip maps each tooltip row's data-testid to what it showed.
	Tip map[string]struct {
		Text     string  `json:"text"`
		Time     *string `json:"time"`
		Deadline *string `json:"deadline"`
	} `json:"tip"`
}

// chipWhen waits until server's header chip says state and returns what
// it showed in that same instant: read in the page, on the DOM change that
// made it so, with no second look that a later swap could race.
func chipWhen(t *testing.T, page playwright.Page, server, state string) chipSnapshot {
	t.Helper()
	var c chipSnapshot
	evalJSON(t, page, `([server, state, ms]) => new Promise(resolve => {
		const sel = '#server-list [data-testid="status-chip"][data-server="' + server + '"]';
		const read = () => {
			const chip = document.querySelector(sel);
			if (!chip || chip.getAttribute('data-state') !== state) return null;
			const q = s => chip.querySelector(s);
			const tip = {};
			for (const row of chip.querySelectorAll('[data-testid="tooltip"] [data-testid^="tooltip-"]')) {
				tip[row.getAttribute('data-testid')] = {text: row.textContent.replace(/\s+/g, ' ').trim(),
					time: row.getAttribute('data-time'), deadline: row.getAttribute('data-deadline')};
			}
			return JSON.stringify({state,
				badge: (q('[data-testid="chip-badge"]')?.textContent || '').replace(/\s+/g, ' ').trim(),
				dot: q('[data-testid="chip-dot"]')?.getAttribute('aria-label') || '', tip});
		};
		const now = read();
		if (now) return resolve(now);
		const mo = new MutationObserver(() => {
			const r = read();
			if (r) { mo.disconnect(); resolve(r); }
		});
		mo.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
		setTimeout(() => { mo.disconnect(); resolve(JSON.stringify({state: 'timeout'})); }, ms);
	})`, []any{server, state, waitLong.Milliseconds()}, &c)
	if c.State != state {
		t.Fatalf("%s header chip never said %s within %s\n%s", server, state, waitLong, describeChips(page))
	}
	return c
}
