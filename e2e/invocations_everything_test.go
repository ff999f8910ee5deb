//go:build e2e

package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// toolSchema is the inputSchema switchboard lists for tool on server.
func toolSchema(t *testing.T, in *instance, server, tool string) map[string]any {
	t.Helper()
	var d struct {
		Capabilities struct {
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"inputSchema"`
			} `json:"tools"`
		} `json:"capabilities"`
	}
	apiGet(t, in, "/api/v1/servers/"+server, &d)
	for _, tl := range d.Capabilities.Tools {
		if tl.Name == tool {
			return tl.InputSchema
		}
	}
	t.Fatalf("server %s lists no tool %s", server, tool)
	return nil
}

// TestInvocationEverything: the cards against server-everything, a
// reference server nobody here wrote (stdio).
func TestInvocationEverything(t *testing.T) {
	in := startWith(t, servers{"everything": everythingStdio(t)})
	in.waitState(t, "everything", "connected")
	page := openCards(t, in, playwright.BrowserNewContextOptions{})
	const srv = "everything"

	t.Run("get-tiny-image", func(t *testing.T) {
		card := succeeded(t, in, page, srv, "get-tiny-image", map[string]any{})
		checkImage(t, page, card+` [data-testid="content-item"][data-type="image"] img[data-testid="content-image"]`, "image/png")
	})

	t.Run("get-resource-links", func(t *testing.T) {
		card := succeeded(t, in, page, srv, "get-resource-links", map[string]any{"count": 3})
		chip := card + ` [data-testid="content-item"][data-type="resource_link"] [data-testid="resource-link"]`
		waitVisible(t, page, chip, "resource_link chips")
		if n := count(t, page, chip); n != 3 {
			t.Errorf("resource_link chips: got %d, want 3", n)
		}
		// The first link is Blob Resource 1 (demo://resource/dynamic/blob/1).
		item := card + ` [data-testid="content-item"][data-type="resource_link"]`
		if got := attr(t, page, chip, "data-resource"); got != "demo://resource/dynamic/blob/1" {
			t.Errorf("first chip data-resource: got %q, want demo://resource/dynamic/blob/1", got)
		}
		click(t, page, chip)
		waitFor(t, page, item+` [data-testid="resource-preview"] [data-testid="content-item"]`, "the chip previews its resource")
	})

	t.Run("get-resource-reference", func(t *testing.T) {
		schema := toolSchema(t, in, srv, "get-resource-reference")
		props, _ := schema["properties"].(map[string]any)
		rt, _ := props["resourceType"].(map[string]any)
		t.Logf("get-resource-reference resourceType schema: %v", rt)
		for _, kind := range []string{"Text", "Blob"} {
			t.Run(kind, func(t *testing.T) {
				card := succeeded(t, in, page, srv, "get-resource-reference", map[string]any{"resourceType": kind, "resourceId": 2})
				items := card + ` [data-testid="content-item"]`
				if n := count(t, page, items); n != 3 {
					t.Errorf("content items: got %d, want 3 (text, resource, text)", n)
				}
				res := card + ` [data-testid="content-item"][data-type="resource"]`
				waitFor(t, page, res, "the embedded resource")
				if got := text(t, page, res+` .content-uri`); got != "demo://resource/dynamic/"+strings.ToLower(kind)+"/2" {
					t.Errorf("embedded resource URI: got %q", got)
				}
				switch kind {
				case "Text":
					if got := text(t, page, res+` [data-testid="content-text"]`); !strings.Contains(got, "Resource 2: This is a plaintext resource") {
						t.Errorf("embedded text: got %q", got)
					}
				case "Blob":
					dl := res + ` a[data-testid="content-download"]`
					waitVisible(t, page, dl, "a download link for the blob")
					if n := count(t, page, dl+`[download]`); n != 1 {
						t.Errorf("blob download link has no download attribute")
					}
					if got := attr(t, page, dl, "download"); got != "2" {
						t.Logf("download file name: %q", got)
					}
					href := attr(t, page, dl, "href")
					if !strings.HasPrefix(href, "data:text/plain;base64,") {
						t.Errorf("blob download href: got %.50q, want data:text/plain;base64,...", href)
					}
				}
			})
		}
	})

	t.Run("get-structured-content", func(t *testing.T) {
		card := succeeded(t, in, page, srv, "get-structured-content", map[string]any{"location": "Chicago"})
		pre := card + ` [data-testid="content-structured"]`
		waitVisible(t, page, pre, "structured content")
		var w map[string]any
		if err := json.Unmarshal([]byte(textRaw(t, page, pre)), &w); err != nil {
			t.Fatalf("structured content is not JSON: %v", err)
		}
		if w["temperature"] != 36.0 || w["conditions"] != "Light rain / drizzle" || w["humidity"] != 82.0 {
			t.Errorf("structured content: got %v", w)
		}
		if n := count(t, page, card+` [data-testid="content-schema-warning"]`); n != 0 {
			t.Errorf("schema warning on conforming structured content: %q", text(t, page, card+` [data-testid="content-schema-warning"]`))
		}
	})

	t.Run("get-annotated-message", func(t *testing.T) {
		card := succeeded(t, in, page, srv, "get-annotated-message", map[string]any{"messageType": "error", "includeImage": true})
		tags := card + ` [data-testid="content-item"][data-type="text"] [data-testid="content-annotation"]`
		waitVisible(t, page, tags, "annotation tags on the text")
		var got []string
		evalJSON(t, page, `sel => JSON.stringify([...document.querySelectorAll(sel)].map(e => e.textContent.trim()))`, tags, &got)
		joined := strings.Join(got, " | ")
		if !strings.Contains(joined, "audience: user, assistant") || !strings.Contains(joined, "priority: 1") {
			t.Errorf("text annotation tags: got %q, want audience: user, assistant and priority: 1", got)
		}
		imgTags := card + ` [data-testid="content-item"][data-type="image"] [data-testid="content-annotation"]`
		evalJSON(t, page, `sel => JSON.stringify([...document.querySelectorAll(sel)].map(e => e.textContent.trim()))`, imgTags, &got)
		if !strings.Contains(strings.Join(got, " | "), "priority: 0.5") {
			t.Errorf("image annotation tags: got %q, want priority: 0.5", got)
		}
		checkImage(t, page, card+` [data-testid="content-item"][data-type="image"] img`, "image/png")
	})

	t.Run("trigger-long-running-operation", func(t *testing.T) {
		inv := callTool(t, in, srv, "trigger-long-running-operation", map[string]any{"duration": 3, "steps": 4})
		card := feedCard(inv.ID)
		bar := card + ` [data-testid="invocation-progress"][role="progressbar"]`
		// Read the bar on every mutation in the page, recording each value.
		if _, err := page.Evaluate(`sel => {
			window.__progress = [];
			const look = () => { const b = document.querySelector(sel); const v = b && b.getAttribute('aria-valuenow');
				if (v !== null && v !== undefined && window.__progress[window.__progress.length - 1] !== v) window.__progress.push(v); };
			look();
			new MutationObserver(look).observe(document, {subtree: true, childList: true, attributes: true});
		}`, card+` [data-testid="invocation-progress"]`); err != nil {
			t.Fatal(err)
		}
		atLeast := `([sel, n]) => { const b = document.querySelector(sel); return !!b && Number(b.getAttribute('aria-valuenow')) >= n; }`
		waitTrue(t, page, atLeast, []any{bar, 1}, "progress reaches 1 of 4")
		if got := attr(t, page, bar, "aria-valuemax"); got != "4" {
			t.Errorf("aria-valuemax: got %q, want 4", got)
		}
		waitTrue(t, page, atLeast, []any{bar, 3}, "progress reaches 3 of 4")
		waitCard(t, page, inv.ID, "success")
		if got := text(t, page, card+` [data-testid="invocation-badge"]`); !strings.Contains(got, "Done") {
			t.Errorf("badge: got %q, want ✓ Done", got)
		}
		if n := count(t, page, card+` [data-testid="invocation-progress"]`); n != 0 {
			t.Errorf("a finished card still shows its progress bar")
		}
		var seen []string
		evalJSON(t, page, `() => JSON.stringify(window.__progress)`, nil, &seen)
		prev := -1.0
		for _, s := range seen {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Errorf("aria-valuenow %q is not a number", s)
				continue
			}
			if v < prev {
				t.Errorf("aria-valuenow went down: %q", seen)
			}
			prev = v
		}
		if len(seen) < 2 {
			t.Errorf("aria-valuenow values seen: %q, want it to increase through several", seen)
		}
		t.Logf("aria-valuenow sequence: %q; card statuses %q", seen, cardSeq(t, page, inv.ID))
		checkSequence(t, cardSeq(t, page, inv.ID), "success")
	})
}
