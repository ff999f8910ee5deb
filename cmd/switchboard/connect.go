package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/handlers"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

// connectFlags is what the connect command's flag set writes to.
type connectFlags struct {
	status                    statusFlags
	write, undo, yes, import_ *bool
	file, settings            *string
}

// newConnectFlagSet declares the connect command's flags; the help text
// lists the same set.
func newConnectFlagSet(getenv func(string) string) (*flag.FlagSet, connectFlags) {
	fs, st := newStatusFlagSet(getenv)
	fs.Init("switchboard connect", flag.ContinueOnError)
	return fs, connectFlags{
		status:   st,
		write:    fs.Bool("write", false, "write the entry into the client's config file, after asking (y/N), with a timestamped backup beside it"),
		undo:     fs.Bool("undo", false, "restore the newest backup --write made of the client's config file"),
		yes:      fs.Bool("yes", false, "with --write, do not ask for confirmation"),
		file:     fs.String("file", "", "the client's config file; default the client's user-wide file on this OS"),
		import_:  fs.Bool("import", false, "with --write, move the other servers the client's config lists into Switchboard's settings, so they stop running twice"),
		settings: fs.String("settings", getenv("SWITCHBOARD_SETTINGS"), "Switchboard's settings file, for --import (env SWITCHBOARD_SETTINGS; default $XDG_CONFIG_HOME/switchboard/settings.json)"),
	}
}

// connectClientIDs lists the clients connect knows, for messages.
func connectClientIDs() string {
	var ids []string
	for _, c := range domain.ConnectClients() {
		ids = append(ids, c.ID)
	}
	return strings.Join(ids, ", ")
}

// runConnect prints (and with --write writes) the entry that connects an
// AI client to the running Switchboard, with a client token made for it.
func runConnect(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	set, f := newConnectFlagSet(getenv)
	set.SetOutput(stderr)
	// The client comes first (switchboard connect cursor --write), which
	// the flag package would take for the end of the flags.
	var id string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := set.Parse(args); err != nil {
		return err
	}
	if id == "" && set.NArg() > 0 {
		id = set.Arg(0)
	}
	client, ok := domain.FindConnectClient(id)
	if !ok {
		return fmt.Errorf("connect: name a client: one of %s", connectClientIDs())
	}
	path := *f.file
	if path == "" {
		var err error
		if path, err = clientConfigPath(client, runtime.GOOS, getenv); err != nil {
			return fmt.Errorf("connect: %w", err)
		}
	}
	if *f.undo {
		return undoConnect(path, stdout)
	}
	base, secret, name, err := createClientToken(ctx, f.status, client.ID, getenv)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		exe = "switchboard"
	}
	target := domain.ConnectTarget{URL: base + "/mcp", Token: secret, Executable: exe}
	fmt.Fprintf(stderr, "switchboard: created the client token %q for %s; it is shown only here. Revoke it on the Connect page (%s%s).\n",
		name, client.Name, base, handlers.PathConnect)
	if !*f.write {
		fmt.Fprintf(stderr, "Put this in %s (or run again with --write):\n", path)
		if _, err := fmt.Fprintln(stdout, client.Snippet(target)); err != nil {
			return err
		}
		if cmd := client.AddCommand(target); cmd != "" {
			fmt.Fprintf(stderr, "Or add it with %s's own command:\n  %s\n", client.Name, cmd)
		}
		return nil
	}
	entry := client.Entry(target)
	// The client's file is read like a settings file: regular, bounded.
	old, err := settingsfile.ReadRegular("client config file", path, settingsfile.MaxFileSize)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("connect: %w", err)
	}
	others, err := otherServers(old, client.ServersKey)
	if err != nil {
		return fmt.Errorf("connect: %s: %w", path, err)
	}
	edited, err := settingsfile.SetEntry(old, client.ServersKey, domain.ConnectEntryName, entry)
	if err != nil {
		return fmt.Errorf("connect: %s: %w", path, err)
	}
	fmt.Fprintf(stdout, "Switchboard will set %s.%s in %s to:\n%s\n", client.ServersKey, domain.ConnectEntryName, path, indentJSON(entry))
	var settingsPath string
	if *f.import_ && len(others) > 0 {
		if settingsPath = *f.settings; settingsPath == "" {
			if settingsPath, err = settingsfile.DefaultPath(getenv); err != nil {
				return fmt.Errorf("connect: %w", err)
			}
		}
		for _, name := range sortedNames(others) {
			if edited, err = domain.RemoveServerEntry(path, edited, name); err != nil {
				return fmt.Errorf("connect: %w", err)
			}
		}
		fmt.Fprintf(stdout, "and move %s from there into Switchboard's settings (%s).\n", strings.Join(sortedNames(others), ", "), settingsPath)
	}
	if !*f.yes && !confirm(stdin, stdout, "Write it, keeping a backup of the file? [y/N] ") {
		return errors.New("connect: nothing written")
	}
	if settingsPath != "" {
		added, err := (&settingsfile.Editor{}).AddServers(ctx, settingsPath, others)
		if err != nil {
			return fmt.Errorf("connect: %w", err)
		}
		for _, name := range sortedNames(others) {
			if !slices.Contains(added, name) {
				fmt.Fprintf(stdout, "Switchboard's settings already have a server called %s; kept theirs as it was.\n", name)
			}
		}
		if len(added) > 0 {
			fmt.Fprintf(stdout, "Added to Switchboard's settings: %s.\n", strings.Join(added, ", "))
		}
	}
	backup, err := writeClientConfig(path, old, edited, time.Now())
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if backup != "" {
		fmt.Fprintf(stdout, "Written. The previous file is kept as %s; `switchboard connect %s --undo` puts it back.\n", backup, client.ID)
	} else {
		fmt.Fprintf(stdout, "Written: %s was created.\n", path)
	}
	if len(others) > 0 && settingsPath == "" {
		fmt.Fprintf(stdout, "%s also lists %s. Switchboard can run them instead, so they stop running twice: run this again with --import.\n",
			path, strings.Join(sortedNames(others), ", "))
	}
	fmt.Fprintf(stdout, "Restart %s to connect.\n", client.Name)
	return nil
}

