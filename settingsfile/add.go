package settingsfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// AddServers adds entries to the settings file at path, each under its
// name, leaving every other byte as it was; a name the file already
// defines is skipped, so nothing the person wrote is overwritten. It
// returns the names added, sorted. A missing file is created. This is how
// servers listed in an AI client's own config move into Switchboard.
func (e *Editor) AddServers(ctx context.Context, path string, entries map[string]json.RawMessage) ([]string, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("add servers to %s: %w", path, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()

	target, err := filepath.EvalSymlinks(path)
	perm := fs.FileMode(0o600)
	var data []byte
	switch {
	case errors.Is(err, fs.ErrNotExist):
		target = path
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, fmt.Errorf("add servers to %s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("add servers to %s: %w", path, err)
	default:
		info, err := os.Stat(target)
		if err != nil {
			return nil, fmt.Errorf("add servers to %s: %w", path, err)
		}
		perm = info.Mode().Perm()
		if data, err = readFile(target); err != nil {
			return nil, fmt.Errorf("add servers to %s: %w", path, err)
		}
	}
	bom, body := splitBOM(data)
	group, have, err := serverGroup(body)
	if err != nil {
		return nil, fmt.Errorf("add servers to %s: %w", path, err)
	}
	names := make([]string, 0, len(entries))
	for name := range entries {
		if _, taken := have[name]; !taken {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return nil, nil
	}
	for _, name := range names {
		if body, err = SetEntry(body, group, name, entries[name]); err != nil {
			return nil, fmt.Errorf("add %q to %s: %w", name, path, err)
		}
	}
	out := append(append([]byte{}, bom...), body...)
	if err := replaceFile(target, out, perm); err != nil {
		return nil, fmt.Errorf("add servers to %s: %w", path, err)
	}
	return names, nil
}

// serverGroup returns the key that holds the file's servers ("servers"
// only when the file uses VS Code's form alone) and the names it defines.
func serverGroup(body []byte) (string, map[string]json.RawMessage, error) {
	var top map[string]json.RawMessage
	if len(body) > 0 {
		if err := json.Unmarshal(body, &top); err != nil {
			return "", nil, fmt.Errorf("the file is not a JSON object: %w", err)
		}
	}
	group := "mcpServers"
	if _, ok := top[group]; !ok {
		if _, vs := top["servers"]; vs {
			group = "servers"
		}
	}
	have := map[string]json.RawMessage{}
	if raw, ok := top[group]; ok {
		if err := json.Unmarshal(raw, &have); err != nil {
			return "", nil, fmt.Errorf("%q is not an object: %w", group, err)
		}
	}
	return group, have, nil
}
