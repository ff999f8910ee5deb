//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	playwright "github.com/mxschmitt/playwright-go"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// The scale fixture: 50 servers in every state a person meets and 1,000
// stored calls, the size issue #13 asks the dashboard to stay calm at.
const (
	scaleCalls = 1000
	// scaleMarkdownID is the newest stored call: a success whose Markdown
	// result has an h3, for the heading-size check.
	scaleMarkdownID = "5ca1e0000000000000000001"
	// scaleErrorID is the second newest: a tool error with scaleErrorText.
	scaleErrorID   = "5ca1e0000000000000000002"
	scaleErrorText = "fail_always failed on purpose: this tool exists to show how a client presents a tool error."
	// scaleDrawerServer is a connected server whose drawer the tests open.
	scaleDrawerServer = "github"
	// scaleProjectServer waits for the person's approval (a project file's
	// server); the page asks about it in a dialog.
	scaleProjectServer = "project-notes"
)

// scaleConnected are the names of the servers that connect, over one
// shared demo server on streamable HTTP (each its own session), so 35
// connected servers cost one process.
var scaleConnected = []string{
	"github", "filesystem", "memory", "sqlite-analytics", "postgres-main", "slack", "linear", "jira-cloud",
	"confluence", "notion", "google-drive", "gmail", "calendar", "sentry", "datadog", "grafana", "prometheus",
	"kubernetes", "docker", "aws-docs", "terraform", "stripe", "shopify", "figma", "puppeteer", "playwright-browser",
	"brave-search", "fetch", "time", "weather", "maps", "translate", "everything-demo", "sequential-thinking",
	"a-server-with-a-rather-long-name-for-layout",
}

// scaleFleet is the fixture's settings and what each group of servers
// should end up as.
type scaleFleet struct {
	user, project servers
	// want maps each server to its settled state (auto-disabled ones pass
	// through error first).
	want map[string]string
}

// newScaleFleet builds the 50 servers: 35 connected over HTTP, 3 stdio
// children, 3 starting processes that never answer, 3 refused
// (retrying for ever), 2 that exit at once (auto-disabled after five
// failures), 3 disabled in the settings, and 1 project server awaiting
// approval.
func newScaleFleet(t *testing.T) scaleFleet {
	t.Helper()
	f := scaleFleet{user: servers{}, project: servers{}, want: map[string]string{}}
	shared := demoHTTP(t, "fleet")
	for i, name := range scaleConnected {
		// A query keeps each target distinct; the demo server ignores it.
		f.user[name] = map[string]any{"url": fmt.Sprintf("%s?tenant=%02d", shared, i), "keepAliveSeconds": 60}
		f.want[name] = "connected"
	}
	for _, name := range []string{"local-notes", "local-shell", "local-git"} {
		f.user[name] = demoStdio(name, map[string]any{"keepAliveSeconds": 60})
		f.want[name] = "connected"
	}
	for _, name := range []string{"warming-index-a", "warming-index-b", "warming-index-c"} {
		// A process that never answers initialize stays starting for the
		// whole start timeout, showing its last stderr line.
		f.user[name] = map[string]any{"command": "sh", "args": []string{"-c", "echo warming up the index >&2; exec sleep 3600"},
			"startTimeoutSeconds": 1800}
		f.want[name] = "connecting"
	}
	for i, name := range []string{"offline-wiki", "offline-crm", "offline-billing"} {
		f.user[name] = map[string]any{"url": fmt.Sprintf("http://127.0.0.1:%d/mcp", 1+i)}
		f.want[name] = "error"
	}
	for _, name := range []string{"broken-exporter", "broken-indexer"} {
		f.user[name] = failingCommand()
		f.want[name] = "disabled"
	}
	for _, name := range []string{"paused-search", "paused-sandbox", "paused-legacy"} {
		f.user[name] = demoStdio(name, map[string]any{"disabled": true})
		f.want[name] = "disabled"
	}
	f.project[scaleProjectServer] = demoStdio(scaleProjectServer, nil)
	f.want[scaleProjectServer] = "disabled" // blocked until approved
	if n := len(f.want); n != 50 {
		t.Fatalf("scale fixture: %d servers, want 50", n)
	}
	return f
}

// scaleInstance is the running fixture.
type scaleInstance struct {
	*instance
	fleet scaleFleet
}

// startScale seeds 1,000 calls into a fresh data directory, starts
// switchboard on the fleet's settings and project file with that data, and
// waits until every server has settled in its state.
func startScale(t *testing.T) *scaleInstance {
	t.Helper()
	fleet := newScaleFleet(t)
	project := t.TempDir()
	data := t.TempDir()
	seedScaleCalls(t, data, domain.Scope{User: domain.LocalUser, Workspace: project}, time.Now())

	b, err := json.Marshal(map[string]any{"mcpServers": fleet.project})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".mcp.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	settings := filepath.Join(t.TempDir(), "settings.json")
	writeSettings(t, settings, fleet.user)
	// The later --data and --project win over run's own.
	in := run(t, settings, "--settings", settings, "--project", project, "--data", data)
	in.Data = data
	for name, state := range fleet.want {
		if name == "broken-exporter" || name == "broken-indexer" {
			in.events.wait(t, 0, name+" auto-disabled", func(s status) bool {
				return s.ServerName == name && s.DisabledReason != nil && *s.DisabledReason == "auto"
			})
			continue
		}
		in.waitState(t, name, state)
	}
	return &scaleInstance{instance: in, fleet: fleet}
}