// otherServers returns the entries of the client's servers group other
// than Switchboard's own.
func otherServers(data []byte, group string) (map[string]json.RawMessage, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	var servers map[string]json.RawMessage
	if raw, ok := top[group]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil {
			return nil, fmt.Errorf("%q is not an object: %w", group, err)
		}
	}
	delete(servers, domain.ConnectEntryName)
	return servers, nil
}

func sortedNames(m map[string]json.RawMessage) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// indentJSON lays v out for a person to read.
func indentJSON(v json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Indent(&b, v, "", "  "); err != nil {
		return string(v)
	}
	return b.String()
}

// clientConfigPath resolves the client's user-wide config file on goos.
func clientConfigPath(c domain.ConnectClient, goos string, getenv func(string) string) (string, error) {
	want := map[string]string{"darwin": "macos", "windows": "windows"}[goos]
	if want == "" {
		want = "linux"
	}
	i := slices.IndexFunc(c.Files, func(f domain.ClientConfigFile) bool { return f.OS == want })
	if i < 0 {
		return "", fmt.Errorf("%s has no config file on %s; pass --file", c.Name, goos)
	}
	p := c.Files[i].Path
	for _, v := range []string{"APPDATA", "USERPROFILE"} {
		if strings.Contains(p, "%"+v+"%") {
			val := getenv(v)
			if val == "" {
				return "", fmt.Errorf("%%%s%% is not set; pass --file", v)
			}
			p = strings.ReplaceAll(p, "%"+v+"%", val)
		}
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		home := getenv("HOME")
		if home == "" {
			return "", errors.New("HOME is not set; pass --file")
		}
		p = filepath.Join(home, rest)
	}
	return filepath.FromSlash(p), nil
}

