package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/domain/domaintest"
	"github.com/switchboard-mcp/switchboard/handlers"
)

// patience bounds every wait for something that should happen promptly; it
// only stops a broken test and never paces a passing one.
const patience = 10 * time.Second

const settingsPath = "/home/dev/.config/switchboard/mcp.json"

// fixtureToken is the access token of every fixture; the fixture's client
// sends it, as every real client of Switchboard must.
const fixtureToken = "fixture-token-0123456789-abcdefghijklmnop"

// withToken sends the access token on requests that carry no credential
// of their own, so tests speak to Switchboard as its owner does.
type withToken struct{ next http.RoundTripper }

func (w withToken) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, set := req.Header["Authorization"]; set {
		return w.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+fixtureToken)
	return w.next.RoundTrip(req)
}

// authorize adds the access token to a request served in-process.
func authorize(req *http.Request) *http.Request {
	req.Header.Set("Authorization", "Bearer "+fixtureToken)
	return req
}

// fixture is a real fleet, driven through fakes, behind the real echo
// instance on a real listener.
type fixture struct {
	fleet  *domain.Fleet
	conn   *domaintest.Connector
	clock  *domaintest.Clock
	editor *editor
	logs   *logBuffer
	echo   *echo.Echo
	srv    *httptest.Server

	doneOnce sync.Once
	done     chan struct{}
}

func newFixture(t *testing.T, configure ...func(*handlers.Options)) *fixture {
	t.Helper()
	f := &fixture{
		conn:   domaintest.NewConnector(),
		clock:  domaintest.NewClock(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)),
		editor: &editor{},
		logs:   &logBuffer{},
		done:   make(chan struct{}),
	}
	f.fleet = domain.NewFleet(domain.FleetOptions{
		SupervisorOptions: domain.SupervisorOptions{
			Connector: f.conn,
			Store:     domaintest.NewStore(),
			Scope:     domain.Scope{User: domain.LocalUser, Workspace: "test"},
			Clock:     f.clock,
			Rand:      func() float64 { return 0 },
		},
		Editor: f.editor,
	})
	opts := handlers.Options{
		Fleet:        f.fleet,
		Log:          f.logs.logger(),
		Heartbeat:    time.Hour, // no pings unless a test asks for them
		Done:         f.done,
		AllowedHosts: []string{"switchboard.test:8080", "switchboard.test"},
		Token:        fixtureToken,
	}
	for _, c := range configure {
		c(&opts)
	}
	f.echo = handlers.New(opts)
	f.srv = httptest.NewServer(f.echo)
	client := f.srv.Client()
	client.Transport = withToken{next: client.Transport}
	t.Cleanup(func() {
		f.shutdown() // event streams end, or Close would wait for them forever
		f.srv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), patience)
		defer cancel()
		if err := f.fleet.Close(ctx); err != nil {
			t.Errorf("close fleet: %v", err)
		}
	})
	return f
}

// shutdown closes Options.Done, as the binary does when it stops.
func (f *fixture) shutdown() { f.doneOnce.Do(func() { close(f.done) }) }

// stdio returns a plausible stdio server entry with settings that keep
// the supervisor from timing out or probing on its own.
func stdio(name string) domain.ServerConfig {
	return domain.ServerConfig{
		Name:           name,
		Source:         settingsPath,
		Transport:      domain.TransportStdio,
		Command:        "npx",
		Args:           []string{"-y", "@example/" + strings.ReplaceAll(name, " ", "-")},
		AutoReconnect:  true,
		ConnectTimeout: time.Minute,
	}
}

// attach starts supervising cfgs; each stays connecting until the test
// answers its attempt.
func (f *fixture) attach(t *testing.T, cfgs ...domain.ServerConfig) {
	t.Helper()
	if err := f.fleet.Attach(t.Context(), cfgs); err != nil {
		t.Fatalf("attach: %v", err)
	}
}

// connect attaches one server and completes its handshake with caps.
func (f *fixture) connect(t *testing.T, cfg domain.ServerConfig, caps domain.Capabilities) *domaintest.Session {
	t.Helper()
	f.attach(t, cfg)
	a := f.conn.Next(t)
	if a.Config.Name != cfg.Name {
		t.Fatalf("attempt for %q, want %q", a.Config.Name, cfg.Name)
	}
	sess := domaintest.NewSession(caps)
	a.Succeed(sess)
	waitFor(t, f.fleet.Hub(), cfg.Name, "connected", func(s domain.Status) bool { return s.State == domain.StateConnected })
	return sess
}

// waitFor returns the first snapshot of name that satisfies ok. It
// subscribes, so a state reached before the call counts too.
func waitFor(t *testing.T, hub *domain.Hub, name, want string, ok func(domain.Status) bool) domain.Status {
	t.Helper()
	sub := hub.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(t.Context(), patience)
	defer cancel()
	var last domain.Status
	for {
		batch, err := sub.Next(ctx)
		if err != nil {
			t.Fatalf("server %q never became %s; last snapshot: %+v", name, want, last)
		}
		for _, s := range batch {
			if s.ServerName != name {
				continue
			}
			last = s
			if ok(s) {
				return s
			}
		}
	}
}

// do sends one request through the listener and returns status and body.
func (f *fixture) do(t *testing.T, method, path string, header http.Header) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, f.srv.URL+path, nil)
	if err != nil {
		t.Fatalf("new request: %v", err)
	}
	for k, vs := range header {
		req.Header[k] = vs
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	return resp.StatusCode, body
}

// decode unmarshals body into a new T or fails the test.
func decode[T any](t *testing.T, body []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("decode %T: %v; body: %s", v, err, body)
	}
	return v
}

// wantError checks the JSON error shape.
func wantError(t *testing.T, status int, body []byte, wantStatus int, wantCode string) handlers.ErrorDTO {
	t.Helper()
	if status != wantStatus {
		t.Fatalf("status: got %d, want %d; body: %s", status, wantStatus, body)
	}
	e := decode[handlers.ErrorDTO](t, body)
	if e.Error.Code != wantCode {
		t.Errorf("error code: got %q, want %q", e.Error.Code, wantCode)
	}
	if e.Error.Message == "" {
		t.Errorf("error message is empty; body: %s", body)
	}
	return e
}

// editor is a domain.SettingsEditor that records calls and fails with err.
type editor struct {
	mu    sync.Mutex // guards calls and err
	calls []string
	err   error
}

func (e *editor) RemoveServer(ctx context.Context, path, name string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls = append(e.calls, path+"#"+name)
	return e.err
}

func (e *editor) failWith(err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.err = err
}

func (e *editor) recorded() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.calls...)
}

// logBuffer collects the handlers' JSON log records.
type logBuffer struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// records returns the records whose message is msg.
func (l *logBuffer) records(t *testing.T, msg string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(l.String()) {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("log line is not JSON: %v: %s", err, line)
		}
		if r["msg"] == msg {
			out = append(out, r)
		}
	}
	return out
}

func ptr[T any](v T) *T { return &v }
