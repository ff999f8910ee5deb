package views

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/switchboard-mcp/switchboard/domain"
)

// fill lays out req: each value as written, with its ${VAR} notes and risk
// flags next to it, and the risks as sentences on top.
func (p *ApprovalProps) fill(req *domain.ApprovalRequest) {
	w := req.Written
	p.Fingerprint = req.Fingerprint
	p.Stdio = req.Transport == domain.TransportStdio
	if p.Stdio {
		p.Command = newApprovalValue(w.Command, refNotes(req, domain.FieldCommand, "", 0))
		p.Args = make([]ApprovalValue, len(w.Args))
		for i, a := range w.Args {
			p.Args[i] = newApprovalValue(a, refNotes(req, domain.FieldArgs, "", i))
		}
		if w.Cwd != "" {
			v := newApprovalValue(w.Cwd, refNotes(req, domain.FieldCwd, "", 0))
			p.Cwd = &v
		}
		p.Env = newApprovalEntries(req, domain.FieldEnv, w.Env)
	} else {
		p.URL = newApprovalValue(w.URL, refNotes(req, domain.FieldURL, "", 0))
		p.Headers = newApprovalEntries(req, domain.FieldHeaders, w.Headers)
		if w.OAuth != nil {
			p.HasOAuth = true
			p.OAuth = newOAuthEntries(req, w.OAuth)
		}
	}
	for _, r := range req.Risks {
		msg, flag := riskMessage(r, req.ProjectRoot)
		p.Risks = append(p.Risks, msg)
		if v := p.valueAt(r); v != nil && !hasMessage(v.Flags, flag) {
			v.Flags = append(v.Flags, flag)
		}
	}
}

// valueAt is the value a risk is about, or nil when the dialog shows none.
func (p *ApprovalProps) valueAt(r domain.Risk) *ApprovalValue {
	entry := func(list []ApprovalEntry) *ApprovalValue {
		for i := range list {
			if list[i].Key == visible(r.Key) {
				return &list[i].Value
			}
		}
		return nil
	}
	switch r.Field {
	case domain.FieldCommand:
		return &p.Command
	case domain.FieldArgs:
		if r.Index >= 0 && r.Index < len(p.Args) {
			return &p.Args[r.Index]
		}
	case domain.FieldCwd:
		return p.Cwd
	case domain.FieldEnv:
		return entry(p.Env)
	case domain.FieldHeaders:
		return entry(p.Headers)
	case domain.FieldURL:
		return &p.URL
	case domain.FieldOAuth:
		for i := range p.OAuth {
			if e := &p.OAuth[i]; e.Key == r.Key && (r.Key != "scopes" || e.index == r.Index) {
				return &e.Value
			}
		}
	}
	return nil
}

// newOAuthEntries lists the members of the oauth key that are set, in the
// order a sign-in uses them; each scope is an entry of its own. The client
// secret is redacted but for its ${VAR} references: the dialog names the
// variables a sign-in sends without showing a secret written in the file.
func newOAuthEntries(req *domain.ApprovalRequest, o *domain.OAuthSettings) []ApprovalEntry {
	var out []ApprovalEntry
	add := func(key, value string, index int) {
		if value == "" {
			return
		}
		out = append(out, ApprovalEntry{Key: key, Value: newApprovalValue(value, refNotes(req, domain.FieldOAuth, key, index)), index: index})
	}
	add("clientId", o.ClientID, 0)
	add("clientSecret", domain.RedactWrittenSecret(o.ClientSecret), 0)
	add("clientMetadataUrl", o.ClientMetadataURL, 0)
	for i, sc := range o.Scopes {
		out = append(out, ApprovalEntry{Key: "scopes", Value: newApprovalValue(sc, refNotes(req, domain.FieldOAuth, "scopes", i)), index: i})
	}
	return out
}

