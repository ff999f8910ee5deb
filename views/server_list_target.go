package views

import "strings"

// targetTailRunes is the most of a target's end that stays whole when the
// list is too narrow for all of it.
const targetTailRunes = 28

// SplitTarget cuts a target into a head, which the list may shorten with
// an ellipsis, and a tail that always stays visible, so a long path reads
// "/usr/bin/node …/server-memory/dist/index.js" at any width. The tail
// starts at a path separator where one is near enough, so no name is
// broken mid-word; a short target is all head. head+tail is always the
// whole target, which screen readers and copying still get.
func SplitTarget(target string) (head, tail string) {
	r := []rune(target)
	if len(r) <= targetTailRunes {
		return target, ""
	}
	start := len(r) - targetTailRunes
	window := string(r[start:])
	if i := strings.IndexAny(window, "/\\ "); i >= 0 && i < len(window)-1 {
		cut := len(string(r[:start])) + i
		return target[:cut], target[cut:]
	}
	cut := len(string(r[:start]))
	return target[:cut], target[cut:]
}
