package main

import (
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"strings"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/oauth"
	"github.com/switchboard-mcp/switchboard/sqlite"
)

// oauthConfig is how remote servers' sign-ins are kept.
type oauthConfig struct {
	keyFile           string // --key-file
	clientMetadataURL string // --oauth-client-metadata-url
	keychain          bool   // false with SWITCHBOARD_KEYCHAIN=off (tests, CI)
}

// newSignIns builds the OAuth manager: the key that seals tokens at rest
// (key file, keychain, or a file in the data directory, in that order) and
// the store in db. onChange learns of every change of a server's sign-in.
func newSignIns(c serveConfig, db *sqlite.DB, log *slog.Logger, onChange func(string)) (*oauth.Manager, error) {
	ko := oauth.KeyOptions{File: c.oauth.keyFile, DataDir: c.data}
	if c.oauth.keychain {
		ko.Keychain = oauth.SystemKeychain{}
	}
	key, source, err := oauth.LoadKey(ko)
	if err != nil {
		return nil, fmt.Errorf("sign-in key: %w", err)
	}
	sealer, err := oauth.NewSealer(key)
	if err != nil {
		return nil, fmt.Errorf("sign-in key: %w", err)
	}
	log.Info("remote servers' sign-ins are encrypted at rest", "key_source", source)
	return oauth.NewManager(oauth.ManagerOptions{
		Store:             db.OAuthStore(),
		Sealer:            sealer,
		KeySource:         source,
		ClientMetadataURL: c.oauth.clientMetadataURL,
		Clock:             domain.SystemClock{},
		Log:               log,
		OnChange:          onChange,
	}), nil
}

// keychainWanted reports whether to ask the OS keychain for the key:
// not with SWITCHBOARD_KEYCHAIN=off (tests, CI), and on Linux and the BSDs
// only when a session bus is named, since reaching the Secret Service
// without one would start a D-Bus daemon.
func keychainWanted(getenv func(string) string) bool {
	if strings.EqualFold(getenv("SWITCHBOARD_KEYCHAIN"), "off") {
		return false
	}
	switch runtime.GOOS {
	case "darwin", "windows":
		return true
	}
	return getenv("DBUS_SESSION_BUS_ADDRESS") != ""
}

// redirectURI is the OAuth callback on Switchboard's own server, by IP
// literal (RFC 8252 §7.3) when it listens on loopback.
func redirectURI(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr + handlers.PathOAuthCallback
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() || ip.IsLoopback() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + handlers.PathOAuthCallback
}
