package domain

import (
	"bytes"
	"encoding/json"
	"strings"
)

// JSONMembers returns the members of the JSON object obj by name, each
// value as written (a slice of obj, not a copy), or nil if obj is not an
// object; of a name given twice the last counts, as in encoding/json. It
// exists for results of many megabytes, which json.Unmarshal would copy
// whole to reach one field. obj must be valid JSON (json.Valid): it is
// scanned, not checked.
func JSONMembers(obj []byte) map[string][]byte {
	i := skipJSONSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	members := map[string][]byte{}
	i = skipJSONSpace(obj, i+1)
	for obj[i] != '}' {
		keyEnd := skipJSONValue(obj, i)
		var key string
		_ = json.Unmarshal(obj[i:keyEnd], &key)
		i = skipJSONSpace(obj, skipJSONSpace(obj, keyEnd)+1) // past the ':'
		end := skipJSONValue(obj, i)
		members[key] = obj[i:end]
		i = skipJSONSpace(obj, end)
		if obj[i] == ',' {
			i = skipJSONSpace(obj, i+1)
		}
	}
	return members
}

// JSONElements returns the elements of the JSON array arr, each as written
// (a slice of arr), or nil if arr is not an array. arr must be valid JSON.
func JSONElements(arr []byte) [][]byte {
	i := skipJSONSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return nil
	}
	elems := [][]byte{}
	i = skipJSONSpace(arr, i+1)
	for arr[i] != ']' {
		end := skipJSONValue(arr, i)
		elems = append(elems, arr[i:end])
		i = skipJSONSpace(arr, end)
		if arr[i] == ',' {
			i = skipJSONSpace(arr, i+1)
		}
	}
	return elems
}

// memberOrder is the names of a valid JSON object's members in the order
// written, each once.
func memberOrder(obj []byte) []string {
	var names []string
	seen := map[string]bool{}
	i := skipJSONSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return nil
	}
	i = skipJSONSpace(obj, i+1)
	for obj[i] != '}' {
		keyEnd := skipJSONValue(obj, i)
		var key string
		_ = json.Unmarshal(obj[i:keyEnd], &key)
		if !seen[key] {
			seen[key] = true
			names = append(names, key)
		}
		i = skipJSONSpace(obj, skipJSONSpace(obj, keyEnd)+1)
		i = skipJSONSpace(obj, skipJSONValue(obj, i))
		if obj[i] == ',' {
			i = skipJSONSpace(obj, i+1)
		}
	}
	return names
}

// skipJSONValue returns where the valid JSON value starting at b[i] ends.
func skipJSONValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		j := i + 1
		for {
			j += bytes.IndexByte(b[j:], '"')
			escapes := 0
			for k := j - 1; b[k] == '\\'; k-- {
				escapes++
			}
			if escapes%2 == 0 {
				return j + 1
			}
			j++
		}
	case '{', '[':
		depth := 0
		for j := i; ; j++ {
			switch b[j] {
			case '"':
				j = skipJSONValue(b, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
	}
	j := i
	for j < len(b) && strings.IndexByte(",}] \t\r\n", b[j]) < 0 {
		j++
	}
	return j
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}
