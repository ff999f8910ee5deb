package mcpclient

import (
	"errors"
	"strings"
)

// unrepeatedError is an mcp-go error whose message says each wrapping
// phrase once. It unwraps to the original, so errors.Is and errors.As
// (and with them the categories) see exactly what mcp-go returned.
type unrepeatedError struct {
	msg string
	err error
}

func (e *unrepeatedError) Error() string { return e.msg }
func (e *unrepeatedError) Unwrap() error { return e.err }

// unrepeated drops a wrapping layer that adds the same phrase as the layer
// it wraps: mcp-go's streamable HTTP transport wraps a failed request in
// "failed to send request: " twice, and people would read it twice in
// every status and card. It walks the wrap chain rather than splitting
// the text, so a colon inside a URL or a server's message is never taken
// for a layer. err is returned as it is when nothing repeats.
func unrepeated(err error) error {
	if err == nil {
		return nil
	}
	var b strings.Builder
	repeated := false
	prev := ""
	for e := err; e != nil; {
		msg := e.Error()
		inner := errors.Unwrap(e)
		if inner == nil {
			b.WriteString(msg)
			break
		}
		phrase, ok := strings.CutSuffix(msg, inner.Error())
		if !ok {
			// The layer writes more than a prefix; its text stands as is.
			b.WriteString(msg)
			break
		}
		if phrase != "" && phrase == prev {
			repeated = true
		} else {
			b.WriteString(phrase)
		}
		prev = phrase
		e = inner
	}
	if !repeated {
		return err
	}
	return &unrepeatedError{msg: b.String(), err: err}
}
