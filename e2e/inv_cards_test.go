//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// feedCard matches invocation id's card opened under its row in the
// page's call list (openCards' probe opens every row as it arrives).
func feedCard(id string) string {
	return fmt.Sprintf(`#calls-list [data-testid="call-card"] > [data-testid="invocation-card"][data-invocation=%q]`, id)
}

// feedCardStatus matches id's open card in status.
func feedCardStatus(id, status string) string {
	return fmt.Sprintf(`%s[data-status=%q]`, feedCard(id), status)
}

// callRow matches invocation id's row in the page's call list.
func callRow(id string) string {
	return fmt.Sprintf(`#calls-list [data-testid="call-row"][data-invocation=%q]`, id)
}

// cardProbe runs in the page before its own scripts: it notes when the
// page stream opens, and a MutationObserver records, per invocation, the
// sequence of data-status values its row in the call list showed
// (consecutive repeats folded; the stream replaces a row on every change,
// in order), plus every dialog the page tried to open. It also opens each
// row's card once, as a person clicking the row would, so tests can look
// inside the cards.
const cardProbe = `(() => {
	window.__sseOpen = false;
	document.addEventListener('htmx:sseOpen', () => { window.__sseOpen = true; });
	const seq = {};
	const opened = new Set();
	window.__cardSeq = seq;
	const look = () => {
		for (const r of document.querySelectorAll('#calls-list [data-testid="call-row"]')) {
			const id = r.getAttribute('data-invocation'), s = r.getAttribute('data-status');
			const list = seq[id] || (seq[id] = []);
			if (list[list.length - 1] !== s) list.push(s);
			const btn = r.querySelector('[data-testid="call-row-toggle"]');
			if (!opened.has(id) && btn && window.htmx) {
				opened.add(id);
				if (btn.getAttribute('aria-expanded') !== 'true') btn.click();
			}
		}
	};
	new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ['data-status']});
})()`

// openCards opens the dashboard with cardProbe installed and waits until
// its page stream is open, so every later call arrives live.
func openCards(t *testing.T, in *instance, opts playwright.BrowserNewContextOptions) playwright.Page {
	t.Helper()
	if opts.Locale == nil {
		opts.Locale = playwright.String("en-US")
	}
	page := newPage(t, opts)
	if err := page.AddInitScript(playwright.Script{Content: playwright.String(cardProbe)}); err != nil {
		t.Fatal(err)
	}
	goTo(t, page, in.link())
	waitTrue(t, page, `() => window.__sseOpen === true`, nil, "the page stream opens")
	return page
}

// cardSeq is the data-status sequence the probe saw for id's row.
func cardSeq(t *testing.T, page playwright.Page, id string) []string {
	t.Helper()
	var seq []string
	evalJSON(t, page, `id => JSON.stringify(window.__cardSeq[id] || [])`, id, &seq)
	return seq
}

// waitCard waits until id's feed card shows status.
func waitCard(t *testing.T, page playwright.Page, id, status string) playwright.Locator {
	t.Helper()
	return waitFor(t, page, feedCardStatus(id, status), "card "+id+" "+status)
}

// openRowCard waits until id's row in the call list shows status, opens
// its card as a person clicking the row would (pages opened without
// cardProbe keep rows closed), and waits for the card in that status.
func openRowCard(t *testing.T, page playwright.Page, id, status string) playwright.Locator {
	t.Helper()
	row := callRow(id)
	waitFor(t, page, fmt.Sprintf(`%s[data-status=%q]`, row, status), "row "+id+" "+status)
	toggle := row + ` [data-testid="call-row-toggle"]`
	if attr(t, page, toggle, "aria-expanded") != "true" {
		click(t, page, toggle)
	}
	return waitCard(t, page, id, status)
}
