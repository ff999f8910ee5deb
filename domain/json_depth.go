package domain

import "fmt"

// MaxArgumentsDepth is how deeply tool-call arguments may nest arrays and
// objects. SQLite's json_valid refuses documents deeper than 1000 levels,
// which once turned deep arguments into a 500; no tool's input needs more
// than a few dozen levels, so anything past this is a client's mistake.
const MaxArgumentsDepth = 512

// DepthError says a JSON document nests deeper than Max. It is an
// ErrBadArguments, so every caller answers it as a bad request.
type DepthError struct{ Max int }

func (e *DepthError) Error() string {
	return fmt.Sprintf("arguments must not nest more than %d levels deep", e.Max)
}

func (e *DepthError) Unwrap() error { return ErrBadArguments }

// CheckJSONDepth returns a *DepthError when doc nests arrays and objects
// more than max levels deep. It counts brackets outside strings in one
// pass without building the value, so its cost does not depend on the
// shape of doc; whether doc is valid JSON is left to the decoder.
func CheckJSONDepth(doc []byte, max int) error {
	depth := 0
	inString := false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			if depth++; depth > max {
				return &DepthError{Max: max}
			}
		case '}', ']':
			depth--
		}
	}
	return nil
}
