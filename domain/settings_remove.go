package domain

import (
	"encoding/json"
	"fmt"
	"slices"
)

// RemoveServerEntry returns data without the named server's entries,
// leaving every other byte (comments aside, JSON has none) exactly as it
// was, so a person's formatting and unrelated keys survive. A name defined
// more than once loses every definition: removing only the first would
// bring the second into effect.
func RemoveServerEntry(path string, data []byte, name string) ([]byte, error) {
	if !json.Valid(data) {
		_, err := ParseSettings(path, data, func(string) string { return "" })
		return nil, fmt.Errorf("remove %q: %w", name, err)
	}
	removed := false
	for {
		entries, err := scanEntries(data)
		if err != nil {
			return nil, fmt.Errorf("remove %q: %w", name, err)
		}
		i := slices.IndexFunc(entries, func(e entry) bool { return e.name == name && !e.notObject })
		if i < 0 {
			break
		}
		data = cutEntry(data, entries[i])
		removed = true
	}
	if !removed {
		return nil, fmt.Errorf("remove %q from %s: %w", name, path, ErrNotFound)
	}
	return data, nil
}

// cutEntry returns a copy of data without e and the comma that separates
// it from its neighbours.
func cutEntry(data []byte, e entry) []byte {
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
			// The only entry: drop the space before it too, so the
			// group's closing brace keeps its own indentation.
			start = before + 1
		}
	}
	out := make([]byte, 0, len(data))
	out = append(out, data[:start]...)
	out = append(out, data[end:]...)
	return out
}

func skipSpace(data []byte, i int64) int64 {
	for i < int64(len(data)) && isSpace(data[i]) {
		i++
	}
	return i
}
