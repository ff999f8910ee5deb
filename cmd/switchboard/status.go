package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// runStatus prints one line per server of a running instance.
func runStatus(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("switchboard status", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr(getenv, "SWITCHBOARD_ADDR", DefaultAddr), "address of the running instance (env SWITCHBOARD_ADDR)")
	data := fs.String("data", getenv("SWITCHBOARD_DATA"), "data directory of the instance, where its access token is (env SWITCHBOARD_DATA)")
	tokenFile := fs.String("token-file", getenv("SWITCHBOARD_TOKEN_FILE"), "file holding the instance's access token (env SWITCHBOARD_TOKEN_FILE, or SWITCHBOARD_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	token, err := statusToken(*data, *tokenFile, getenv)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	url := "http://" + *addr + handlers.PathServers
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("status: is switchboard running at %s? %w", *addr, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusUnauthorized {
		return fmt.Errorf("status: %s refused the access token; is this the instance of that data directory? (--data, --token-file)", *addr)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status: %s answered %s", url, resp.Status)
	}
	var list handlers.ServerListDTO
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
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
	if s.State == "error" {
		state = "error: " + detail
		detail = ""
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
