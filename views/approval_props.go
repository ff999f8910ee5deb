package views

import (
	"reflect"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ApprovalSlotID is the page element the approval dialog lives in; it is
// always present, empty while no project server awaits a decision.
const ApprovalSlotID = "approval-slot"

// ApprovalProps asks a person whether a project server may run, showing
// what would run exactly as the file spells it: nothing redacted (it is the
// project's own text) and nothing expanded (${VAR} values from the
// person's environment never reach the page). Every string is untrusted
// and escaped by the template.
type ApprovalProps struct {
	Show        bool
	Name        string
	Source      string
	Stdio       bool   // a program on this computer, else a remote server
	Fingerprint string // of the config shown; the decision sends it back

	Command ApprovalValue
	Args    []ApprovalValue
	Cwd     *ApprovalValue // nil: not set
	Env     []ApprovalEntry
	URL     ApprovalValue
	Headers []ApprovalEntry
	// OAuth is the "oauth" key of a remote server, member by member
	// (clientId, clientSecret redacted, clientMetadataUrl, each scope);
	// HasOAuth says the entry has the key at all.
	OAuth    []ApprovalEntry
	HasOAuth bool
	Risks    []Message // what to check first, one sentence each

	// Changed says the config changed since the person last saw this
	// server's dialog: their decision was refused and this is the new one.
	Changed bool

	ApproveURL string
	RejectURL  string
	Pending    int // how many servers await a decision, this one included
	OOB        bool
}

// ApprovalValue is one value as written, with its invisible characters
// made visible, why it is flagged, and what its ${VAR} references read.
type ApprovalValue struct {
	Text  string
	Flags []Message
	Notes []Message
}

// ApprovalEntry is one env variable or header, or one member of the
// oauth key: its key and value as written.
type ApprovalEntry struct {
	Key   string
	Value ApprovalValue
	index int // which scope, for an oauth "scopes" entry
}

// PendingApprovals returns the names of the servers awaiting approval, in
// list order. The page stream compares it between batches to know when the
// dialog must change.
func PendingApprovals(list []domain.Status) []string {
	var names []string
	for _, s := range list {
		if s.BlockedReason == domain.BlockedPending {
			names = append(names, s.ServerName)
		}
	}
	return names
}

// NewApprovalProps asks about the first server of list (sorted by name)
// awaiting approval; approve and reject give each decision's URL. With
// none pending it shows nothing.
func NewApprovalProps(list []domain.Status, approve, reject func(name string) string, oob bool) ApprovalProps {
	p := ApprovalProps{OOB: oob}
	for _, s := range list {
		if s.BlockedReason != domain.BlockedPending {
			continue
		}
		p.Pending++
		if p.Show {
			continue
		}
		p.Show, p.Name, p.Source = true, s.ServerName, s.Source
		req := s.Approval
		if req == nil { // a status built without a request: show what the snapshot knows
			req = &domain.ApprovalRequest{Transport: s.Transport, Written: domain.RawConfig{Command: s.Target, URL: s.Target}}
		}
		p.fill(req)
		if approve != nil {
			p.ApproveURL = approve(s.ServerName)
		}
		if reject != nil {
			p.RejectURL = reject(s.ServerName)
		}
	}
	return p
}

// More is how many other servers wait behind this one.
func (p ApprovalProps) More() int { return max(p.Pending-1, 0) }

// Equal reports whether p and q render the same dialog, so the page stream
// swaps it only when it changes (a swap moves focus back to Reject).
func (p ApprovalProps) Equal(q ApprovalProps) bool { return reflect.DeepEqual(p, q) }