// scaleTools are tool names of the demo server the seeded calls use.
var scaleTools = []string{"echo", "add", "markdown_report", "structured_weather", "tiny_image", "long_task",
	"resource_links", "fail_always", "list_notes", "delete_note"}

// scaleErrors are the redacted error texts of seeded failed calls.
var scaleErrors = []string{
	scaleErrorText,
	"connection reset by peer while waiting for the result",
	"the server did not answer within 60 s (callTimeoutSeconds)",
	"invalid arguments: /path must be a string",
	"rate limited: retry after 30 s",
}

// seedScaleCalls stores scaleCalls finished calls in dir's database through
// the sqlite package, as the binary would have: 600 over the last hour
// (so the calls-per-minute chart has bars) and 400 over the day before,
// every final status, every source, several servers. The two newest are
// scaleMarkdownID and scaleErrorID. The random source is fixed, so every
// run sees the same list.
func seedScaleCalls(t *testing.T, dir string, scope domain.Scope, now time.Time) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatalf("open the fixture database: %v", err)
	}
	defer func() {
		if err := db.Close(); err != nil {
			t.Errorf("close the fixture database: %v", err)
		}
	}()
	rnd := rand.New(rand.NewPCG(13, 50))
	names := append(append([]string{}, scaleConnected[:12]...), "local-notes", "offline-wiki", "broken-exporter")
	invs := make([]domain.Invocation, 0, scaleCalls)
	for i := range scaleCalls {
		var started time.Time
		switch {
		case i < 2:
			started = now.Add(-time.Duration(10+10*i) * time.Second)
		case i < 600:
			started = now.Add(-time.Duration(30+rnd.IntN(3540)) * time.Second)
		default:
			started = now.Add(-time.Hour - time.Duration(rnd.IntN(23*3600))*time.Second)
		}
		inv := domain.Invocation{
			ID:         fmt.Sprintf("5ca1e%019x", 0x100+i),
			Scope:      scope,
			Key:        domain.CallKey{ConversationID: "scale-fixture", MessageID: "m", ToolCallID: fmt.Sprintf("call-%04d", i)},
			ServerName: names[rnd.IntN(len(names))],
			Tool:       scaleTools[rnd.IntN(len(scaleTools))],
			Arguments:  json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)),
			StartedAt:  started,
			EndedAt:    started.Add(time.Duration(20+rnd.IntN(4000)) * time.Millisecond),
			Version:    uint64(scaleCalls - i),
		}
		switch src := rnd.IntN(10); {
		case src < 5:
			inv.Source = domain.SourceGateway
			inv.Client = domain.ClientIdentity{Name: []string{"claude-code", "cursor", "zed"}[rnd.IntN(3)], Version: "1.0"}
		case src < 8:
			inv.Source = domain.SourceDashboard
		default:
			inv.Source = domain.SourceAPI
		}
		switch p := rnd.IntN(100); {
		case p < 70:
			inv.Status = domain.InvocationSuccess
			inv.Result = textResult(fmt.Sprintf("call %d answered", i), false)
		case p < 85:
			inv.Status = domain.InvocationError
			msg := scaleErrors[rnd.IntN(len(scaleErrors))]
			if rnd.IntN(2) == 0 {
				inv.Result = textResult(msg, true)
			} else {
				inv.Error = msg
			}
		case p < 95:
			inv.Status = domain.InvocationCancelled
		default:
			inv.Status = domain.InvocationDenied
			inv.EndedAt = started
		}
		switch i {
		case 0:
			inv.ID, inv.ServerName, inv.Tool, inv.Status, inv.Source = scaleMarkdownID, scaleDrawerServer, "markdown_report", domain.InvocationSuccess, domain.SourceDashboard
			inv.Error, inv.Result = "", textResult("# Weekly report\n\nAll systems nominal.\n\n### Deployments\n\n- **api**: 3 releases\n- **web**: 1 release\n\n### Incidents\n\nNone this week.", false)
		case 1:
			inv.ID, inv.ServerName, inv.Tool, inv.Status = scaleErrorID, scaleDrawerServer, "fail_always", domain.InvocationError
			inv.Error, inv.Result = "", textResult(scaleErrorText, true)
		}
		invs = append(invs, inv)
	}
	// Concurrent saves share the writer's batches: 1,000 one at a time
	// would wait for 1,000 commits.
	var wg sync.WaitGroup
	errs := make(chan error, len(invs))
	work := make(chan domain.Invocation)
	for range 16 {
		wg.Go(func() {
			for inv := range work {
				if err := db.InvocationStore().SaveInvocation(ctx, inv); err != nil {
					errs <- err
				}
			}
		})
	}
	for _, inv := range invs {
		work <- inv
	}
	close(work)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("seed the fixture's calls: %v", err)
	}
}

