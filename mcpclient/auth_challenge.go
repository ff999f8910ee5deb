package mcpclient

import (
	"net/http"
	"regexp"
	"strings"
)

// authChallenge is what the categorizer needs of a refusal's
// WWW-Authenticate header: whether it says insufficient_scope, and the
// scopes it asks for. The oauth adapter parses challenges in full.
type authChallenge struct {
	insufficientScope bool
	scopes            []string
}

var (
	insufficientScopeRE = regexp.MustCompile(`(?i)\berror\s*=\s*"?insufficient_scope\b`)
	scopeParamRE        = regexp.MustCompile(`(?i)(?:^|[\s,])scope\s*=\s*(?:"([^"]*)"|([^\s,"]+))`)
)

// parseAuthChallenge reads the Bearer challenges of h.
func parseAuthChallenge(h http.Header) authChallenge {
	var ch authChallenge
	for _, v := range h.Values("WWW-Authenticate") {
		if insufficientScopeRE.MatchString(v) {
			ch.insufficientScope = true
		}
		if m := scopeParamRE.FindStringSubmatch(v); m != nil && ch.scopes == nil {
			ch.scopes = strings.Fields(m[1] + m[2])
		}
	}
	return ch
}
