package domain

import (
	"net/url"
	"sort"
)

// ApprovalRequest is what a person is asked before a project server runs:
// the entry as the file spells it, the environment variables it reads and
// the settings that change how a program runs. Approving is bound to
// Fingerprint, so a decision applies only to the config that was shown.
// It is immutable once built; statuses share it by pointer.
type ApprovalRequest struct {
	Fingerprint string
	Transport   Transport
	ProjectRoot string
	Written     RawConfig
	Refs        []EnvRef
	Risks       []Risk
}

// Field names the part of a server entry a reference or risk sits in.
type Field string

const (
	FieldCommand Field = "command"
	FieldArgs    Field = "args"
	FieldCwd     Field = "cwd"
	FieldEnv     Field = "env"
	FieldURL     Field = "url"
	FieldHeaders Field = "headers"
	// FieldOAuth is the "oauth" key; Key names its member (clientId,
	// clientSecret, clientMetadataUrl, scopes) and Index the scope.
	FieldOAuth Field = "oauth"
)

// EnvRef is one ${VAR} reference of an entry: the variable, where it is
// (Key for env and headers, Index for args) and, for a remote server, the
// host its value is sent to.
type EnvRef struct {
	Variable string
	Field    Field
	Key      string
	Index    int
	SentTo   string
}

// NewApprovalRequest describes cfg for a person deciding whether it may
// run; projectRoot is the directory a working directory is judged against,
// and resolve says where paths lead on disk (nil: as written).
func NewApprovalRequest(cfg ServerConfig, projectRoot string, resolve PathResolver) *ApprovalRequest {
	w := cfg.Written()
	r := &ApprovalRequest{Fingerprint: cfg.Fingerprint(), Transport: cfg.Transport, ProjectRoot: projectRoot, Written: w}
	host := ""
	if cfg.Transport != TransportStdio {
		host = hostOf(w.URL)
	}
	add := func(f Field, key string, index int, s, sentTo string) {
		for _, v := range EnvRefs(s) {
			r.Refs = append(r.Refs, EnvRef{Variable: v, Field: f, Key: key, Index: index, SentTo: sentTo})
		}
	}
	if cfg.Transport == TransportStdio {
		add(FieldCommand, "", 0, w.Command, "")
		for i, a := range w.Args {
			add(FieldArgs, "", i, a, "")
		}
		add(FieldCwd, "", 0, w.Cwd, "")
		for _, k := range SortedKeys(w.Env) {
			add(FieldEnv, k, 0, w.Env[k], "")
		}
	} else {
		add(FieldURL, "", 0, w.URL, host)
		for _, k := range SortedKeys(w.Headers) {
			add(FieldHeaders, k, 0, w.Headers[k], host)
		}
		// The client identity and scopes travel to the authorization
		// server the remote server names, which the file does not say; the
		// server's host is what a person can judge it by.
		if o := w.OAuth; o != nil {
			add(FieldOAuth, "clientId", 0, o.ClientID, host)
			add(FieldOAuth, "clientSecret", 0, o.ClientSecret, host)
			add(FieldOAuth, "clientMetadataUrl", 0, o.ClientMetadataURL, host)
			for i, sc := range o.Scopes {
				add(FieldOAuth, "scopes", i, sc, host)
			}
		}
	}
	r.Risks = risksOf(cfg, w, projectRoot, resolve, r.Refs)
	return r
}

// SortedKeys returns m's keys in order, so env and headers always list the
// same way.
func SortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hostOf is where a remote server's requests go, from the URL as written;
// a URL that does not parse is named whole.
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	return u.Host
}
