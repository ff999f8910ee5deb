package domain

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// SettingsError points at the place in a settings file that is wrong, so a
// person can go straight to it.
type SettingsError struct {
	File    string
	Line    int // 1-based; 0 when unknown
	Column  int // 1-based, in characters
	Server  string
	Message string
}

func (e *SettingsError) Error() string {
	pos := e.File
	if e.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Column)
	}
	if e.Server != "" {
		return fmt.Sprintf("%s: server %q: %s", pos, e.Server, e.Message)
	}
	return fmt.Sprintf("%s: %s", pos, e.Message)
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	col = utf8.RuneCount(before[lineStart:]) + 1
	return line, col
}
