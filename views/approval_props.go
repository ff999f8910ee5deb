package views

import "github.com/switchboard-mcp/switchboard/domain"

// ApprovalSlotID is the page element the approval dialog lives in; it is
// always present, empty while no project server awaits a decision.
const ApprovalSlotID = "approval-slot"

// ApprovalProps asks a person whether a project server may run. Name,
// Source and Target are untrusted (from a project's .mcp.json) and are
// escaped by the template; Target is already redacted by the domain.
type ApprovalProps struct {
	Show       bool
	Name       string
	Source     string
	Target     string
	ApproveURL string
	RejectURL  string
	Pending    int // how many servers await a decision, this one included
	OOB        bool
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
		p.Show, p.Name, p.Source, p.Target = true, s.ServerName, s.Source, s.Target
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
