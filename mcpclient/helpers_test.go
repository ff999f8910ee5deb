package mcpclient_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// Generous deadlines: the tests must pass on a loaded two-core machine
// with the race detector on. None of them is waited out when things work.
const (
	connectTimeout = 30 * time.Second
	eventTimeout   = 15 * time.Second
)

func connectCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	t.Cleanup(cancel)
	return ctx
}

// connect opens a session that is closed when the test ends.
func connect(t *testing.T, c *mcpclient.Connector, cfg domain.ServerConfig, stderr io.Writer) domain.Session {
	t.Helper()
	s, err := c.Connect(connectCtx(t), cfg, stderr)
	if err != nil {
		t.Fatalf("Connect(%s): %v", cfg.Target(), err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// connectErr expects Connect to fail and returns its *domain.ConnError.
func connectErr(t *testing.T, c *mcpclient.Connector, cfg domain.ServerConfig, stderr io.Writer) *domain.ConnError {
	t.Helper()
	s, err := c.Connect(connectCtx(t), cfg, stderr)
	if err == nil {
		_ = s.Close()
		t.Fatalf("Connect(%s) succeeded, want an error", cfg.Target())
	}
	var ce *domain.ConnError
	if !errors.As(err, &ce) {
		t.Fatalf("Connect error %T %v, want a *domain.ConnError", err, err)
	}
	return ce
}

// waitDone waits for the session to be lost and returns why.
func waitDone(t *testing.T, s domain.Session) *domain.ConnError {
	t.Helper()
	select {
	case <-s.Done():
	case <-time.After(eventTimeout):
		t.Fatalf("Done not closed within %s", eventTimeout)
	}
	var ce *domain.ConnError
	if !errors.As(s.Err(), &ce) {
		t.Fatalf("Err() = %v, want a *domain.ConnError", s.Err())
	}
	return ce
}

// waitChange waits until Changes delivers want, skipping other kinds.
func waitChange(t *testing.T, s domain.Session, want domain.ListKind) {
	t.Helper()
	deadline := time.After(eventTimeout)
	for {
		select {
		case got := <-s.Changes():
			if got == want {
				return
			}
		case <-deadline:
			t.Fatalf("no %s list_changed within %s", want, eventTimeout)
		}
	}
}

// names lists every name a server offers, sorted, for comparisons.
type names struct {
	Tools, Resources, Templates, Prompts []string
}

func namesOf(c domain.Capabilities) names {
	var n names
	for _, t := range c.Tools {
		n.Tools = append(n.Tools, t.Name)
	}
	for _, r := range c.Resources {
		n.Resources = append(n.Resources, r.URI)
	}
	for _, r := range c.ResourceTemplates {
		n.Templates = append(n.Templates, r.URITemplate)
	}
	for _, p := range c.Prompts {
		n.Prompts = append(n.Prompts, p.Name)
	}
	for _, l := range [][]string{n.Tools, n.Resources, n.Templates, n.Prompts} {
		slices.Sort(l)
	}
	return n
}

func (n names) equal(o names) bool {
	return slices.Equal(n.Tools, o.Tools) && slices.Equal(n.Resources, o.Resources) &&
		slices.Equal(n.Templates, o.Templates) && slices.Equal(n.Prompts, o.Prompts)
}

// demoNames asks the demo server what it offers through a plain in-process
// mcp-go client, independently of the code under test.
func demoNames(t *testing.T) names {
	t.Helper()
	ctx := connectCtx(t)
	c, err := client.NewInProcessClient(demoserver.New(demoserver.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "cross-check", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatal(err)
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := c.ListResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	prompts, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var n names
	for _, x := range tools.Tools {
		n.Tools = append(n.Tools, x.Name)
	}
	for _, x := range res.Resources {
		n.Resources = append(n.Resources, x.URI)
	}
	for _, x := range tpl.ResourceTemplates {
		n.Templates = append(n.Templates, x.URITemplate.Raw())
	}
	for _, x := range prompts.Prompts {
		n.Prompts = append(n.Prompts, x.Name)
	}
	for _, l := range [][]string{n.Tools, n.Resources, n.Templates, n.Prompts} {
		slices.Sort(l)
	}
	if len(n.Tools) == 0 || len(n.Resources) == 0 || len(n.Templates) == 0 || len(n.Prompts) == 0 {
		t.Fatalf("demo server offers %+v; every list should have entries", n)
	}
	return n
}

func loadAll(t *testing.T, s domain.Session) domain.Capabilities {
	t.Helper()
	caps, err := domain.LoadAll(connectCtx(t), s)
	if err != nil {
		t.Fatalf("LoadAll: %v", err)
	}
	return caps
}
