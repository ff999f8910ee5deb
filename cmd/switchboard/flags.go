package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/mcpclient"
)

// DefaultAddr is loopback only: the dashboard can restart and remove
// servers, so it must not be reachable from the network by default. Its
// port is one no common MCP tool or dev server takes: 7777, the first
// choice, is where Gemini CLI's OAuth sign-in waits for its callback, and
// client configs that point at Switchboard must not move later.
const DefaultAddr = "127.0.0.1:7391"

// serveConfig is the resolved command line of the serve command.
type serveConfig struct {
	addr             string
	settings         string
	settingsExplicit bool // --settings or SWITCHBOARD_SETTINGS was given: a missing file is an error
	data             string
	project          string
	demo             bool
	allowedNames     []string // --allowed-mcp-server-names: an upper bound settings may narrow, never widen
	allowedSet       bool
	resultCap        int64         // bytes of one tool result kept in the store
	retention        time.Duration // how long finished invocations, audit rows and server history are kept; 0 keeps them
	approvalTimeout  time.Duration // how long an AI client's call awaiting approval is held before the client is answered
	token            tokenSource
	allowRemote      bool     // --allow-remote: a non-loopback --addr was asked for knowingly
	allowedHosts     []string // --allowed-hosts: more Host names to answer to
	frameAncestors   []string // --frame-ancestors: origins that may frame the dashboard
	maxMessageBytes  int64    // the largest message a server may send
	oauth            oauthConfig
}

// serveFlags is what serve's flag set writes to; parseServeFlags checks
// and resolves it after parsing.
type serveFlags struct {
	c                      serveConfig
	allowed, hosts, frames *string
}

// newServeFlagSet declares serve's flags, each defaulting to its
// SWITCHBOARD_* environment variable and then to the built-in default.
// The help text lists this same set, so it cannot drift from what parses.
func newServeFlagSet(getenv func(string) string) (*flag.FlagSet, *serveFlags, error) {
	f := &serveFlags{}
	fs := flag.NewFlagSet("switchboard", flag.ContinueOnError)
	demoDefault, _ := strconv.ParseBool(getenv("SWITCHBOARD_DEMO"))
	fs.StringVar(&f.c.addr, "addr", envOr(getenv, "SWITCHBOARD_ADDR", DefaultAddr), "listen address; port 0 picks a free port (env SWITCHBOARD_ADDR)")
	fs.StringVar(&f.c.settings, "settings", getenv("SWITCHBOARD_SETTINGS"), "settings file (env SWITCHBOARD_SETTINGS; default $XDG_CONFIG_HOME/switchboard/settings.json)")
	fs.StringVar(&f.c.data, "data", getenv("SWITCHBOARD_DATA"), "directory of the SQLite database (env SWITCHBOARD_DATA; default $XDG_DATA_HOME/switchboard)")
	fs.StringVar(&f.c.project, "project", getenv("SWITCHBOARD_PROJECT"), "project directory, the workspace servers are scoped to (env SWITCHBOARD_PROJECT; default the working directory)")
	capDefault, err := envInt(getenv, "SWITCHBOARD_RESULT_CAP", domain.DefaultMaxResultBytes)
	if err != nil {
		return nil, nil, err
	}
	retDefault, err := envDuration(getenv, "SWITCHBOARD_RETENTION", DefaultRetention)
	if err != nil {
		return nil, nil, err
	}
	fs.Int64Var(&f.c.resultCap, "result-cap", capDefault, "largest tool result stored whole, in bytes; larger ones are stored truncated (env SWITCHBOARD_RESULT_CAP)")
	fs.DurationVar(&f.c.retention, "retention", retDefault, "how long finished tool calls, their audit rows and servers' state and probe history are kept; 0 keeps them forever (env SWITCHBOARD_RETENTION)")
	holdDefault, err := envDuration(getenv, "SWITCHBOARD_APPROVAL_TIMEOUT", domain.DefaultApprovalTimeout)
	if err != nil {
		return nil, nil, err
	}
	fs.DurationVar(&f.c.approvalTimeout, "approval-timeout", holdDefault, "how long an AI client's call to an ask-first tool waits for approval before the client is told to retry (env SWITCHBOARD_APPROVAL_TIMEOUT)")
	f.allowed = fs.String("allowed-mcp-server-names", getenv("SWITCHBOARD_ALLOWED_MCP_SERVER_NAMES"),
		"comma-separated servers that may connect at all; edits of mcp.allowed may narrow this, never widen it (env SWITCHBOARD_ALLOWED_MCP_SERVER_NAMES)")
	fs.BoolVar(&f.c.demo, "demo", demoDefault, "run the built-in demo servers instead of a settings file (env SWITCHBOARD_DEMO)")
	fs.StringVar(&f.c.token.file, "token-file", getenv("SWITCHBOARD_TOKEN_FILE"), "file holding the access token a host app chose (env SWITCHBOARD_TOKEN_FILE; SWITCHBOARD_TOKEN passes the token itself; default DATA/token, created on first start)")
	remoteDefault, _ := strconv.ParseBool(getenv("SWITCHBOARD_ALLOW_REMOTE"))
	fs.BoolVar(&f.c.allowRemote, "allow-remote", remoteDefault, "allow a non-loopback --addr; the token then travels in clear text unless a TLS proxy is in front (env SWITCHBOARD_ALLOW_REMOTE)")
	f.hosts = fs.String("allowed-hosts", getenv("SWITCHBOARD_ALLOWED_HOSTS"), "comma-separated extra Host names (host or host:port) to answer to, e.g. a LAN name (env SWITCHBOARD_ALLOWED_HOSTS)")
	f.frames = fs.String("frame-ancestors", getenv("SWITCHBOARD_FRAME_ANCESTORS"), "space-separated origins allowed to show the dashboard in an iframe; default none (env SWITCHBOARD_FRAME_ANCESTORS)")
	msgDefault, err := envInt(getenv, "SWITCHBOARD_MAX_MESSAGE_BYTES", mcpclient.DefaultMaxMessageBytes)
	if err != nil {
		return nil, nil, err
	}
	fs.StringVar(&f.c.oauth.keyFile, "key-file", getenv("SWITCHBOARD_KEY_FILE"), "file holding the key that encrypts remote servers' sign-ins at rest, created when missing (env SWITCHBOARD_KEY_FILE; default the OS keychain, else DATA/oauth.key)")
	fs.StringVar(&f.c.oauth.clientMetadataURL, "oauth-client-metadata-url", getenv("SWITCHBOARD_OAUTH_CLIENT_METADATA_URL"), "client ID metadata document URL Switchboard signs in with where a server supports them (env SWITCHBOARD_OAUTH_CLIENT_METADATA_URL)")
	f.c.oauth.keychain = keychainWanted(getenv)
	fs.Int64Var(&f.c.maxMessageBytes, "max-message-bytes", msgDefault, "largest message a server may send, in bytes; a server that sends more is stopped with a protocol error (env SWITCHBOARD_MAX_MESSAGE_BYTES)")
	return fs, f, nil
}

