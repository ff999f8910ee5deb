//go:build e2e

package e2e

import (
	"maps"
	"regexp"
	"strconv"
	"testing"
)

// TestDrawerShowsCapabilities: the drawer lists what the API knows, with
// each tool's annotation tags and risk tier, prompt arguments, and stderr.
func TestDrawerShowsCapabilities(t *testing.T) {
	const name = "demo"
	in := startWith(t, servers{name: demoStdio(name, nil)})
	in.waitState(t, name, "connected")
	d, _ := in.server(t, name)
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	drawer := drawerSel(name)
	openDrawer(t, page, name)

	for testid, n := range map[string]int{
		"caps-tools": len(d.Capabilities.Tools), "caps-resources": len(d.Capabilities.Resources),
		"caps-templates": len(d.Capabilities.ResourceTemplates), "caps-prompts": len(d.Capabilities.Prompts),
	} {
		sel := drawer + ` details[data-testid="` + testid + `"] > summary`
		waitFor(t, page, sel, testid)
		if got := text(t, page, sel); !regexp.MustCompile(`\b` + strconv.Itoa(n) + `\b`).MatchString(got) {
			t.Errorf("%s summary: got %q, want the count %d", testid, got, n)
		}
	}
	for testid, n := range map[string]int{
		"tool-item": len(d.Capabilities.Tools), "resource-item": len(d.Capabilities.Resources),
		"template-item": len(d.Capabilities.ResourceTemplates), "prompt-item": len(d.Capabilities.Prompts),
	} {
		if got := count(t, page, drawer+` [data-testid="`+testid+`"]`); got != n {
			t.Errorf("%s: got %d, want %d", testid, got, n)
		}
	}

	// Tags and risk tiers, compared as tallies with the API.
	wantTags, wantRisk := map[string]int{}, map[string]int{}
	for _, tl := range d.Capabilities.Tools {
		a := tl.Annotations
		for tag, hint := range map[string]*bool{"readOnly": a.ReadOnlyHint, "destructive": a.DestructiveHint,
			"idempotent": a.IdempotentHint, "openWorld": a.OpenWorldHint} {
			if hint != nil && *hint {
				wantTags[tag]++
			}
		}
		wantRisk[tl.RiskTier]++
	}
	var got struct {
		Tags, Risk         map[string]int
		RisksPerTool       []int
		Required, Optional int
	}
	evalJSON(t, page, `sel => {
		const tally = (els, attr) => els.reduce((m, el) => (m[el.getAttribute(attr)] = (m[el.getAttribute(attr)] || 0) + 1, m), {});
		const d = document.querySelector(sel);
		const items = [...d.querySelectorAll('[data-testid="tool-item"]')];
		return JSON.stringify({
			Tags: tally([...d.querySelectorAll('[data-testid="tool-tag"]')], 'data-tag'),
			Risk: tally([...d.querySelectorAll('[data-testid="tool-risk"]')], 'data-risk'),
			RisksPerTool: items.map(i => i.querySelectorAll('[data-testid="tool-risk"]').length),
			Required: d.querySelectorAll('[data-testid="prompt-arg"][data-required="true"]').length,
			Optional: d.querySelectorAll('[data-testid="prompt-arg"][data-required="false"]').length,
		});
	}`, drawer, &got)
	if !maps.Equal(got.Tags, wantTags) {
		t.Errorf("tool tags: got %v, want %v (the API's true hints)", got.Tags, wantTags)
	}
	if !maps.Equal(got.Risk, wantRisk) {
		t.Errorf("tool risk tiers: got %v, want %v", got.Risk, wantRisk)
	}
	for i, n := range got.RisksPerTool {
		if n != 1 {
			t.Errorf("tool item %d: got %d tool-risk elements, want 1", i, n)
		}
	}
	if got.Required == 0 || got.Optional == 0 {
		t.Errorf("prompt arguments: got %d required and %d optional, want both kinds (the demo's prompts have both)", got.Required, got.Optional)
	}
	if count(t, page, drawer+` [data-testid="stderr"]`) != 1 {
		t.Errorf("stderr section of a stdio server: got none, want one")
	}

	// Arrow keys move between the items of one list.
	first := drawer + ` [data-testid="tool-item"]`
	if err := page.Locator(first).First().Focus(); err != nil {
		t.Fatalf("focus the first tool: %v", err)
	}
	var idx int
	position := `sel => JSON.stringify([...document.querySelectorAll(sel)].indexOf(document.activeElement))`
	for _, step := range []struct {
		key  string
		want int
	}{{"ArrowDown", 1}, {"ArrowDown", 2}, {"ArrowUp", 1}} {
		press(t, page, step.key)
		evalJSON(t, page, position, first, &idx)
		if idx != step.want {
			t.Errorf("after %s: focused tool %d, want %d", step.key, idx, step.want)
		}
	}

	// The close button closes it and gives focus back to the chip button.
	click(t, page, drawer+` [data-testid="drawer-close"]`)
	waitHidden(t, page, drawer, "drawer-close closes the drawer")
	if a := focused(t, page); a.TestID != selChipButtonID || !a.InList || a.Server != name {
		t.Errorf("focus after drawer-close: got %+v, want the list chip button of %s", a, name)
	}
}

// TestDrawerSettingsApplyWithoutRestart: a keep-alive interval saved in
// the drawer starts probes at once, and the server is not reconnected.
func TestDrawerSettingsApplyWithoutRestart(t *testing.T) {
	const name = "quiet"
	in := startWith(t, servers{name: demoStdio(name, map[string]any{"keepAliveSeconds": 0})})
	in.waitState(t, name, "connected")
	page := open(t, in)
	waitAllChips(t, page, name, "connected")
	drawer := drawerSel(name)
	openDrawer(t, page, name)
	if err := page.Locator(drawer + ` [data-testid="setting-keepalive"]`).Fill("5"); err != nil { // the shortest interval allowed
		t.Fatalf("fill keep-alive: %v", err)
	}
	mark := in.events.len()
	click(t, page, drawer+` [data-testid="settings-save"]`)
	// Probes were off; two probe results prove the new interval applies.
	i := mark
	for range 2 {
		i, _ = in.events.wait(t, i, name+" keep-alive probe", func(s status) bool { return s.ServerName == name && s.LatencyMs != nil })
		i++
	}
	for _, s := range in.events.since(mark)[:i-mark] {
		if s.ServerName == name && s.State != "connected" {
			t.Errorf("after saving settings: got snapshot %v, want the server to stay connected", s)
		}
	}
}
