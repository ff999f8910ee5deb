//go:build e2e

package e2e

import (
	"fmt"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// feedCard matches invocation id's card in the page's activity feed.
func feedCard(id string) string {
	return fmt.Sprintf(`#activity-feed-list > [data-testid="invocation-card"][data-invocation=%q]`, id)
}

// feedCardStatus matches id's feed card in status.
func feedCardStatus(id, status string) string {
	return fmt.Sprintf(`%s[data-status=%q]`, feedCard(id), status)
}

// cardProbe runs in the page before its own scripts: it notes when the
// page stream opens, and a MutationObserver records, per invocation, the
// sequence of data-status values its feed card showed (consecutive
// repeats folded), plus every dialog the page tried to open.
const cardProbe = `(() => {
	window.__sseOpen = false;
	document.addEventListener('htmx:sseOpen', () => { window.__sseOpen = true; });
	const seq = {};
	window.__cardSeq = seq;
	const look = () => {
		for (const c of document.querySelectorAll('#activity-feed-list > [data-testid="invocation-card"]')) {
			const id = c.getAttribute('data-invocation'), s = c.getAttribute('data-status');
			const list = seq[id] || (seq[id] = []);
			if (list[list.length - 1] !== s) list.push(s);
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

// cardSeq is the data-status sequence the probe saw for id's feed card.
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
