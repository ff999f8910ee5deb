package views

import (
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/switchboard-mcp/switchboard/domain"
)

// CallsFilter is the call list's filters as they appear in the page's
// address, so a reload, a shared link or a chart bar shows the same calls.
type CallsFilter struct {
	Server string
	Status string // a domain.InvocationStatus; empty for any
	Source string // "dashboard", "api", "gateway" or a client's name; empty for any
	// From and To bound the calls' start times, [From, To); zero for open.
	From, To time.Time
	// State is the server list's own filter (the header's ?state= links),
	// carried through so filtering calls keeps the servers shown; the
	// call list itself ignores it.
	State string
}

// Query encodes f as the page's query parameters: server, status, source,
// from and to (Unix milliseconds), and the server list's state. Empty
// filters are left out.
func (f CallsFilter) Query() url.Values {
	q := url.Values{}
	if f.State != "" {
		q.Set("state", f.State)
	}
	if f.Server != "" {
		q.Set("server", f.Server)
	}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	if f.Source != "" {
		q.Set("source", f.Source)
	}
	if !f.From.IsZero() {
		q.Set("from", strconv.FormatInt(f.From.UnixMilli(), 10))
	}
	if !f.To.IsZero() {
		q.Set("to", strconv.FormatInt(f.To.UnixMilli(), 10))
	}
	return q
}

// URL is base (the dashboard's path) with f's query.
func (f CallsFilter) URL(base string) string {
	q := f.Query().Encode()
	if q == "" {
		return base
	}
	return base + "?" + q
}

// ParseCallsFilter reads the page's query. It is lenient, since a stale
// or hand-edited address should still show the page: an unknown status
// or a time that is not a number is dropped, and a source that is not one
// of the three sources is taken as an AI client's name.
func ParseCallsFilter(q url.Values) CallsFilter {
	f := CallsFilter{Server: q.Get("server"), Source: q.Get("source"), State: q.Get("state")}
	if s := q.Get("status"); slices.Contains(CallStatuses, s) {
		f.Status = s
	}
	f.From = parseMilli(q.Get("from"))
	f.To = parseMilli(q.Get("to"))
	if !f.From.IsZero() && !f.To.IsZero() && !f.To.After(f.From) {
		f.To = time.Time{}
	}
	return f
}

// parseMilli reads Unix milliseconds; anything else is the zero time.
func parseMilli(s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	if err != nil || ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// Domain is f as the store's filter, newest limit first, with large
// results as what a card shows of them: pages only draw rows and cards.
func (f CallsFilter) Domain(limit int) domain.InvocationFilter {
	d := domain.InvocationFilter{ServerName: f.Server, Status: domain.InvocationStatus(f.Status),
		StartedFrom: f.From, StartedBefore: f.To, Limit: limit, Preview: true}
	if slices.Contains(CallSources, f.Source) {
		d.Source = f.Source
	} else {
		d.Client = f.Source
	}
	return d
}

// Matches reports whether inv belongs in a list filtered by f, so the
// page stream inserts only the calls the person asked to see.
func (f CallsFilter) Matches(inv domain.Invocation) bool {
	switch {
	case f.Server != "" && inv.ServerName != f.Server,
		f.Status != "" && string(inv.Status) != f.Status,
		!f.From.IsZero() && inv.StartedAt.Before(f.From),
		!f.To.IsZero() && !inv.StartedAt.Before(f.To):
		return false
	case f.Source == "":
		return true
	case slices.Contains(CallSources, f.Source):
		return inv.Source == f.Source
	}
	return inv.Client.Name == f.Source
}
