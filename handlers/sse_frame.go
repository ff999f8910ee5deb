package handlers

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// appendSSE appends one server-sent event to buf: its name, its id when id
// is not empty, and data as one data line per line. Every line break a
// browser's EventSource honours (CR, LF, CRLF) starts a new data line, so
// data holding text from a server, which may contain any of them, can
// never end the event early and inject a field. Every stream Switchboard
// serves frames its events here, so they cannot drift apart.
func appendSSE(buf []byte, event, id string, data []byte) []byte {
	buf = append(buf, "event: "...)
	buf = append(buf, event...)
	buf = append(buf, '\n')
	if id != "" {
		buf = append(buf, "id: "...)
		buf = append(buf, id...)
		buf = append(buf, '\n')
	}
	for {
		i := bytes.IndexAny(data, "\r\n")
		buf = append(buf, "data: "...)
		if i < 0 {
			buf = append(buf, data...)
			buf = append(buf, '\n')
			break
		}
		buf = append(buf, data[:i]...)
		buf = append(buf, '\n')
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		data = data[i+1:]
	}
	return append(buf, '\n')
}

// appendJSONEvent appends v, encoded as JSON, as one event whose id is
// version, the counter that orders the stream's snapshots. JSON from
// encoding/json never holds a raw line break, so one data line carries it.
func appendJSONEvent(buf []byte, event string, version uint64, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return buf, err
	}
	return appendSSE(buf, event, strconv.FormatUint(version, 10), data), nil
}
