//go:build e2e

package e2e

import (
	"fmt"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// axeViolation is one failed axe-core rule with the nodes that fail it.
type axeViolation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		Target         []any  `json:"target"`
		FailureSummary string `json:"failureSummary"`
	} `json:"nodes"`
}

func (v axeViolation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s", v.ID, v.Impact, v.Help)
	for _, n := range v.Nodes {
		fmt.Fprintf(&b, "\n\t\ttarget %v: %s", n.Target, strings.ReplaceAll(n.FailureSummary, "\n", " "))
	}
	return b.String()
}

// axe runs axe-core on the page: WCAG 2.0-2.2 A and AA, best practices,
// and AAA contrast for the status dots and text.
func axe(t *testing.T, page playwright.Page) []axeViolation {
	t.Helper()
	settle(t, page)
	if _, err := page.Evaluate(axeJS); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	var out []axeViolation
	evalJSON(t, page, `async () => JSON.stringify((await axe.run(document, {
		runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']},
		rules: {'color-contrast-enhanced': {enabled: true}},
		resultTypes: ['violations'] // passes reduced to one node each: much faster on big pages
	})).violations)`, nil, &out)
	return out
}

// checkAxe reports every violation on the page as a test error.
func checkAxe(t *testing.T, page playwright.Page, scene string) {
	t.Helper()
	for _, v := range axe(t, page) {
		t.Errorf("%s: axe %s", scene, v)
	}
}

// settle waits for every finite animation on the page to finish (a drawer
// sliding in), so contrast is measured on the final colours. Endless ones
// (a connecting dot's breathing) are left running.
func settle(t *testing.T, page playwright.Page) {
	t.Helper()
	var done bool
	evalJSON(t, page, `async () => {
		await Promise.all(document.getAnimations()
			.filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
			.map(a => a.finished.catch(() => {})));
		return JSON.stringify(true);
	}`, nil, &done)
}
