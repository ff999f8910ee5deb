package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// runToken prints the access token of the data directory, creating it if
// this is the first use, so a person can sign in without the start-up line.
func runToken(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs, data, rotate := newTokenFlagSet(getenv)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (see switchboard help)", fs.Arg(0))
	}
	dir, err := dataDir(*data, getenv)
	if err != nil {
		return err
	}
	ensure := ensureToken
	if *rotate {
		ensure = rotateToken
	}
	tok, err := ensure(dir)
	if err != nil {
		return err
	}
	if *rotate {
		fmt.Fprintln(stderr, "switchboard: new access token written; restart Switchboard to use it (the old one and every session end then)")
	}
	_, err = fmt.Fprintln(stdout, tok)
	return err
}

// newTokenFlagSet declares the token command's flags; the help text lists
// the same set.
func newTokenFlagSet(getenv func(string) string) (fs *flag.FlagSet, data *string, rotate *bool) {
	fs = flag.NewFlagSet("switchboard token", flag.ContinueOnError)
	data = fs.String("data", getenv("SWITCHBOARD_DATA"), "data directory of the instance (env SWITCHBOARD_DATA; default $XDG_DATA_HOME/switchboard)")
	rotate = fs.Bool("rotate", false, "replace the token with a new one: every signed-in browser and API client must sign in again once Switchboard restarts")
	return fs, data, rotate
}

// dataDir resolves a --data value, empty meaning the default directory.
func dataDir(flagValue string, getenv func(string) string) (string, error) {
	if flagValue == "" {
		return defaultDataDir(getenv)
	}
	return filepath.Abs(flagValue)
}

// tokenCommand is what the sign-in page tells a person to run to see the
// token this instance uses.
func tokenCommand(cfg serveConfig, getenv func(string) string) string {
	switch {
	case cfg.token.value != "":
		return "echo $SWITCHBOARD_TOKEN"
	case cfg.token.file != "":
		return "cat " + shellQuote(cfg.token.file)
	}
	if def, err := defaultDataDir(getenv); err == nil && def == cfg.data && getenv("SWITCHBOARD_DATA") == "" {
		return "switchboard token"
	}
	return "switchboard token --data " + shellQuote(cfg.data)
}

// shellQuote quotes s for a POSIX shell when it needs quoting.
func shellQuote(s string) string {
	for _, r := range s {
		if !(tokenChar(r) || r == '/' || r == '=' || r == ':' || r == '+' || r == ',') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

// noTokenError says the data directory has no token file: no instance
// has run there. `switchboard status` says it in the person's language.
type noTokenError struct {
	dir string
	err error
}

func (e *noTokenError) Error() string {
	return fmt.Sprintf("no access token in %s: is Switchboard running with --data %s? (or pass --token-file or SWITCHBOARD_TOKEN)", e.dir, e.dir)
}

func (e *noTokenError) Unwrap() error { return e.err }

// statusToken finds the token of the instance `switchboard status` asks:
// the host app's (SWITCHBOARD_TOKEN, --token-file), else the data
// directory's. It never creates one: no token file means no instance.
func statusToken(data, file string, getenv func(string) string) (string, error) {
	src := tokenSource{value: getenv("SWITCHBOARD_TOKEN"), file: file}
	if src.value != "" || src.file != "" {
		return src.load()
	}
	dir, err := dataDir(data, getenv)
	if err != nil {
		return "", err
	}
	tok, err := readOwnTokenFile(filepath.Join(dir, tokenFileName))
	if errors.Is(err, fs.ErrNotExist) {
		return "", &noTokenError{dir: dir, err: err}
	}
	return tok, err
}

// tokenVars are the environment variables that carry the access token, or
// a client token a bridge connects with: supervised servers never see them.
var tokenVars = []string{"SWITCHBOARD_TOKEN", "SWITCHBOARD_TOKEN_FILE", "SWITCHBOARD_CLIENT_TOKEN"}

// withoutToken is getenv with the token's variables hidden, for expanding
// ${VAR} in settings files.
func withoutToken(getenv func(string) string) func(string) string {
	return func(key string) string {
		for _, k := range tokenVars {
			if strings.EqualFold(key, k) {
				return ""
			}
		}
		return getenv(key)
	}
}

// keepTokenFromChildren removes the token's variables from the process
// environment, which every stdio server inherits, and returns getenv
// still answering them for Switchboard itself.
func keepTokenFromChildren() func(string) string {
	kept := map[string]string{}
	for _, k := range tokenVars {
		if v, ok := os.LookupEnv(k); ok {
			kept[k] = v
			os.Unsetenv(k)
		}
	}
	return func(key string) string {
		if v, ok := kept[key]; ok {
			return v
		}
		return os.Getenv(key)
	}
}
