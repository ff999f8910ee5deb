package main

import "os"

// userHome is the directory a user's own stdio servers run in when their
// entry sets no cwd: HOME as Switchboard sees it, else the system's idea
// of it; empty only when neither is known.
func userHome(getenv func(string) string) string {
	if h := getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}
