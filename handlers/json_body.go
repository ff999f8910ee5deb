package handlers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
)

// notJSON returns the 400 (with code) for a request body that is not
// valid JSON, saying where it breaks, or nil when body is valid JSON or
// empty (each endpoint decides what an empty body means). A person
// fixing a hand-written curl call needs the place, not the parser's
// offset.
func notJSON(body []byte, code string) error {
	if len(bytes.TrimSpace(body)) == 0 || json.Valid(body) {
		return nil
	}
	var raw json.RawMessage
	err := json.Unmarshal(body, &raw)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return &apiError{http.StatusBadRequest, code, "request body is not valid JSON"}
	}
	line, col := lineColumn(body, se)
	return &apiError{http.StatusBadRequest, code, fmt.Sprintf("request body is not valid JSON (line %d, column %d)", line, col)}
}

// lineColumn turns a syntax error's byte offset into a line and a column
// in characters, both counted from 1. The offset counts the byte that
// broke the document, so the place is the byte before it; a document cut
// short breaks just after its last byte.
func lineColumn(body []byte, se *json.SyntaxError) (int, int) {
	pos := int(min(max(se.Offset-1, 0), int64(len(body))))
	if se.Offset >= int64(len(body)) && endsEarly(body) {
		pos = len(body)
	}
	before := body[:pos]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte{'\n'}) + 1, utf8.RuneCount(before[lineStart:]) + 1
}

// endsEarly reports whether body is a JSON document cut short: valid so
// far, but unfinished at its end (inside a value, or with an array or
// object still open).
func endsEarly(body []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(body))
	open := 0
	for {
		tok, err := dec.Token()
		switch {
		case errors.Is(err, io.EOF):
			return open > 0
		case err != nil:
			return errors.Is(err, io.ErrUnexpectedEOF)
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			open++
		case json.Delim('}'), json.Delim(']'):
			open--
		}
	}
}

// readSmallJSON reads a request body of at most limit bytes into v,
// strictly, and reports whether it was empty (v is then untouched). Bad
// JSON answers the 400 notJSON gives, saying where it breaks; a body too
// large, of another shape, or with a field v does not know answers shape,
// the endpoint's own sentence about the body it wants.
func readSmallJSON(c echo.Context, v any, limit int64, shape error) (bool, error) {
	raw, err := io.ReadAll(io.LimitReader(c.Request().Body, limit+1))
	if err != nil || int64(len(raw)) > limit {
		return false, shape
	}
	if err := notJSON(raw, "bad_request"); err != nil {
		return false, err
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return true, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return false, shape
	}
	return false, nil
}
