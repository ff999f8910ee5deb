package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// errLineTooLong means a line was longer than the limit; it was skipped.
var errLineTooLong = errors.New("line too long")

// lineReader reads newline-delimited messages of at most limit bytes. A
// longer line is skipped whole and reported, and reading goes on: one bad
// message must not end the client's session.
type lineReader struct {
	r     *bufio.Reader
	limit int64
}

func newLineReader(r io.Reader, limit int64) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
}

// next returns the next non-blank line without its line ending.
func (l *lineReader) next() ([]byte, error) {
	for {
		line, err := l.line()
		if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
			return nil, err
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// line reads up to the next newline, or to the end of input.
func (l *lineReader) line() ([]byte, error) {
	var buf []byte
	tooLong := false
	for {
		frag, err := l.r.ReadSlice('\n')
		if !tooLong {
			if int64(len(buf)+len(frag)) > l.limit+2 { // +2: the line ending
				tooLong, buf = true, nil
			} else {
				buf = append(buf, frag...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case tooLong && (err == nil || errors.Is(err, io.EOF)):
			return nil, errLineTooLong
		case err != nil:
			return buf, err
		}
		return buf, nil
	}
}

// readEvents reads a server-sent event stream and hands each event's data
// to emit as one compact line. Events named other than "message" carry no
// JSON-RPC and are skipped; so is data that is not JSON.
func readEvents(r io.Reader, limit int64, emit func([]byte)) error {
	lines := &lineReader{r: bufio.NewReaderSize(r, 64<<10), limit: limit}
	var data []byte
	event := ""
	for {
		line, err := lines.line()
		if errors.Is(err, errLineTooLong) {
			return fmt.Errorf("an event is larger than --max-message-bytes (%d)", limit)
		}
		if err != nil && !(errors.Is(err, io.EOF) && len(line) > 0) {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read event stream: %w", err)
		}
		line = bytes.TrimRight(line, "\r\n")
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch {
		case len(line) == 0:
			if len(data) > 0 && (event == "" || event == "message") {
				if msg, err := compactJSON(data); err == nil && isJSONRPC(msg) {
					emit(msg)
				}
			}
			data, event = nil, ""
		case string(field) == "data":
			if int64(len(data)+len(value)+1) > limit {
				return fmt.Errorf("an event is larger than --max-message-bytes (%d)", limit)
			}
			if data != nil {
				data = append(data, '\n')
			}
			data = append(data, value...)
		case string(field) == "event":
			event = string(value)
		}
		if err != nil {
			return nil
		}
	}
}
