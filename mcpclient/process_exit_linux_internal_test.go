//go:build linux

package mcpclient

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"
)

// TestAwaitExitHoldsNoThreadPerChild waits on many running children at
// once and checks that the waits do not each pin an OS thread, as a
// blocking wait would, and that every wait ends when its child exits.
func TestAwaitExitHoldsNoThreadPerChild(t *testing.T) {
	const children = 64
	before := threads(t)
	var stdins []*os.File
	done := make(chan bool, children)
	for range children {
		cmd := exec.Command("cat")
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = r
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		_ = r.Close()
		stdins = append(stdins, w)
		go func() {
			ok := awaitExit(cmd.Process.Pid)
			_ = cmd.Wait()
			done <- ok
		}()
	}
	t.Cleanup(func() { closeFiles(stdins...) })
	// The children are all running and every wait is parked (or about
	// to park) now; a thread per wait would show as many new threads.
	if grown := threads(t) - before; grown >= children/2 {
		t.Errorf("threads grew by %d while waiting on %d children, want fewer than %d", grown, children, children/2)
	}
	closeFiles(stdins...)
	for range children {
		if !<-done {
			t.Fatal("awaitExit = false, want true where pidfds work")
		}
	}
}

// TestAwaitExitOfAnExitedChild returns at once for a child that has
// already exited but is not yet reaped.
func TestAwaitExitOfAnExitedChild(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !awaitExit(cmd.Process.Pid) {
		t.Fatal("awaitExit = false, want true")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("Wait after awaitExit: %v", err)
	}
}

// threads reads how many OS threads this process has.
func threads(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	for line := range bytes.Lines(data) {
		if v, ok := bytes.CutPrefix(line, []byte("Threads:")); ok {
			n, err := strconv.Atoi(string(bytes.TrimSpace(v)))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatal("no Threads in /proc/self/status")
	return 0
}
