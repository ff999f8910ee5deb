package domain

import (
	"encoding/json"
	"fmt"
)

// RemoveServerEntry returns data without the named server's entry, leaving
// every other byte (comments aside, JSON has none) exactly as it was, so a
// person's formatting and unrelated keys survive.
func RemoveServerEntry(path string, data []byte, name string) ([]byte, error) {
	if !json.Valid(data) {
		_, err := ParseSettings(path, data, func(string) string { return "" })
		return nil, fmt.Errorf("remove %q: %w", name, err)
	}
	entries, err := scanEntries(data)
	if err != nil {
		return nil, fmt.Errorf("remove %q: %w", name, err)
	}
	for _, e := range entries {
		if e.name != name || e.notObject {
			continue
		}
		start, end := e.keyStart, e.valueEnd
		// Take the separating comma with the entry: the one after it when
		// there is one, else the one before it.
		after := skipSpace(data, end)
		if after < int64(len(data)) && data[after] == ',' {
			end = skipSpace(data, after+1)
		} else {
			before := start - 1
			for before >= 0 && isSpace(data[before]) {
				before--
			}
			if before >= 0 && data[before] == ',' {
				start = before
			} else {
				// The only entry: leave the group's braces empty and tidy.
				end = after
			}
		}
		out := make([]byte, 0, len(data))
		out = append(out, data[:start]...)
		out = append(out, data[end:]...)
		return out, nil
	}
	return nil, fmt.Errorf("remove %q from %s: %w", name, path, ErrNotFound)
}

func skipSpace(data []byte, i int64) int64 {
	for i < int64(len(data)) && isSpace(data[i]) {
		i++
	}
	return i
}
