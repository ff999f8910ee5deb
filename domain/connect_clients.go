package domain

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// ConnectEntryName is the key Switchboard's entry takes in a client's
// config. It is short because clients prefix every tool name with it
// (Claude Code's mcp__<key>__), and tool names have a length limit.
const ConnectEntryName = "sb"

// ClientConfigFile is where a client keeps its MCP servers on one OS,
// written as the client's documentation writes it (~ and %APPDATA%).
type ClientConfigFile struct {
	OS   string // "macos", "windows" or "linux"
	Path string
}

// ConnectClient is an AI client Switchboard can be connected to: where its
// config file is, and the shape of the entry it expects.
type ConnectClient struct {
	ID    string // the CLI's name for it and the default client token name
	Name  string // the product's own name, not translated
	Files []ClientConfigFile
	// ServersKey is the top-level object holding the servers: VS Code
	// says "servers", everyone else "mcpServers".
	ServersKey string
	// Stdio says the client accepts only command entries (Claude
	// Desktop), so it connects through `switchboard stdio`.
	Stdio bool
	// urlKey and typ shape an HTTP entry: Gemini CLI and Qwen Code take
	// streamable HTTP as "httpUrl"; Claude Code and VS Code want a type.
	urlKey, typ string
	timeout     int // milliseconds, for clients whose default is short or unknown; 0 leaves it out
	// addCommand is the client's own command that adds a server, for
	// clients that have one documented with a header option.
	addCommand string
}

// ConnectClients lists every client the Connect page and `switchboard
// connect` know, in the order they are shown. Paths come from each
// client's documentation.
func ConnectClients() []ConnectClient {
	return []ConnectClient{
		{ID: "claude-desktop", Name: "Claude Desktop", ServersKey: "mcpServers", Stdio: true, Files: []ClientConfigFile{
			{"macos", "~/Library/Application Support/Claude/claude_desktop_config.json"},
			{"windows", `%APPDATA%\Claude\claude_desktop_config.json`},
		}},
		{ID: "claude-code", Name: "Claude Code", ServersKey: "mcpServers", urlKey: "url", typ: "http", addCommand: "claude mcp add --transport http --scope user", Files: []ClientConfigFile{
			{"macos", "~/.claude.json"}, {"linux", "~/.claude.json"}, {"windows", `%USERPROFILE%\.claude.json`},
		}},
		{ID: "cursor", Name: "Cursor", ServersKey: "mcpServers", urlKey: "url", Files: []ClientConfigFile{
			{"macos", "~/.cursor/mcp.json"}, {"linux", "~/.cursor/mcp.json"}, {"windows", `%USERPROFILE%\.cursor\mcp.json`},
		}},
		{ID: "vscode", Name: "VS Code", ServersKey: "servers", urlKey: "url", typ: "http", Files: []ClientConfigFile{
			{"macos", "~/Library/Application Support/Code/User/mcp.json"},
			{"linux", "~/.config/Code/User/mcp.json"},
			{"windows", `%APPDATA%\Code\User\mcp.json`},
		}},
		{ID: "gemini-cli", Name: "Gemini CLI", ServersKey: "mcpServers", urlKey: "httpUrl", timeout: 600000, addCommand: "gemini mcp add --scope user --transport http", Files: []ClientConfigFile{
			{"macos", "~/.gemini/settings.json"}, {"linux", "~/.gemini/settings.json"}, {"windows", `%USERPROFILE%\.gemini\settings.json`},
		}},
		{ID: "qwen-code", Name: "Qwen Code", ServersKey: "mcpServers", urlKey: "httpUrl", timeout: 600000, Files: []ClientConfigFile{
			{"macos", "~/.qwen/settings.json"}, {"linux", "~/.qwen/settings.json"}, {"windows", `%USERPROFILE%\.qwen\settings.json`},
		}},
	}
}

// FindConnectClient returns the client whose ID is id.
func FindConnectClient(id string) (ConnectClient, bool) {
	all := ConnectClients()
	i := slices.IndexFunc(all, func(c ConnectClient) bool { return strings.EqualFold(c.ID, id) })
	if i < 0 {
		return ConnectClient{}, false
	}
	return all[i], true
}

// ConnectTarget is what a client's entry points at.
type ConnectTarget struct {
	URL        string // the MCP endpoint, such as http://127.0.0.1:PORT/mcp
	Token      string // the client token's secret, or a placeholder
	Executable string // switchboard's absolute path, for stdio entries
}

// ConnectTokenEnv is the variable `switchboard stdio` reads a client token
// from.
const ConnectTokenEnv = "SWITCHBOARD_CLIENT_TOKEN"

// Entry returns the client's entry for Switchboard as JSON, its keys in
// the order the client's documentation shows them.
func (c ConnectClient) Entry(t ConnectTarget) json.RawMessage {
	var v any
	if c.Stdio {
		v = struct {
			Command string            `json:"command"`
			Args    []string          `json:"args"`
			Env     map[string]string `json:"env"`
		}{t.Executable, []string{"stdio"}, map[string]string{ConnectTokenEnv: t.Token}}
	} else {
		type entry struct {
			Type    string            `json:"type,omitempty"`
			URL     string            `json:"url,omitempty"`
			HTTPURL string            `json:"httpUrl,omitempty"`
			Headers map[string]string `json:"headers"`
			Timeout int               `json:"timeout,omitempty"`
		}
		e := entry{Type: c.typ, Headers: map[string]string{"Authorization": "Bearer " + t.Token}, Timeout: c.timeout}
		if c.urlKey == "httpUrl" {
			e.HTTPURL = t.URL
		} else {
			e.URL = t.URL
		}
		v = e
	}
	return marshalPlain(v, "")
}

// marshalPlain encodes v without escaping <, > and &: the text is pasted
// into config files by people, who should read a placeholder as written.
func marshalPlain(v any, indent string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		panic(err) // unreachable: strings, maps of strings and valid raw JSON always encode
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// AddCommand is the client's own command that adds Switchboard, quoted
// for a POSIX shell; empty for clients without one.
func (c ConnectClient) AddCommand(t ConnectTarget) string {
	if c.addCommand == "" {
		return ""
	}
	return c.addCommand + " --header 'Authorization: Bearer " + strings.ReplaceAll(t.Token, "'", `'\''`) + "' " + ConnectEntryName + " " + t.URL
}

// Snippet is the whole config a person pastes into an empty file, or
// merges into theirs: the servers object holding Switchboard's entry.
func (c ConnectClient) Snippet(t ConnectTarget) string {
	doc := map[string]map[string]json.RawMessage{c.ServersKey: {ConnectEntryName: c.Entry(t)}}
	return string(marshalPlain(doc, "  "))
}
