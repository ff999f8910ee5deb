package main

import (
	"os"
	"path/filepath"
)

// userHome is the directory a user's own stdio servers run in when their
// entry sets no cwd: HOME as Switchboard sees it, else the system's idea
// of it, made absolute; empty only when neither is known.
func userHome(getenv func(string) string) string {
	h := getenv("HOME")
	if h == "" {
		h, _ = os.UserHomeDir()
	}
	if h == "" {
		return ""
	}
	if abs, err := filepath.Abs(h); err == nil {
		return abs
	}
	return h
}
