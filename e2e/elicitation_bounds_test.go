//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// paramsAskerJS is a minimal MCP stdio server that asks its client a
// question outside any call: each time the file named by its first
// argument appears, it removes it and sends elicitation/create with the
// file's JSON as the params; each answer it gets is appended, one JSON
// line, to the file named by its second argument.
const paramsAskerJS = `const fs = require('fs');
const readline = require('readline');
const [trigger, answers] = process.argv.slice(2);
const send = m => process.stdout.write(JSON.stringify(Object.assign({jsonrpc: '2.0'}, m)) + '\n');
let asked = 0;
setInterval(() => {
  let params;
  try { params = JSON.parse(fs.readFileSync(trigger, 'utf8')); fs.unlinkSync(trigger); } catch (e) { return; }
  asked++;
  send({id: 'ask-' + asked, method: 'elicitation/create', params});
}, 50);
readline.createInterface({input: process.stdin}).on('line', line => {
  let m;
  try { m = JSON.parse(line); } catch (e) { return; }
  if (m.method === undefined && m.id !== undefined) {
    fs.appendFileSync(answers, JSON.stringify({id: m.id, result: m.result, error: m.error}) + '\n');
    return;
  }
  if (m.id === undefined) { return; }
  switch (m.method) {
  case 'initialize':
    send({id: m.id, result: {protocolVersion: m.params.protocolVersion, capabilities: {tools: {}}, serverInfo: {name: 'params-asker', version: '1.0.0'}}});
    break;
  case 'tools/list':
    send({id: m.id, result: {tools: []}});
    break;
  case 'ping':
    send({id: m.id, result: {}});
    break;
  default:
    send({id: m.id, error: {code: -32601, message: 'method not found'}});
  }
});
`

// paramsAsker is the server above: its settings entry, a function that
// makes it ask with params, and one that returns the answers it got.
type paramsAsker struct {
	entry   map[string]any
	ask     func(t *testing.T, params any)
	answers func(t *testing.T) []string
}

func newParamsAsker(t *testing.T) paramsAsker {
	t.Helper()
	dir := t.TempDir()
	js, trigger, answers := filepath.Join(dir, "asker.js"), filepath.Join(dir, "ask"), filepath.Join(dir, "answers")
	if err := os.WriteFile(js, []byte(paramsAskerJS), 0o600); err != nil {
		t.Fatal(err)
	}
	return paramsAsker{
		entry: map[string]any{"command": "node", "args": []string{js, trigger, answers}},
		ask: func(t *testing.T, params any) {
			t.Helper()
			b, err := json.Marshal(params)
			if err != nil {
				t.Fatal(err)
			}
			tmp := trigger + ".tmp"
			if err := os.WriteFile(tmp, b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, trigger); err != nil { // whole, never half-written
				t.Fatal(err)
			}
		},
		answers: func(t *testing.T) []string {
			t.Helper()
			b, err := os.ReadFile(answers)
			if err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if s := strings.TrimSpace(string(b)); s != "" {
				return strings.Split(s, "\n")
			}
			return nil
		},
	}
}

// waitAnswers waits until the server got n answers and returns them.
func (a paramsAsker) waitAnswers(t *testing.T, n int) []string {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if got := a.answers(t); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server got %d answers, want %d", len(a.answers(t)), n)
		}
	}
}