// riskMessage words a risk for the summary and for the flag beside the
// value it is about.
func riskMessage(r domain.Risk, root string) (summary, flag Message) {
	switch r.Kind {
	case domain.RiskLoaderEnv:
		return Message{ID: "ApprovalRiskLoader", Data: map[string]any{"Key": visible(r.Key)}}, Message{ID: "ApprovalFlagLoader"}
	case domain.RiskInlineCode:
		return Message{ID: "ApprovalRiskInline", Data: map[string]any{"Program": r.Program, "Number": r.Index + 1}}, Message{ID: "ApprovalFlagInline"}
	case domain.RiskPrivilege:
		return Message{ID: "ApprovalRiskPrivilege", Data: map[string]any{"Program": r.Program}}, Message{ID: "ApprovalFlagPrivilege"}
	case domain.RiskCwdOutside:
		return Message{ID: "ApprovalRiskOutside", Data: map[string]any{"Root": visible(root)}}, Message{ID: "ApprovalFlagOutside"}
	case domain.RiskCwdRelative:
		return Message{ID: "ApprovalRiskRelative"}, Message{ID: "ApprovalFlagRelative"}
	case domain.RiskSendsEnv:
		data := map[string]any{"Key": visible(r.Key), "Variable": r.Variable, "Host": visible(r.SentTo)}
		if r.Field == domain.FieldHeaders {
			return Message{ID: "ApprovalRiskSendsHeader", Data: data}, Message{ID: "ApprovalFlagSends"}
		}
		if r.Field == domain.FieldOAuth {
			return Message{ID: "ApprovalRiskSendsOAuth", Data: data}, Message{ID: "ApprovalFlagSends"}
		}
		return Message{ID: "ApprovalRiskSendsURL", Data: data}, Message{ID: "ApprovalFlagSends"}
	}
	return Message{ID: "ApprovalRiskOther", Data: map[string]any{"Kind": string(r.Kind)}}, Message{ID: "ApprovalFlagOther"}
}

// refNotes explains each ${VAR} of one value: which variable it reads and
// where its value goes.
func refNotes(req *domain.ApprovalRequest, f domain.Field, key string, index int) []Message {
	var notes []Message
	for _, r := range req.Refs {
		indexed := f == domain.FieldArgs || (f == domain.FieldOAuth && key == "scopes")
		if r.Field != f || r.Key != key || (indexed && r.Index != index) {
			continue
		}
		data := map[string]any{"Ref": "${" + r.Variable + "}", "Variable": r.Variable}
		id := "ApprovalRefPasses"
		switch {
		case r.SentTo != "":
			id, data["Host"] = "ApprovalRefSends", visible(r.SentTo)
		case f == domain.FieldCommand:
			id = "ApprovalRefCommand"
		case f == domain.FieldCwd:
			id = "ApprovalRefCwd"
		}
		notes = append(notes, Message{ID: id, Data: data})
	}
	return notes
}

// newApprovalEntries lists env variables or headers sorted by key.
func newApprovalEntries(req *domain.ApprovalRequest, f domain.Field, m map[string]string) []ApprovalEntry {
	var out []ApprovalEntry
	for _, k := range domain.SortedKeys(m) {
		out = append(out, ApprovalEntry{Key: visible(k), Value: newApprovalValue(m[k], refNotes(req, f, k, 0))})
	}
	return out
}

func newApprovalValue(s string, notes []Message) ApprovalValue {
	text := visible(s)
	if text == "" {
		text = `""` // an empty argument still counts
	}
	return ApprovalValue{Text: text, Notes: notes}
}

// visible shows s with every character that would hide or disguise text
// spelled out as \u{XXXX}: what domain.IsDisplayControl reports (controls,
// bidi marks, separators, invisible characters), but newline and tab, which
// the dialog shows as such, and U+FFFD, which also stands for bytes that
// are not UTF-8.
func visible(s string) string {
	if strings.IndexFunc(s, hidden) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			fmt.Fprintf(&b, `\u{%04X}`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func hidden(r rune) bool {
	return (domain.IsDisplayControl(r) && r != '\n' && r != '\t') || r == utf8.RuneError
}

func hasMessage(list []Message, m Message) bool {
	for _, x := range list {
		if x.ID == m.ID {
			return true
		}
	}
	return false
}