// textResult is a CallToolResult with one text item.
func textResult(text string, isError bool) json.RawMessage {
	b, _ := json.Marshal(map[string]any{"content": []map[string]any{{"type": "text", "text": text}}, "isError": isError})
	return b
}

// setScalePrefs stores theme and preset for the instance's one person, as
// the settings control would, so every page opened afterwards shows them.
func (in *scaleInstance) setPrefs(t *testing.T, theme, preset string) {
	t.Helper()
	resp, err := http.PostForm(in.URL+"/ui/preferences", url.Values{"theme": {theme}, "preset": {preset}})
	if err != nil {
		t.Fatalf("save preferences: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		t.Fatalf("save preferences theme=%s preset=%s: HTTP %d", theme, preset, resp.StatusCode)
	}
}

// openScale opens the dashboard (at path, e.g. "/?from=…") at the given
// viewport and waits until the stream has filled the call list; the
// approval dialog of the project server is put off ("Decide later"), as
// a person would to look at the rest first.
func (in *scaleInstance) open(t *testing.T, width, height int, path, theme, preset string) playwright.Page {
	t.Helper()
	page := newPage(t, playwright.BrowserNewContextOptions{
		Locale:   playwright.String("en-US"),
		Viewport: &playwright.Size{Width: width, Height: height},
	})
	goTo(t, page, in.link())
	if path != "" && path != "/" {
		goTo(t, page, in.URL+path)
	}
	waitFor(t, page, fmt.Sprintf(`html[data-theme=%q][data-preset=%q]`, theme, preset), "theme "+theme+" and preset "+preset+" applied")
	waitFor(t, page, `[data-testid="call-row"]`, "the call list filled by the stream (contract: call-row)")
	dismissApproval(t, page)
	return page
}

// dismissApproval answers the approval dialog with "Decide later" when it
// is showing, and waits for it to go.
func dismissApproval(t *testing.T, page playwright.Page) {
	t.Helper()
	dialog := `[data-testid="approval-dialog"]`
	if err := page.Locator(dialog).First().WaitFor(playwright.LocatorWaitForOptions{
		State: playwright.WaitForSelectorStateVisible, Timeout: playwright.Float(10000)}); err != nil {
		return // not asked (already decided in this page, or not yet shown)
	}
	click(t, page, `[data-testid="approval-later"]`)
	waitHidden(t, page, dialog, "the approval dialog after Decide later")
	// Focus returns to the server's chip, whose tooltip would cover the
	// page: move the pointer off the content and dismiss it.
	if err := page.Mouse().Move(1, 1); err != nil {
		t.Fatal(err)
	}
	press(t, page, "Escape")
	if _, err := page.Evaluate(`() => document.activeElement && document.activeElement.blur()`); err != nil {
		t.Fatal(err)
	}
}

// scaleOpenDrawer opens server's drawer from its row in the server list
// (the header holds no chips once the list is long), and waits for it.
func scaleOpenDrawer(t *testing.T, page playwright.Page, server string) {
	t.Helper()
	var clicked string
	evalJSON(t, page, `name => {
		const b = [...document.querySelectorAll('[data-testid="server-row"] [data-testid="row-open"], [data-testid="server-row"] [data-testid="chip-button"], [data-testid="chip-button"]')]
			.find(e => e.closest('[data-server]')?.dataset.server === name && e.getClientRects().length > 0);
		if (!b) return JSON.stringify('');
		b.click();
		return JSON.stringify(b.dataset.testid);
	}`, server, &clicked)
	if clicked == "" {
		t.Fatalf("no visible row-open or chip-button opens the drawer of %s", server)
	}
	waitVisible(t, page, drawerSel(server), "the drawer of "+server)
	settle(t, page)
}

// screenshotDir is where SWITCHBOARD_SCREENSHOTS asks the scale tests to
// save their views as PNG; empty saves none.
func screenshotDir() string { return os.Getenv("SWITCHBOARD_SCREENSHOTS") }

// screenshot saves the page's viewport as dir/name.png when screenshots
// were asked for.
func screenshot(t *testing.T, page playwright.Page, name string, full bool) {
	t.Helper()
	dir := screenshotDir()
	if dir == "" {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join("..", dir) // relative to the repository, not e2e/
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	settle(t, page)
	path := filepath.Join(dir, strings.TrimSuffix(name, ".png")+".png")
	if _, err := page.Screenshot(playwright.PageScreenshotOptions{Path: playwright.String(path), FullPage: playwright.Bool(full)}); err != nil {
		t.Errorf("screenshot %s: %v", path, err)
		return
	}
	t.Logf("saved %s", path)
}
