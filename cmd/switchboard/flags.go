package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// DefaultAddr is loopback only: the dashboard can restart and remove
// servers, so it must not be reachable from the network by default.
const DefaultAddr = "127.0.0.1:7777"

// serveConfig is the resolved command line of the serve command.
type serveConfig struct {
	addr             string
	settings         string
	settingsExplicit bool // --settings or SWITCHBOARD_SETTINGS was given: a missing file is an error
	data             string
	project          string
	demo             bool
}

// parseServeFlags reads flags, each defaulting to its SWITCHBOARD_*
// environment variable and then to the built-in default.
func parseServeFlags(args []string, getenv func(string) string, stderr io.Writer) (serveConfig, error) {
	fs := flag.NewFlagSet("switchboard", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c serveConfig
	demoDefault, _ := strconv.ParseBool(getenv("SWITCHBOARD_DEMO"))
	fs.StringVar(&c.addr, "addr", envOr(getenv, "SWITCHBOARD_ADDR", DefaultAddr), "listen address; port 0 picks a free port (env SWITCHBOARD_ADDR)")
	fs.StringVar(&c.settings, "settings", getenv("SWITCHBOARD_SETTINGS"), "settings file (env SWITCHBOARD_SETTINGS; default $XDG_CONFIG_HOME/switchboard/settings.json)")
	fs.StringVar(&c.data, "data", getenv("SWITCHBOARD_DATA"), "directory of the SQLite database (env SWITCHBOARD_DATA; default $XDG_DATA_HOME/switchboard)")
	fs.StringVar(&c.project, "project", getenv("SWITCHBOARD_PROJECT"), "project directory, the workspace servers are scoped to (env SWITCHBOARD_PROJECT; default the working directory)")
	fs.BoolVar(&c.demo, "demo", demoDefault, "run the built-in demo servers instead of a settings file (env SWITCHBOARD_DEMO)")
	if err := fs.Parse(args); err != nil {
		return serveConfig{}, err
	}
	if fs.NArg() > 0 {
		return serveConfig{}, fmt.Errorf("unexpected argument %q (see switchboard help)", fs.Arg(0))
	}
	c.settingsExplicit = c.settings != ""
	var err error
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
	return c, nil
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
