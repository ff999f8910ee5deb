package handlers

import (
	"maps"
	"slices"

	"github.com/switchboard-mcp/switchboard/domain"
)

// ApprovalDTO is a pending project server as its approval dialog shows it,
// so an API client approves knowingly: the entry as the file spells it
// (${VAR} unexpanded, nothing redacted: it is the project's own text), the
// environment variables it reads, what changes how it runs, and the
// fingerprint a decision must send back.
type ApprovalDTO struct {
	Fingerprint string      `json:"fingerprint"`
	Transport   string      `json:"transport"`
	ProjectRoot string      `json:"projectRoot"`
	Written     WrittenDTO  `json:"written"`
	Variables   []EnvRefDTO `json:"variables"`
	Risks       []RiskDTO   `json:"risks"`
}

// WrittenDTO is a server entry's values exactly as written.
type WrittenDTO struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Cwd     string            `json:"cwd,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	OAuth   *WrittenOAuthDTO  `json:"oauth,omitempty"`
}

// WrittenOAuthDTO is the "oauth" key as written: the client identity and
// scopes a sign-in will present. The client secret alone is redacted
// (its ${VAR} references stay), so that approving never means reading a
// secret off the screen or out of a log of API answers.
type WrittenOAuthDTO struct {
	ClientID          string   `json:"clientId,omitempty"`
	ClientSecret      string   `json:"clientSecret,omitempty"`
	ClientMetadataURL string   `json:"clientMetadataUrl,omitempty"`
	Scopes            []string `json:"scopes,omitempty"`
}

// EnvRefDTO is one ${VAR} of the entry: where it is (key for env and
// headers, and the member of the "oauth" key: clientId, clientSecret,
// clientMetadataUrl or scopes; index for args) and, for a remote server,
// where it is sent.
type EnvRefDTO struct {
	Variable string `json:"variable"`
	Field    string `json:"field"`
	Key      string `json:"key,omitempty"`
	Index    *int   `json:"index,omitempty"`
	SentTo   string `json:"sentTo,omitempty"`
}

// RiskDTO is one flagged setting; Kind is stable for programs
// (loader_env, inline_code, privilege, cwd_outside_project, cwd_relative, sends_env)
// and Message says it in English.
type RiskDTO struct {
	Kind     string `json:"kind"`
	Field    string `json:"field"`
	Key      string `json:"key,omitempty"`
	Index    *int   `json:"index,omitempty"`
	Program  string `json:"program,omitempty"`
	Variable string `json:"variable,omitempty"`
	SentTo   string `json:"sentTo,omitempty"`
	Message  string `json:"message"`
}

// ApprovalJSON converts an approval request into its wire form, copying
// its slices and maps so the DTO never aliases the shared request.
func ApprovalJSON(r *domain.ApprovalRequest) *ApprovalDTO {
	w := r.Written
	d := &ApprovalDTO{
		Fingerprint: r.Fingerprint,
		Transport:   string(r.Transport),
		ProjectRoot: r.ProjectRoot,
		Written: WrittenDTO{Command: w.Command, Args: slices.Clone(w.Args), Cwd: w.Cwd, Env: maps.Clone(w.Env),
			URL: w.URL, Headers: maps.Clone(w.Headers)},
		Variables: make([]EnvRefDTO, 0, len(r.Refs)),
		Risks:     make([]RiskDTO, 0, len(r.Risks)),
	}
	if o := w.OAuth; o != nil {
		d.Written.OAuth = &WrittenOAuthDTO{ClientID: o.ClientID, ClientSecret: domain.RedactWrittenSecret(o.ClientSecret),
			ClientMetadataURL: o.ClientMetadataURL, Scopes: slices.Clone(o.Scopes)}
	}
	for _, ref := range r.Refs {
		d.Variables = append(d.Variables, EnvRefDTO{Variable: ref.Variable, Field: string(ref.Field), Key: ref.Key,
			Index: argIndex(ref.Field, ref.Index), SentTo: ref.SentTo})
	}
	for _, k := range r.Risks {
		d.Risks = append(d.Risks, RiskDTO{Kind: string(k.Kind), Field: string(k.Field), Key: k.Key,
			Index: argIndex(k.Field, k.Index), Program: k.Program, Variable: k.Variable, SentTo: k.SentTo, Message: k.String()})
	}
	return d
}

// argIndex is an argument's index, or nil for fields without one.
func argIndex(f domain.Field, i int) *int {
	if f != domain.FieldArgs {
		return nil
	}
	return &i
}
