//go:build !unix

package main

import (
	"context"
	"syscall"
)

// detached has nothing to add where there are no sessions to leave.
func detached() *syscall.SysProcAttr { return nil }

// lockFile cannot lock here: bridges starting at the same moment may then
// each start a Switchboard, and the later ones fail to listen on the port
// the first took.
func lockFile(context.Context, string) (func(), error) { return func() {}, nil }

// lockHeld cannot tell here; the start lock and the health check remain.
func lockHeld(string) bool { return false }
