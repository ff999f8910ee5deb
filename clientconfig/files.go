package clientconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// Options configures Files; every field but Settings has a default.
type Options struct {
	// Settings is Switchboard's user settings file, where imports go;
	// empty disables importing.
	Settings string
	// Editor edits the settings file; share the process's one, whose
	// lock keeps two edits from undoing each other. Nil makes one.
	Editor *settingsfile.Editor
	// Getenv resolves ~ and %APPDATA% in the clients' paths.
	Getenv func(string) string
	GOOS   string           // default runtime.GOOS
	Now    func() time.Time // names backups; default time.Now
}

// Files reads and edits the AI clients' config files.
type Files struct {
	opts Options
	mu   sync.Mutex // serializes changes and undos, so two never share a backup
}

// New returns Files with opts' defaults filled in.
func New(opts Options) *Files {
	if opts.Editor == nil {
		opts.Editor = &settingsfile.Editor{}
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	if opts.GOOS == "" {
		opts.GOOS = runtime.GOOS
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Files{opts: opts}
}

// Path is the client's user-wide config file on this machine.
func (f *Files) Path(c domain.ConnectClient) (string, error) {
	return c.ConfigPath(f.opts.GOOS, f.opts.Getenv)
}

// Inspect reads the client's config file at path: whether it exists,
// holds Switchboard's entry, which other servers it lists (and which of
// those Switchboard's settings already name), and the backup an undo
// would restore.
func (f *Files) Inspect(ctx context.Context, c domain.ConnectClient, path string) (domain.ClientConfigState, error) {
	if err := ctx.Err(); err != nil {
		return domain.ClientConfigState{}, err
	}
	st := domain.ClientConfigState{Path: path, CanImport: f.opts.Settings != ""}
	data, err := readClientFile(path)
	if err != nil {
		return st, err
	}
	st.Exists = data != nil
	servers, err := serversOf(data, c.ServersKey)
	if err != nil {
		return st, fmt.Errorf("%s: %w", path, err)
	}
	_, st.HasEntry = servers[domain.ConnectEntryName]
	delete(servers, domain.ConnectEntryName)
	var taken map[string]json.RawMessage
	if st.CanImport {
		if taken, err = settingsServers(f.opts.Settings); err != nil {
			return st, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		s := describe(name, servers[name])
		_, s.Taken = taken[name]
		st.Servers = append(st.Servers, s)
	}
	st.Backup = newestBackup(path)
	return st, nil
}

// OtherServers returns the entries the client's file at path lists
// beside Switchboard's own.
func (f *Files) OtherServers(c domain.ConnectClient, path string) (map[string]json.RawMessage, error) {
	data, err := readClientFile(path)
	if err != nil {
		return nil, err
	}
	servers, err := serversOf(data, c.ServersKey)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	delete(servers, domain.ConnectEntryName)
	return servers, nil
}

// Apply makes the change to the client's file at path: it sets
// Switchboard's entry when ch has one, moves the servers ch names into
// Switchboard's settings (a name the settings already have keeps theirs),
// and replaces the file after copying it to a timestamped backup. What an
// import added is recorded beside the backup, so Undo can take exactly
// those out again.
func (f *Files) Apply(ctx context.Context, c domain.ConnectClient, path string, ch domain.ClientConfigChange) (domain.ClientConfigResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var res domain.ClientConfigResult
	if err := ctx.Err(); err != nil {
		return res, err
	}
	old, err := readClientFile(path)
	if err != nil {
		return res, err
	}
	servers, err := serversOf(old, c.ServersKey)
	if err != nil {
		return res, fmt.Errorf("%s: %w", path, err)
	}
	edited := old
	if ch.Entry != nil {
		if edited, err = settingsfile.SetEntry(old, c.ServersKey, domain.ConnectEntryName, ch.Entry); err != nil {
			return res, fmt.Errorf("%s: %w", path, err)
		}
	}
	chosen := map[string]json.RawMessage{}
	for _, name := range ch.Import {
		raw, ok := servers[name]
		if !ok || name == domain.ConnectEntryName {
			return res, fmt.Errorf("%s lists no server %q: %w", path, name, domain.ErrNotFound)
		}
		chosen[name] = raw
		if edited, err = domain.RemoveServerEntry(path, edited, name); err != nil {
			return res, err
		}
	}
	if len(chosen) > 0 && f.opts.Settings == "" {
		return res, domain.ErrNoSettingsFile
	}
	if ch.Entry == nil && len(chosen) == 0 {
		return res, nil
	}
	if len(chosen) > 0 {
		if res.Added, err = f.opts.Editor.AddServers(ctx, f.opts.Settings, chosen); err != nil {
			return res, err
		}
		for _, name := range slices.Sorted(maps.Keys(chosen)) {
			if !slices.Contains(res.Added, name) {
				res.Kept = append(res.Kept, name)
			}
		}
	}
	if res.Backup, err = writeClientConfig(path, old, edited, f.opts.Now()); err != nil {
		// The client still runs them: take them out again, or they would
		// run twice.
		for _, name := range res.Added {
			err = errors.Join(err, f.opts.Editor.RemoveServer(context.WithoutCancel(ctx), f.opts.Settings, name))
		}
		return domain.ClientConfigResult{}, err
	}
	if len(res.Added) > 0 {
		m := manifest{Settings: f.opts.Settings, Servers: map[string]json.RawMessage{}}
		for _, name := range res.Added {
			m.Servers[name] = chosen[name]
		}
		if err := writeManifest(res.Backup, m); err != nil {
			return res, fmt.Errorf("record what the import added (an undo will not remove %s from %s): %w",
				strings.Join(res.Added, ", "), f.opts.Settings, err)
		}
	}
	return res, nil
}

// readClientFile reads a client's config like a settings file (regular,
// bounded); a missing file is nil, not an error.
func readClientFile(path string) ([]byte, error) {
	data, err := settingsfile.ReadRegular("client config file", path, MaxClientFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// serversOf returns the entries of the servers object group in a
// client's config.
func serversOf(data []byte, group string) (map[string]json.RawMessage, error) {
	servers := map[string]json.RawMessage{}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return servers, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if raw, ok := top[group]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, fmt.Errorf("%q is not an object: %w", group, err)
		}
	}
	return servers, nil
}

// settingsServers returns the entries Switchboard's settings file at path
// defines, in the group the settings editor uses ("servers" only when the
// file has VS Code's form alone); a missing file defines none.
func settingsServers(path string) (map[string]json.RawMessage, error) {
	data, err := settingsfile.ReadRegular("settings file", path, settingsfile.MaxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]json.RawMessage{}, nil
	}
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var top map[string]json.RawMessage
	if len(bytes.TrimSpace(data)) > 0 {
		if err := json.Unmarshal(data, &top); err != nil {
			return nil, fmt.Errorf("%s: not a JSON object: %w", path, err)
		}
	}
	group := "mcpServers"
	if _, ok := top[group]; !ok {
		if _, vs := top["servers"]; vs {
			group = "servers"
		}
	}
	servers, err := serversOf(data, group)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return servers, nil
}

// describe summarizes an entry for a person: its transport and what it
// runs or reaches.
func describe(name string, raw json.RawMessage) domain.ClientServer {
	var e struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
		URL     string   `json:"url"`
		HTTPURL string   `json:"httpUrl"`
		Server  string   `json:"serverUrl"`
	}
	_ = json.Unmarshal(raw, &e) // an odd entry is shown with what could be read
	s := domain.ClientServer{Name: name}
	switch {
	case e.Command != "":
		s.Transport, s.Target = "stdio", strings.Join(append([]string{e.Command}, e.Args...), " ")
	case e.HTTPURL != "":
		s.Transport, s.Target = "http", e.HTTPURL
	case e.URL != "" || e.Server != "":
		s.Target = e.URL + e.Server
		s.Transport = "http"
		if e.Type == "sse" || (e.Type == "" && strings.HasSuffix(strings.TrimRight(s.Target, "/"), "/sse")) {
			s.Transport = "sse"
		}
	}
	return s
}
