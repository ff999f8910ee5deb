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
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/clientconfig"
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
		undo:     fs.Bool("undo", false, "restore the newest backup --write made of the client's config file, and take the servers its --import added out of Switchboard's settings again (unless edited since)"),
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
	files := clientconfig.New(clientconfig.Options{Getenv: getenv})
	path := *f.file
	if path == "" {
		var err error
		if path, err = files.Path(client); err != nil {
			return fmt.Errorf("connect: %w; pass --file", err)
		}
	}
	if *f.undo {
		return undoConnect(ctx, files, path, stdout)
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
	others, err := files.OtherServers(client, path)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	fmt.Fprintf(stdout, "Switchboard will set %s.%s in %s to:\n%s\n", client.ServersKey, domain.ConnectEntryName, path, domain.IndentJSON(entry, ""))
	change := domain.ClientConfigChange{Entry: entry}
	if *f.import_ && len(others) > 0 {
		settingsPath := *f.settings
		if settingsPath == "" {
			if settingsPath, err = settingsfile.DefaultPath(getenv); err != nil {
				return fmt.Errorf("connect: %w", err)
			}
		}
		files = clientconfig.New(clientconfig.Options{Settings: settingsPath, Getenv: getenv})
		change.Import = slices.Sorted(maps.Keys(others))
		fmt.Fprintf(stdout, "and move %s from there into Switchboard's settings (%s).\n", strings.Join(change.Import, ", "), settingsPath)
	}
	if !*f.yes && !confirm(stdin, stdout, "Write it, keeping a backup of the file? [y/N] ") {
		return errors.New("connect: nothing written")
	}
	res, err := files.Apply(ctx, client, path, change)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	for _, name := range res.Kept {
		fmt.Fprintf(stdout, "Switchboard's settings already have a server called %s; kept theirs as it was.\n", name)
	}
	if len(res.Added) > 0 {
		fmt.Fprintf(stdout, "Added to Switchboard's settings: %s.\n", strings.Join(res.Added, ", "))
	}
	if res.Backup != "" {
		fmt.Fprintf(stdout, "Written. The previous file is kept as %s; `switchboard connect %s --undo` puts it back", res.Backup, client.ID)
		if len(res.Added) > 0 {
			fmt.Fprint(stdout, " and takes the imported servers out of Switchboard's settings again")
		}
		fmt.Fprintln(stdout, ".")
	} else {
		fmt.Fprintf(stdout, "Written: %s was created.\n", path)
	}
	if len(others) > 0 && len(change.Import) == 0 {
		fmt.Fprintf(stdout, "%s also lists %s. Switchboard can run them instead, so they stop running twice: run this again with --import.\n",
			path, strings.Join(slices.Sorted(maps.Keys(others)), ", "))
	}
	fmt.Fprintf(stdout, "Restart %s to connect.\n", client.Name)
	return nil
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

// undoConnect puts the newest backup of the client's file at path back,
// and takes out of Switchboard's settings what the import that made it
// added, unless edited since.
func undoConnect(ctx context.Context, files *clientconfig.Files, path string, stdout io.Writer) error {
	res, err := files.Undo(ctx, path)
	if res.Backup != "" {
		fmt.Fprintf(stdout, "Restored %s from %s.\n", path, res.Backup)
	}
	if len(res.Removed) > 0 {
		fmt.Fprintf(stdout, "Took %s out of Switchboard's settings again; the client runs them itself.\n", strings.Join(res.Removed, ", "))
	}
	if len(res.Kept) > 0 {
		fmt.Fprintf(stdout, "Kept %s in Switchboard's settings: changed since the import. Remove them there if the client should run them alone.\n", strings.Join(res.Kept, ", "))
	}
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	return nil
}
