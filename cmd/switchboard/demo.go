package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/switchboard-mcp/switchboard/demoserver"
	"github.com/switchboard-mcp/switchboard/domain"
)

// demoCrashEvery is how often the flaky demo server dies: soon enough that
// a new user sees error, backoff and reconnect within the first minutes,
// and seldom enough that it never dies five times in ten minutes, which
// would auto-disable it as a crash loop.
const demoCrashEvery = 150 * time.Second

// demo is the built-in configuration: three real demo servers, two as
// child processes of this binary and one on an HTTP endpoint it serves.
type demo struct {
	servers []domain.ServerConfig
	stop    func() // ends the HTTP endpoint and waits for it; safe to call twice
}

// startDemo starts the HTTP demo endpoint and returns the demo servers.
func startDemo(ctx context.Context, log *slog.Logger) (*demo, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("demo: find this binary: %w", err)
	}
	url, stop, err := startDemoHTTP(ctx, log)
	if err != nil {
		return nil, err
	}
	stdio := func(name string, extra ...string) domain.ServerConfig {
		return domain.ServerConfig{
			Name: name, Transport: domain.TransportStdio, Command: exe,
			Args:          append([]string{"demo-server", "--name", name}, extra...),
			AutoReconnect: true, KeepAlive: domain.DefaultKeepAlive, ConnectTimeout: domain.DefaultConnectTimeout,
		}
	}
	return &demo{
		servers: []domain.ServerConfig{
			stdio("demo-stdio"),
			{Name: "demo-http", Transport: domain.TransportHTTP, URL: url,
				AutoReconnect: true, KeepAlive: domain.DefaultKeepAlive, ConnectTimeout: domain.DefaultConnectTimeout},
			stdio("demo-flaky", "--crash-every", demoCrashEvery.String()),
		},
		stop: stop,
	}, nil
}

// startDemoHTTP serves a demo server over streamable HTTP on a free
// loopback port and returns its URL once it is listening.
func startDemoHTTP(ctx context.Context, log *slog.Logger) (string, func(), error) {
	ctx, cancel := context.WithCancel(ctx)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	logw := &slogWriter{log: log.With("server", "demo-http")}
	go func() {
		err := demoserver.Run(ctx, []string{"--transport", "http", "--addr", "127.0.0.1:0", "--name", "demo-http"}, strings.NewReader(""), pw, logw)
		pw.CloseWithError(errors.Join(err, io.EOF))
		done <- err
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	const prefix = "demo-server listening on "
	if err != nil || !strings.HasPrefix(line, prefix) {
		cancel()
		return "", nil, fmt.Errorf("demo: start the HTTP demo server: %w", errors.Join(err, <-done))
	}
	// The demo ends when a settings file replaces it and again at
	// shutdown; the second call has nothing left to do.
	stop := sync.OnceFunc(func() {
		cancel()
		<-done
	})
	return strings.TrimSpace(strings.TrimPrefix(line, prefix)), stop, nil
}

// slogWriter turns the in-process demo server's stderr lines into debug
// log records, so they do not interleave raw with the structured log.
type slogWriter struct{ log *slog.Logger }

func (w *slogWriter) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		if line != "" {
			w.log.Debug(line)
		}
	}
	return len(p), nil
}
