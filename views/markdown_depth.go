package views

import "strings"

// markdownMaxNesting is how many quotes and list items one line may open
// before the text is shown unrendered. Parsing and sanitizing such lines
// is quadratic: 64 KB of ">" took four seconds and became 1.7 MB of HTML,
// and no person writes forty nested quotes.
const markdownMaxNesting = 32

// markdownTooDeep reports whether a line of src opens more than
// markdownMaxNesting quotes or list items. It reads src once.
func markdownTooDeep(src string) bool {
	for line := range strings.Lines(src) {
		if containerMarkers(line) > markdownMaxNesting {
			return true
		}
	}
	return false
}

// containerMarkers counts the quote and list markers a line starts with,
// stopping once past markdownMaxNesting.
func containerMarkers(line string) int {
	n, i := 0, 0
	for n <= markdownMaxNesting {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) {
			return n
		}
		switch c := line[i]; {
		case c == '>':
			i++
		case (c == '-' || c == '*' || c == '+') && blankAt(line, i+1):
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
				j++
			}
			if j >= len(line) || (line[j] != '.' && line[j] != ')') || !blankAt(line, j+1) {
				return n
			}
			i = j + 1
		default:
			return n
		}
		n++
	}
	return n
}

// blankAt reports whether line ends at i or holds a space there.
func blankAt(line string, i int) bool {
	return i >= len(line) || strings.IndexByte(" \t\r\n", line[i]) >= 0
}
