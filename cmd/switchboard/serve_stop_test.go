package main

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
)

// A listener that fails under a running server makes serve's wait return
// an error (so the process exits non-zero), and the wait logs nothing
// itself: main prints the error once.
func TestUntilStoppedFailsWhenTheServerDoes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.NotFoundHandler()}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	_ = ln.Close() // the listener fails under the server

	var logs bytes.Buffer
	err = untilStopped(t.Context(), served, slog.New(slog.NewTextHandler(&logs, nil)))
	if err == nil || !errors.Is(err, net.ErrClosed) {
		t.Fatalf("untilStopped = %v, want an error wrapping net.ErrClosed", err)
	}
	if logs.Len() != 0 {
		t.Errorf("untilStopped logged %q; main prints the error, once", logs.String())
	}
}

// An ordinary stop (ctx ends) is no error.
func TestUntilStoppedOnShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	var logs bytes.Buffer
	if err := untilStopped(ctx, make(chan error), slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatalf("untilStopped after ctx ended = %v, want nil", err)
	}
	if !strings.Contains(logs.String(), "shutting down") {
		t.Errorf("logs %q, want the shutdown noted", logs.String())
	}
}
