// Command conformance is the client the official MCP conformance runner
// (@modelcontextprotocol/conformance) starts for each client scenario. It
// stands for Switchboard as a person uses it: it writes a settings file
// naming the runner's mock server, starts the real switchboard binary on
// 127.0.0.1:0 with its own data directory and key file, and then works only
// through Switchboard's HTTP API — signing in with a redirect-following HTTP
// client as the browser, answering elicitations, calling the scenario's
// tools and signing in again when a call needs more access. The runner
// judges what reached its mock server; this program only reports, on its
// exit code, whether every step it took ended well.
//
// The runner appends the server URL as the last argument and names the
// scenario in MCP_CONFORMANCE_SCENARIO (with credentials, for some, in
// MCP_CONFORMANCE_CONTEXT). Its MCP_CONFORMANCE_PROTOCOL_VERSION is not
// passed on: Switchboard must find each server's protocol era itself. SWITCHBOARD_CONFORMANCE_BINARY names the
// switchboard binary (default: "switchboard" beside this program, then on
// PATH); SWITCHBOARD_CONFORMANCE_TIMEOUT bounds the whole run (default 50s,
// below the runner's own timeout so that the daemon is always stopped).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// cimdURL is the client ID metadata document URL the conformance suite's
// authorization servers expect from a client that supports CIMD.
const cimdURL = "https://conformance-test.local/client-metadata.json"

// serverName is the name the mock server gets in the settings file.
const serverName = "conf"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance client: %v\n", err)
		os.Exit(1)
	}
}

// runConfig is what the runner told this process, resolved.
type runConfig struct {
	serverURL string
	scenario  string
	context   scenarioContext
	binary    string
	timeout   time.Duration
}

// scenarioContext is the part of MCP_CONFORMANCE_CONTEXT a person would
// type into the settings: a pre-registered client's credentials.
type scenarioContext struct {
	Name         string `json:"name"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

func parseConfig(args []string, getenv func(string) string) (runConfig, error) {
	if len(args) == 0 {
		return runConfig{}, errors.New("the server URL must be the last argument")
	}
	c := runConfig{serverURL: args[len(args)-1], scenario: getenv("MCP_CONFORMANCE_SCENARIO"), timeout: 50 * time.Second}
	if raw := getenv("MCP_CONFORMANCE_CONTEXT"); raw != "" {
		if err := json.Unmarshal([]byte(raw), &c.context); err != nil {
			return runConfig{}, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	if s := getenv("SWITCHBOARD_CONFORMANCE_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			return runConfig{}, fmt.Errorf("SWITCHBOARD_CONFORMANCE_TIMEOUT: %w", err)
		}
		c.timeout = d
	}
	c.binary = getenv("SWITCHBOARD_CONFORMANCE_BINARY")
	if c.binary == "" {
		c.binary = siblingBinary()
	}
	return c, nil
}

// siblingBinary is switchboard beside this program when it is there, so a
// test can build both into one directory; else the name for PATH lookup.
func siblingBinary() string {
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), "switchboard")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("switchboard"); err == nil {
		return p
	}
	return "switchboard"
}

func run(ctx context.Context, args []string, getenv func(string) string, log io.Writer) error {
	cfg, err := parseConfig(args, getenv)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout)
	defer cancel()
	dir, err := os.MkdirTemp("", "switchboard-conformance-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	settings, err := settingsFile(cfg)
	if err != nil {
		return err
	}
	d, err := startDaemon(ctx, cfg.binary, dir, settings)
	if err != nil {
		return err
	}
	defer func() {
		d.stop()
		d.copyLog(log)
	}()
	fmt.Fprintf(log, "scenario %s: switchboard at %s, server %s\n", cfg.scenario, d.base, cfg.serverURL)

	a := newAPI(d.base, d.token)
	s := &session{api: a, log: log, scenario: cfg.scenario}
	return s.drive(ctx)
}

// settingsFile is the settings a person would write for the runner's
// server: its URL, and pre-registered client credentials when the scenario
// hands some out.
func settingsFile(cfg runConfig) ([]byte, error) {
	server := map[string]any{"type": "http", "url": cfg.serverURL}
	if cfg.context.ClientID != "" {
		oauth := map[string]any{"clientId": cfg.context.ClientID}
		if cfg.context.ClientSecret != "" {
			oauth["clientSecret"] = cfg.context.ClientSecret
		}
		server["oauth"] = oauth
	}
	return json.MarshalIndent(map[string]any{"mcpServers": map[string]any{serverName: server}}, "", "  ")
}
