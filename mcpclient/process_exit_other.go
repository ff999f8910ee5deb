//go:build !linux

package mcpclient

// awaitExit reports false: without pidfds the caller's blocking Wait does
// the waiting.
func awaitExit(int) bool { return false }
