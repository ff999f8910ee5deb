package main

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// waitLog waits until the bridge's log says want.
func waitLog(t *testing.T, p *bridgeProc, want string) {
	t.Helper()
	select {
	case <-p.logs.saying(want):
	case <-time.After(patience):
		t.Fatalf("the bridge never logged %q; log:\n%s", want, p.logs)
	}
}

// bridgeLog collects a bridge's stderr, and tells a test when it says
// something.
type bridgeLog struct {
	mu    sync.Mutex // guards buf and waits
	buf   strings.Builder
	waits map[string]chan struct{}
}

func (l *bridgeLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.buf.Write(p)
	for want, ch := range l.waits {
		if strings.Contains(l.buf.String(), want) {
			close(ch)
			delete(l.waits, want)
		}
	}
	return n, err
}

func (l *bridgeLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// saying returns a channel closed once the log contains want.
func (l *bridgeLog) saying(want string) <-chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch := make(chan struct{})
	if strings.Contains(l.buf.String(), want) {
		close(ch)
		return ch
	}
	if l.waits == nil {
		l.waits = map[string]chan struct{}{}
	}
	l.waits[want] = ch
	return ch
}