// parseServeFlags reads serve's flags and resolves what they leave open.
func parseServeFlags(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	fs, f, err := newServeFlagSet(getenv)
	if err != nil {
		return serveConfig{}, err
	}
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return serveConfig{}, err
	}
	c := f.c
	allowed, hosts, frames := f.allowed, f.hosts, f.frames
	c.token.value = getenv("SWITCHBOARD_TOKEN")
	c.allowedHosts = splitList(*hosts, ",")
	c.frameAncestors = splitList(*frames, " ")
	for _, o := range c.frameAncestors {
		if err := checkFrameAncestor(o); err != nil {
			return serveConfig{}, err
		}
	}
	if c.maxMessageBytes < 64<<10 {
		return serveConfig{}, fmt.Errorf("--max-message-bytes must be at least 65536, got %d", c.maxMessageBytes)
	}
	if err := checkListenAddr(c.addr, c.allowRemote); err != nil {
		return serveConfig{}, err
	}
	if fs.NArg() > 0 {
		return serveConfig{}, fmt.Errorf("unexpected argument %q (see switchboard help)", fs.Arg(0))
	}
	c.settingsExplicit = c.settings != ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "allowed-mcp-server-names" {
			c.allowedSet = true
		}
	})
	if *allowed != "" {
		c.allowedSet = true
		for _, n := range strings.Split(*allowed, ",") {
			if n = strings.TrimSpace(n); n != "" {
				c.allowedNames = append(c.allowedNames, n)
			}
		}
	}
	if c.resultCap < 1024 {
		return serveConfig{}, fmt.Errorf("--result-cap must be at least 1024 bytes, got %d", c.resultCap)
	}
	if c.retention < 0 {
		return serveConfig{}, fmt.Errorf("--retention must not be negative, got %s", c.retention)
	}
	if c.approvalTimeout <= 0 {
		return serveConfig{}, fmt.Errorf("--approval-timeout must be positive, got %s", c.approvalTimeout)
	}
	if c.data == "" {
		if c.data, err = defaultDataDir(getenv); err != nil {
			return serveConfig{}, err
		}
	}
	if c.project == "" {
		if c.project, err = os.Getwd(); err != nil {
			return serveConfig{}, fmt.Errorf("project directory: %w", err)
		}
	}
	if c.project, err = filepath.Abs(c.project); err != nil {
		return serveConfig{}, fmt.Errorf("project directory: %w", err)
	}
	c.token.data = c.data
	return c, nil
}

// splitList splits a flag's list on sep, dropping empty items.
func splitList(s, sep string) []string {
	var out []string
	for _, v := range strings.Split(s, sep) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// DefaultRetention keeps a month of tool calls: long enough to audit what
// happened, short enough that the database does not grow without end.
const DefaultRetention = 30 * 24 * time.Hour

func envInt(getenv func(string) string, key string, def int64) (int64, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	return n, nil
}

func envDuration(getenv func(string) string, key string, def time.Duration) (time.Duration, error) {
	v := getenv(key)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", key, err)
	}
	return d, nil
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// defaultDataDir follows the XDG base directory spec.
func defaultDataDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "switchboard"), nil
	}
	home := getenv("HOME")
	if home == "" {
		return "", fmt.Errorf("cannot find a data directory: set --data, XDG_DATA_HOME or HOME")
	}
	return filepath.Join(home, ".local", "share", "switchboard"), nil
}