// TestElicitationBoundsInTheBrowser puts a server's questions in its
// drawer: a 20 KB message is shown whole in a region that scrolls and
// takes keyboard focus; a message over 64 KiB is cut and says so; a
// URL-mode host in other scripts is accepted and shown with its
// punycode; a schema pattern never reaches the page, and an answer that
// breaks it is flagged by the server and can be sent anyway. Axe-clean.
func TestElicitationBoundsInTheBrowser(t *testing.T) {
	a := newParamsAsker(t)
	in := startWith(t, servers{"asker": a.entry})
	page := open(t, in)
	waitAllChips(t, page, "asker", "connected")
	openDrawer(t, page, "asker")
	list := drawerSel("asker") + ` [data-testid="drawer-elicitations"]`
	form := list + ` [data-testid="elicitation-form"]`

	long := strings.Repeat("The server explains itself at length.\n", 520) // ~20 KB
	a.ask(t, map[string]any{"message": long, "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}})
	msg := form + ` [data-testid="elicitation-message"]`
	waitVisible(t, page, msg, "the long question arrives")
	if got := textRaw(t, page, msg); got != long {
		t.Errorf("message shown: %d bytes, want the %d sent", len(got), len(long))
	}
	var box struct {
		Scrolls, Focused bool
		Role, Name       string
	}
	evalJSON(t, page, `sel => { const el = document.querySelector(sel); el.focus();
		return JSON.stringify({Scrolls: el.scrollHeight > el.clientHeight && getComputedStyle(el).overflowY === 'auto',
			Focused: document.activeElement === el, Role: el.getAttribute('role'), Name: el.getAttribute('aria-label')}); }`, msg, &box)
	if !box.Scrolls || !box.Focused || box.Role != "region" || box.Name != "Message from asker" {
		t.Errorf("message block %+v; want a focusable region named for the server that scrolls", box)
	}
	press(t, page, "End")
	waitTrue(t, page, `sel => { const el = document.querySelector(sel); return el.scrollTop > 0; }`, msg, "End scrolls the message")
	if n := count(t, page, form+` [data-testid="elicitation-message-cut"]`); n != 0 {
		t.Errorf("a whole message says it was cut")
	}
	checkAxe(t, page, "drawer with a long question")
	if err := page.Locator(form + ` [data-testid="elicitation-decline"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, page, form, "the declined question leaves")

	a.ask(t, map[string]any{"message": strings.Repeat("x", 70000)})
	cut := form + ` [data-testid="elicitation-message-cut"]`
	waitVisible(t, page, cut, "the huge question arrives")
	if got := text(t, page, cut); got != "Message shortened: 65536 of 70000 bytes shown." {
		t.Errorf("cut notice %q", got)
	}
	if err := page.Locator(form + ` [data-testid="elicitation-cancel"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, page, form, "the cancelled question leaves")

	a.ask(t, map[string]any{"mode": "url", "message": "Sign in", "url": "https://gооgle.com/login", "elicitationId": "e1"})
	ascii := form + ` [data-testid="elicitation-host-ascii"]`
	waitVisible(t, page, ascii, "the URL-mode question with a non-ASCII host arrives")
	if got := text(t, page, ascii); !strings.Contains(got, "xn--ggle-55da.com") {
		t.Errorf("punycode line %q", got)
	}
	if got := text(t, page, form+` [data-testid="elicitation-open"]`); got != "Open xn--ggle-55da.com in a new tab" {
		t.Errorf("open button %q", got)
	}
	checkAxe(t, page, "drawer with a URL-mode question on a non-ASCII host")
	if err := page.Locator(form + ` [data-testid="elicitation-decline"]`).Click(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, page, form, "the URL question leaves")

	a.ask(t, map[string]any{"message": "Your code?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{
		"code": map[string]any{"type": "string", "title": "Code", "pattern": "^(a+)+$"}}}})
	field := form + ` input[name="f.code"]`
	waitVisible(t, page, field, "the question with a pattern arrives")
	if got := attr(t, page, field, "pattern"); got != "" {
		t.Errorf("the server's pattern %q is on the page", got)
	}
	if err := page.Locator(field).Fill(strings.Repeat("a", 40) + "!"); err != nil {
		t.Fatal(err)
	}
	if err := page.Locator(form + ` [data-testid="elicitation-accept"]`).Click(); err != nil {
		t.Fatal(err)
	}
	warn := form + ` [data-testid="elicitation-pattern-warning"]`
	waitVisible(t, page, warn, "the server flags the answer")
	if got := text(t, page, warn); got != "Does not match the expected pattern." {
		t.Errorf("warning %q", got)
	}
	if got := attr(t, page, field, "aria-invalid"); got != "true" {
		t.Errorf("aria-invalid %q", got)
	}
	waitTrue(t, page, `() => document.activeElement && document.activeElement.name === 'f.code'`, nil, "focus goes to the flagged field")
	checkAxe(t, page, "drawer with an answer that breaks the pattern")
	if err := page.Locator(form + ` [data-testid="elicitation-anyway"]`).Check(); err != nil {
		t.Fatal(err)
	}
	if err := page.Locator(form + ` [data-testid="elicitation-accept"]`).Click(); err != nil {
		t.Fatal(err)
	}
	got := a.waitAnswers(t, 4)
	var ans struct {
		Result struct {
			Action  string         `json:"action"`
			Content map[string]any `json:"content"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(got[3]), &ans); err != nil || ans.Result.Action != "accept" || ans.Result.Content["code"] != strings.Repeat("a", 40)+"!" {
		t.Errorf("the server got %s (%v), want the answer sent anyway", got[3], err)
	}
}
