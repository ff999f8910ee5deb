package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// statusFlags is what the status command's flag set writes to.
type statusFlags struct {
	addr, data, tokenFile *string
}

// newStatusFlagSet declares the status command's flags; the help text
// lists the same set.
func newStatusFlagSet(getenv func(string) string) (*flag.FlagSet, statusFlags) {
	fs := flag.NewFlagSet("switchboard status", flag.ContinueOnError)
	return fs, statusFlags{
		addr:      fs.String("addr", getenv("SWITCHBOARD_ADDR"), "address of the running instance (env SWITCHBOARD_ADDR; default the one DATA/instance.json names, else "+DefaultAddr+")"),
		data:      fs.String("data", getenv("SWITCHBOARD_DATA"), "data directory of the instance, where its address and access token are (env SWITCHBOARD_DATA; default $XDG_DATA_HOME/switchboard)"),
		tokenFile: fs.String("token-file", getenv("SWITCHBOARD_TOKEN_FILE"), "file holding the instance's access token (env SWITCHBOARD_TOKEN_FILE, or SWITCHBOARD_TOKEN)"),
	}
}

// runStatus prints one line per server of a running instance. Without
// --addr it asks the instance the data directory's instance file names.
func runStatus(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs, f := newStatusFlagSet(getenv)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	base := "http://" + *f.addr
	var inst *instanceInfo
	if *f.addr == "" {
		var err error
		if base, inst, err = findInstance(*f.data, getenv); err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if inst != nil && *f.tokenFile == "" {
			*f.tokenFile = inst.TokenFile
		}
	}
	token, err := statusToken(*f.data, *f.tokenFile, getenv)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	url := base + handlers.PathServers
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if inst != nil {
			return fmt.Errorf("status: nothing answers at %s, where the instance file says Switchboard (process %d, started %s) listens; "+
				"it has probably stopped without cleaning up. Start it again, or pass --addr: %w", base, inst.PID, inst.StartedAt.Local().Format(time.DateTime), err)
		}
		return fmt.Errorf("status: is switchboard running at %s? %w", base, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return fmt.Errorf("status: %s refused the access token; is this the instance of that data directory? (--data, --token-file)", base)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status: %s answered %s", url, resp.Status)
	}
	var list handlers.ServerListDTO
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxStatusBytes)).Decode(&list); err != nil {
		return fmt.Errorf("status: decode %s: %w", url, err)
	}
	if len(list.Servers) == 0 {
		fmt.Fprintln(stdout, "no servers configured")
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	now := time.Now()
	for _, s := range list.Servers {
		fmt.Fprintln(tw, statusLine(s, now))
	}
	return tw.Flush()
}

// statusLine renders one server as "● name<TAB>state<TAB>detail".
func statusLine(s handlers.StatusDTO, now time.Time) string {
	detail := ""
	switch s.State {
	case "connected":
		detail = plural(s.ToolCount, "tool")
	case "connecting":
		if s.Attempt > 0 {
			detail = fmt.Sprintf("retry %d", s.Attempt)
		}
	case "error":
		detail = errorDetail(s, now)
	case "disabled":
		if s.DisabledReason != nil && *s.DisabledReason == "auto" {
			detail = fmt.Sprintf("after %s; enable it to retry", plural(s.Attempt, "failure"))
		}
	}
	state := s.State
	if s.BlockedReason != nil {
		state, detail = "blocked", blockedDetail(*s.BlockedReason)
	}
	authState, authDetail, replaces := authWords(s)
	switch {
	case replaces:
		state, detail = authState, authDetail
	case s.State == "error":
		state = "error: " + detail
		detail = ""
	}
	if authState != "" && !replaces {
		detail = strings.TrimPrefix(detail+"; "+authState+": "+authDetail, "; ")
	}
	// Every field is escaped on its own, so the tabs between them survive.
	return strings.TrimRight(fmt.Sprintf("● %s\t%s\t%s", printable(s.ServerName), printable(state), printable(detail)), "\t ")
}

func errorDetail(s handlers.StatusDTO, now time.Time) string {
	cat := "unknown"
	if s.ErrorCategory != nil {
		cat = *s.ErrorCategory
	}
	if s.ExitCode != nil {
		if *s.ExitCode >= 0 {
			cat = fmt.Sprintf("%s (code %d)", cat, *s.ExitCode)
		} else {
			cat += " (killed)"
		}
	}
	switch {
	case s.NextRetryAt != nil:
		wait := time.UnixMilli(*s.NextRetryAt).Sub(now).Round(time.Second)
		return fmt.Sprintf("%s, retry in %s", cat, max(wait, 0))
	case !s.Retryable:
		return cat + ", no automatic retry"
	}
	return cat + ", automatic retry is off"
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// blockedDetail says why a blocked server does not run and the way out.
func blockedDetail(reason string) string {
	switch reason {
	case "pending_approval":
		return "project server awaiting approval; open the dashboard to review it"
	case "rejected":
		return "project server rejected; edit its config to be asked again"
	case "excluded":
		return "excluded in settings (mcp.excluded)"
	case "not_allowed":
		return "not in the allow list (mcp.allowed)"
	}
	return reason
}

// findInstance returns the base URL of the instance the data directory's
// instance file names, or the default address when there is no such file.
// A file whose process is gone is stale: it says so rather than trying.
func findInstance(data string, getenv func(string) string) (string, *instanceInfo, error) {
	dir, err := dataDir(data, getenv)
	if err != nil {
		return "", nil, err
	}
	info, err := readInstance(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "http://" + DefaultAddr, nil, nil
	case err != nil:
		return "", nil, err
	case !processAlive(info.PID):
		return "", nil, fmt.Errorf("%s says Switchboard runs at %s as process %d, but that process has ended without cleaning up; "+
			"start Switchboard again (or pass --addr)", filepath.Join(dir, instanceFileName), info.URL, info.PID)
	}
	return info.URL, &info, nil
}

// maxStatusBytes bounds the server list status reads: the address may come
// from a file, so whatever answers there is read within a limit.
const maxStatusBytes = 64 << 20
