package domain

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// elicitParams is the part of elicitation/create's params a person sees.
type elicitParams struct {
	Mode            string          `json:"mode"`
	Message         string          `json:"message"`
	RequestedSchema json.RawMessage `json:"requestedSchema"`
	URL             string          `json:"url"`
	ElicitationID   string          `json:"elicitationId"`
}

// ParseElicitation reads a server's elicitation/create params into an
// Elicitation without id or time. A request with no mode is a form (as
// before 2025-11-25); a URL-mode request needs an absolute http or https
// URL with a host, since a person is asked to open it and is shown the
// host. A message longer than the dashboard shows is cut; a schema, URL
// or id past its bound is refused.
func ParseElicitation(server string, params json.RawMessage) (Elicitation, error) {
	var p elicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return Elicitation{}, fmt.Errorf("read the elicitation params: %w", err)
	}
	e := Elicitation{Server: server, Mode: p.Mode, Message: cutText(p.Message, maxElicitMessageBytes)}
	switch p.Mode {
	case "", ElicitForm:
		e.Mode, e.RequestedSchema = ElicitForm, p.RequestedSchema
		if len(e.RequestedSchema) > maxElicitSchemaBytes {
			return Elicitation{}, fmt.Errorf("the elicitation's requestedSchema is %d bytes, more than the %d a form is built from",
				len(e.RequestedSchema), maxElicitSchemaBytes)
		}
		if len(e.RequestedSchema) == 0 || string(e.RequestedSchema) == "null" {
			e.RequestedSchema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
	case ElicitURL:
		if err := checkElicitURL(p.URL); err != nil {
			return Elicitation{}, err
		}
		if len(p.ElicitationID) > maxElicitIDBytes {
			return Elicitation{}, fmt.Errorf("the elicitation's elicitationId is longer than %d bytes", maxElicitIDBytes)
		}
		e.URL, e.ElicitationID = p.URL, p.ElicitationID
	default:
		return Elicitation{}, fmt.Errorf("unknown elicitation mode %q", cutText(p.Mode, 64))
	}
	return e, nil
}

// checkElicitURL accepts an address a person may be sent to: http or
// https, with a host, and nothing a browser reads differently from Go
// (backslashes, white space and control characters, which browsers drop
// or turn into slashes), and a host in ASCII, so that the host the person
// is shown is the one the browser goes to, spelled as it will show it.
func checkElicitURL(raw string) error {
	shown := cutText(raw, 200)
	if len(raw) > maxElicitURLBytes {
		return fmt.Errorf("the elicitation's url %q… is longer than %d bytes", shown, maxElicitURLBytes)
	}
	if !strings.HasPrefix(raw, "https://") && !strings.HasPrefix(raw, "http://") {
		return fmt.Errorf("the elicitation's url %q is not an http(s) address", shown)
	}
	if strings.ContainsFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '\\' }) {
		return fmt.Errorf("the elicitation's url %q holds white space, a control character or a backslash", shown)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("the elicitation's url %q is not an http(s) address with a host", shown)
	}
	if strings.ContainsFunc(u.Host, func(r rune) bool { return r > 0x7e }) {
		// A host in other scripts (or percent-encoded into them) can look
		// like another site's name; the browser goes to its punycode.
		return fmt.Errorf("the elicitation's url %q has a host that is not plain ASCII; send its punycode form", shown)
	}
	return nil
}
