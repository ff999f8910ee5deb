package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"
)

// Settings is one parsed settings file: the entries that resolved and the
// problems of those that did not, so one bad entry never hides the rest.
type Settings struct {
	Path     string
	Servers  []ServerConfig // sorted by name
	Problems []*SettingsError
	// Gate holds mcp.allowed and mcp.excluded. "allowed": [] denies all;
	// an absent key allows all, so AllowedSet tells the two apart.
	Gate Gate
}

// serverKeys are the top-level keys that hold server maps: the form Claude
// Desktop, Cursor, Gemini CLI and Qwen Code write, and VS Code's.
var serverKeys = []string{"mcpServers", "servers"}

// rawServer is an entry as written; unknown keys are ignored.
type rawServer struct {
	Type                  string            `json:"type"`
	Command               string            `json:"command"`
	Args                  []string          `json:"args"`
	Env                   map[string]string `json:"env"`
	Cwd                   string            `json:"cwd"`
	URL                   string            `json:"url"`
	HTTPURL               string            `json:"httpUrl"`
	Headers               map[string]string `json:"headers"`
	Disabled              bool              `json:"disabled"`
	AutoReconnect         *bool             `json:"autoReconnect"`
	KeepAliveSeconds      *float64          `json:"keepAliveSeconds"`
	ConnectTimeoutSeconds *float64          `json:"connectTimeoutSeconds"`
	StartTimeoutSeconds   *float64          `json:"startTimeoutSeconds"`
	CallTimeoutSeconds    *float64          `json:"callTimeoutSeconds"`
	OAuth                 *OAuthSettings    `json:"oauth"`
}

