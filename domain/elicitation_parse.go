package domain

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
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
// host. A message longer than the dashboard shows is cut (MessageBytes
// keeps its length); a schema, URL or id past its bound is refused.
func ParseElicitation(server string, params json.RawMessage) (Elicitation, error) {
	var p elicitParams
	if err := json.Unmarshal(params, &p); err != nil {
		return Elicitation{}, fmt.Errorf("read the elicitation params: %w", err)
	}
	e := Elicitation{Server: server, Mode: p.Mode, Message: cutText(p.Message, maxElicitMessageBytes),
		MessageBytes: len(p.Message)}
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
// https, with a host, without userinfo, and with nothing a browser reads
// differently from Go or shows differently from what it is (backslashes,
// white space, control and bidirectional formatting characters, which
// browsers drop, turn into slashes or use to reorder what is shown). A
// host in other scripts is accepted: the dashboard shows its punycode
// form beside it, the name the browser goes to, so a look-alike is seen.
func checkElicitURL(raw string) error {
	shown := cutText(raw, 200)
	if len(raw) > maxElicitURLBytes {
		return fmt.Errorf("the elicitation's url %q… is longer than %d bytes", shown, maxElicitURLBytes)
	}
	if !strings.HasPrefix(raw, "https://") && !strings.HasPrefix(raw, "http://") {
		return fmt.Errorf("the elicitation's url %q is not an http(s) address", shown)
	}
	if !utf8.ValidString(raw) || strings.ContainsFunc(raw, unsafeURLRune) {
		return fmt.Errorf("the elicitation's url %q holds white space, a control character or a backslash", shown)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return fmt.Errorf("the elicitation's url %q is not an http(s) address with a host", shown)
	}
	if u.User != nil {
		// https://good.example@evil.example/ goes to evil.example.
		return fmt.Errorf("the elicitation's url %q holds a user name or password before its host", shown)
	}
	if strings.ContainsFunc(u.Host, unsafeURLRune) {
		// Percent-encoded into the host, they are decoded by Go and the
		// browser alike.
		return fmt.Errorf("the elicitation's url %q has a host with white space or a control character", shown)
	}
	return nil
}

// unsafeURLRune reports whether r has no place in an address shown to a
// person: a backslash, white space, a control character, or a
// bidirectional formatting character, which reorders what is shown.
func unsafeURLRune(r rune) bool {
	return r == '\\' || unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}
