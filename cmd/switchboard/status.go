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
	"github.com/switchboard-mcp/switchboard/locales"
)

// statusFlags is what the status command's flag set writes to.
type statusFlags struct {
	addr, data, tokenFile, lang *string
}

// newStatusFlagSet declares the status command's flags; the help text
// lists the same set.
func newStatusFlagSet(getenv func(string) string) (*flag.FlagSet, statusFlags) {
	fs := flag.NewFlagSet("switchboard status", flag.ContinueOnError)
	return fs, statusFlags{
		addr:      fs.String("addr", getenv("SWITCHBOARD_ADDR"), "address of the running instance (env SWITCHBOARD_ADDR; default the one DATA/instance.json names, else "+DefaultAddr+")"),
		data:      fs.String("data", getenv("SWITCHBOARD_DATA"), "data directory of the instance, where its address and access token are (env SWITCHBOARD_DATA; default $XDG_DATA_HOME/switchboard)"),
		tokenFile: fs.String("token-file", getenv("SWITCHBOARD_TOKEN_FILE"), "file holding the instance's access token (env SWITCHBOARD_TOKEN_FILE, or SWITCHBOARD_TOKEN)"),
		lang:      fs.String("lang", "", "language of the output, such as de or pt-BR (default from LC_ALL, LC_MESSAGES or LANG)"),
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
	l := cliLocalizer(*f.lang, getenv)
	base := "http://" + *f.addr
	var inst *instanceInfo
	if *f.addr == "" {
		var err error
		if base, inst, err = findInstanceIn(l, *f.data, getenv); err != nil {
			return fmt.Errorf("status: %w", err)
		}
		if inst != nil && *f.tokenFile == "" {
			*f.tokenFile = inst.TokenFile
		}
	}
	token, err := statusToken(*f.data, *f.tokenFile, getenv)
	if nt := (*noTokenError)(nil); errors.As(err, &nt) {
		return statusError(l, "StatusCliErrNoToken", map[string]any{"Dir": nt.dir}, err)
	}
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
			return statusError(l, "StatusCliErrStaleAnswer", map[string]any{"URL": base, "PID": inst.PID,
				"Started": inst.StartedAt.Local().Format(time.DateTime), "Err": err}, err)
		}
		return statusError(l, "StatusCliErrNotRunning", map[string]any{"URL": base, "Err": err}, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return statusError(l, "StatusCliErrRefused", map[string]any{"URL": base}, nil)
	}
	if resp.StatusCode != http.StatusOK {
		return statusError(l, "StatusCliErrAnswered", map[string]any{"URL": url, "Status": resp.Status}, nil)
	}
	var list handlers.ServerListDTO
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxStatusBytes)).Decode(&list); err != nil {
		return statusError(l, "StatusCliErrDecode", map[string]any{"URL": url, "Err": err}, err)
	}
	if len(list.Servers) == 0 {
		fmt.Fprintln(stdout, l.T("StatusCliNoServers", nil))
		return nil
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	now := time.Now()
	for _, s := range list.Servers {
		fmt.Fprintln(tw, statusLine(l, s, now))
	}
	return tw.Flush()
}

// statusLine renders one server as "● name<TAB>state<TAB>detail" in l's
// language.
func statusLine(l *locales.Localizer, s handlers.StatusDTO, now time.Time) string {
	s = printableStatus(s)
	detail := ""
	switch s.State {
	case "connected":
		detail = l.T("StatusCliTools", map[string]any{"Count": s.ToolCount})
	case "connecting":
		if s.Attempt > 0 {
			detail = l.T("StatusCliRetryAttempt", map[string]any{"Attempt": s.Attempt})
		}
	case "error":
		detail = errorDetail(l, s, now)
	case "disabled":
		if s.DisabledReason != nil && *s.DisabledReason == "auto" {
			detail = l.T("StatusCliAutoDisabled", map[string]any{"Count": s.Attempt})
		}
	}
	state := stateWord(l, s.State)
	if s.BlockedReason != nil {
		state, detail = l.T("StatusCliStateBlocked", nil), blockedDetail(l, *s.BlockedReason)
	}
	authState, authDetail, replaces := authWords(l, s)
	switch {
	case replaces:
		state, detail = authState, authDetail
	case s.State == "error":
		state = l.T("StatusCliErrorLine", map[string]any{"Detail": detail})
		detail = ""
	}
	if authState != "" && !replaces {
		if detail == "" {
			detail = l.T("StatusCliAuthNote", map[string]any{"State": authState, "Detail": authDetail})
		} else {
			detail = l.T("StatusCliAuthNoteAfter", map[string]any{"Before": detail, "State": authState, "Detail": authDetail})
		}
	}
	// What came from the instance was escaped before it was put into the
	// sentences, so the tabs between the fields survive, and so do the
	// bidi isolates a right-to-left language puts around each value.
	return strings.TrimRight(fmt.Sprintf("● %s\t%s\t%s", s.ServerName, state, detail), "\t ")
}

// statusError is the command's error in l's language; cause, when there is
// one, stays reachable through errors.Is.
func statusError(l *locales.Localizer, id string, data map[string]any, cause error) error {
	return &localizedError{text: "status: " + l.T(id, data), cause: cause}
}

// localizedError carries a translated text and the error beneath it.
type localizedError struct {
	text  string
	cause error
}

func (e *localizedError) Error() string { return e.text }
func (e *localizedError) Unwrap() error { return e.cause }

// findInstance returns the base URL of the instance the data directory's
// instance file names, or the default address when there is no such file.
// A file whose process is gone is stale: it says so rather than trying.
func findInstance(data string, getenv func(string) string) (string, *instanceInfo, error) {
	return findInstanceIn(cliLocalizer("en", noEnv), data, getenv)
}

// findInstanceIn is findInstance with its error in l's language.
func findInstanceIn(l *locales.Localizer, data string, getenv func(string) string) (string, *instanceInfo, error) {
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
		return "", nil, errors.New(l.T("StatusCliErrStaleFile", map[string]any{
			"File": filepath.Join(dir, instanceFileName), "URL": info.URL, "PID": info.PID}))
	}
	return info.URL, &info, nil
}

// maxStatusBytes bounds the server list status reads: the address may come
// from a file, so whatever answers there is read within a limit.
const maxStatusBytes = 64 << 20