// ParseSettings reads a settings file's bytes. A file that is not a JSON
// object is an error; a bad server entry is a Problem beside the good ones.
// getenv resolves ${VAR} references.
func ParseSettings(path string, data []byte, getenv func(string) string) (Settings, error) {
	set := Settings{Path: path}
	if len(bytes.TrimSpace(data)) == 0 {
		return set, &SettingsError{File: path, Line: 1, Column: 1, Message: "the file is empty"}
	}
	// Check the syntax only: a number too large for float64 is the problem
	// of the entry that holds it, not of the whole file.
	var probe json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return set, jsonError(path, data, err)
	}
	if probe = bytes.TrimSpace(probe); len(probe) == 0 || probe[0] != '{' {
		return set, &SettingsError{File: path, Line: 1, Column: 1, Message: "the file must hold a JSON object"}
	}
	entries, err := scanEntries(data)
	if err != nil {
		return set, jsonError(path, data, err)
	}
	var top struct {
		MCP struct {
			Allowed  *[]string `json:"allowed"`
			Excluded []string  `json:"excluded"`
		} `json:"mcp"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return set, &SettingsError{File: path, Line: 1, Column: 1, Message: `"mcp" must be {"allowed": [names], "excluded": [names]}`}
	}
	if top.MCP.Allowed != nil {
		set.Gate.Allowed, set.Gate.AllowedSet = *top.MCP.Allowed, true
	}
	set.Gate.Excluded = top.MCP.Excluded
	seen := map[string]bool{}
	for _, e := range entries {
		fail := func(off int64, format string, args ...any) {
			line, col := position(data, off)
			set.Problems = append(set.Problems, &SettingsError{File: path, Line: line, Column: col,
				Server: e.name, Message: fmt.Sprintf(format, args...)})
		}
		if e.notObject {
			fail(e.valueStart, "%q must be an object mapping server names to entries", e.group)
			continue
		}
		if seen[e.name] {
			fail(e.keyStart, "defined more than once")
			continue
		}
		seen[e.name] = true
		if msg := checkName(e.name); msg != "" {
			fail(e.keyStart, "%s", msg)
			continue
		}
		cfg, off, msg := resolveEntry(e, data[e.valueStart:e.valueEnd], getenv)
		if msg != "" {
			fail(e.valueStart+off, "%s", msg)
			continue
		}
		cfg.Source = path
		set.Servers = append(set.Servers, cfg)
	}
	sort.Slice(set.Servers, func(i, j int) bool { return set.Servers[i].Name < set.Servers[j].Name })
	return set, nil
}

func jsonError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := int64(0)
	msg := err.Error()
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
		msg = "invalid JSON: " + syn.Error()
		// Offset counts the bad character itself; point at it, not past it.
		if off > 0 && strings.HasPrefix(syn.Error(), "invalid character") {
			off--
		}
	case errors.As(err, &typ):
		off = typ.Offset
	case errors.Is(err, errUnexpectedEnd):
		off = int64(len(data))
		msg = "invalid JSON: unexpected end of input"
	}
	line, col := position(data, off)
	return &SettingsError{File: path, Line: line, Column: col, Message: msg}
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

func expand(s string, getenv func(string) string) string {
	return envRef.ReplaceAllStringFunc(s, func(m string) string { return getenv(m[2 : len(m)-1]) })
}

// resolveEntry turns one entry into a ServerConfig, or returns the offset
// within raw and a message saying what is wrong with it.
func resolveEntry(e entry, raw []byte, getenv func(string) string) (ServerConfig, int64, string) {
	if len(raw) == 0 || raw[0] != '{' {
		return ServerConfig{}, 0, "the entry must be a JSON object"
	}
	var r rawServer
	if err := json.Unmarshal(raw, &r); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			if rng, ok := rangeFor(typ.Field); ok && strings.HasPrefix(typ.Value, "number") {
				// A number beyond float64, such as 1e400.
				return ServerConfig{}, valueOffset(raw, typ.Field), rangeMessage(rng, strings.TrimPrefix(typ.Value, "number "))
			}
			return ServerConfig{}, max(typ.Offset-1, 0), fmt.Sprintf("%q has the wrong type: got %s, want %s", typ.Field, typ.Value, typ.Type)
		}
		return ServerConfig{}, 0, "the entry must be a JSON object"
	}
	cfg := ServerConfig{
		Name:           e.name,
		Command:        expand(r.Command, getenv),
		Cwd:            expand(r.Cwd, getenv),
		Disabled:       r.Disabled,
		AutoReconnect:  r.AutoReconnect == nil || *r.AutoReconnect,
		KeepAlive:      DefaultKeepAlive,
		ConnectTimeout: DefaultConnectTimeout,
		StartTimeout:   DefaultStartTimeout,
		CallTimeout:    DefaultCallTimeout,
	}
	for _, a := range r.Args {
		cfg.Args = append(cfg.Args, expand(a, getenv))
	}
	cfg.Env = expandMap(r.Env, getenv)
	cfg.Headers = expandMap(r.Headers, getenv)
	cfg.OAuth = expandOAuth(r.OAuth, getenv)
	if off, msg := applyTimings(&cfg, r, raw); msg != "" {
		return ServerConfig{}, off, msg
	}
	rawURL := r.URL
	if r.HTTPURL != "" {
		rawURL = r.HTTPURL
	}
	cfg.URL = expand(rawURL, getenv)
	cfg.Raw = written(r, rawURL)

	switch strings.ToLower(r.Type) {
	case "stdio":
		cfg.Transport = TransportStdio
	case "http", "streamable-http", "streamablehttp", "streamable_http":
		cfg.Transport = TransportHTTP
	case "sse":
		cfg.Transport = TransportSSE
	case "":
		switch {
		case r.HTTPURL != "":
			cfg.Transport = TransportHTTP
		case r.URL != "":
			cfg.Transport = TransportHTTP
			if u, err := url.Parse(cfg.URL); err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/sse") {
				cfg.Transport = TransportSSE
			}
		case r.Command != "":
			cfg.Transport = TransportStdio
		default:
			return ServerConfig{}, 0, `needs "command" (a local process) or "url" (a remote server)`
		}
	default:
		return ServerConfig{}, 0, fmt.Sprintf(`unknown "type" %q: use "stdio", "http" or "sse"`, r.Type)
	}
	switch cfg.Transport {
	case TransportStdio:
		if cfg.Command == "" {
			return ServerConfig{}, 0, `a stdio server needs "command"`
		}
	default:
		if cfg.URL == "" {
			return ServerConfig{}, 0, fmt.Sprintf(`an %s server needs "url"`, strings.ToUpper(string(cfg.Transport)))
		}
		u, err := url.Parse(cfg.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return ServerConfig{}, 0, fmt.Sprintf(`"url" must be an http:// or https:// address, got %q`, NewRedactor().Redact(cfg.URL))
		}
	}
	return cfg, 0, ""
}

func expandMap(m map[string]string, getenv func(string) string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = expand(v, getenv)
	}
	return out
}

// expandOAuth resolves ${VAR} in every field of an "oauth" key.
func expandOAuth(o *OAuthSettings, getenv func(string) string) *OAuthSettings {
	if o == nil {
		return nil
	}
	out := &OAuthSettings{
		ClientID:          expand(o.ClientID, getenv),
		ClientSecret:      expand(o.ClientSecret, getenv),
		ClientMetadataURL: expand(o.ClientMetadataURL, getenv),
	}
	for _, sc := range o.Scopes {
		out.Scopes = append(out.Scopes, expand(sc, getenv))
	}
	return out
}