// createClientToken asks the running instance for a client token named
// after the client; a taken name gets a number (cursor-2, cursor-3, …),
// since an existing token's secret cannot be shown again.
func createClientToken(ctx context.Context, f statusFlags, id string, getenv func(string) string) (base, secret, name string, err error) {
	base = "http://" + *f.addr
	tokenFile := *f.tokenFile
	if *f.addr == "" {
		var inst *instanceInfo
		if base, inst, err = findInstance(*f.data, getenv); err != nil {
			return "", "", "", err
		}
		if inst != nil && tokenFile == "" {
			tokenFile = inst.TokenFile
		}
	}
	owner, err := statusToken(*f.data, tokenFile, getenv)
	if err != nil {
		return "", "", "", err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for n := 1; n <= 20; n++ {
		name = id
		if n > 1 {
			name = fmt.Sprintf("%s-%d", id, n)
		}
		body, _ := json.Marshal(handlers.NewClientTokenDTO{Name: name})
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+handlers.PathClientTokens, bytes.NewReader(body))
		if err != nil {
			return "", "", "", err
		}
		req.Header.Set("Authorization", "Bearer "+owner)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", "", "", fmt.Errorf("is switchboard running at %s? Start it first: %w", base, err)
		}
		out, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
		switch {
		case rerr != nil:
			return "", "", "", rerr
		case resp.StatusCode == http.StatusConflict:
			continue
		case resp.StatusCode != http.StatusCreated:
			return "", "", "", fmt.Errorf("%s answered %s: %s", base+handlers.PathClientTokens, resp.Status, bytes.TrimSpace(out))
		}
		var created handlers.NewClientTokenDTO
		if err := json.Unmarshal(out, &created); err != nil {
			return "", "", "", fmt.Errorf("decode the new client token: %w", err)
		}
		return base, created.Token, created.Name, nil
	}
	return "", "", "", fmt.Errorf("every name from %s to %s-20 is taken; revoke some client tokens on the Connect page", id, id)
}

// confirm asks question and reports whether the answer was yes.
func confirm(stdin io.Reader, stdout io.Writer, question string) bool {
	fmt.Fprint(stdout, question)
	line, _ := bufio.NewReader(stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// backupSuffix marks the copies --write keeps; a timestamp follows, so
// they sort by age.
const backupSuffix = ".switchboard-backup-"

// writeClientConfig replaces the file at path, whose bytes were old
// (nil when it did not exist), with edited, after copying old to a
// timestamped backup beside it. It returns the backup's path, empty when
// there was no file.
func writeClientConfig(path string, old, edited []byte, now time.Time) (string, error) {
	perm := fs.FileMode(0o600)
	backup := ""
	if info, err := os.Stat(path); err == nil {
		perm = info.Mode().Perm()
		backup = path + backupSuffix + now.UTC().Format("20060102T150405.000Z")
		if err := atomicWrite(backup, old, perm); err != nil {
			return "", fmt.Errorf("back up %s: %w", path, err)
		}
	} else if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	if err := atomicWrite(path, edited, perm); err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	return backup, nil
}

// undoConnect puts the newest backup of path back in its place.
func undoConnect(path string, stdout io.Writer) error {
	backups, _ := filepath.Glob(path + backupSuffix + "*")
	if len(backups) == 0 {
		return fmt.Errorf("connect: no backup of %s to restore", path)
	}
	slices.Sort(backups)
	newest := backups[len(backups)-1]
	data, err := settingsfile.ReadRegular("backup", newest, settingsfile.MaxFileSize)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	perm := fs.FileMode(0o600)
	if info, err := os.Stat(newest); err == nil {
		perm = info.Mode().Perm()
	}
	if err := atomicWrite(path, data, perm); err != nil {
		return fmt.Errorf("connect: restore %s: %w", path, err)
	}
	if err := os.Remove(newest); err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	_, err = fmt.Fprintf(stdout, "Restored %s from %s.\n", path, newest)
	return err
}

// atomicWrite writes data to a temporary file beside path and renames it
// into place, so the client never reads half a config.
func atomicWrite(path string, data []byte, perm fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	if err := errors.Join(werr, tmp.Chmod(perm), tmp.Sync(), tmp.Close()); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
