package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/switchboard-mcp/switchboard/handlers"
)

// startLockName is the file in the data directory whose lock a bridge
// holds while it starts Switchboard, so that clients launching several
// bridges at once start one Switchboard, never one each.
const startLockName = "start.lock"

// startLogName is where a Switchboard the bridge started writes its
// output, as nobody watches its terminal.
const startLogName = "switchboard.log"

// maxStartLogBytes is the size past which the next start begins a new
// log, keeping the previous one as switchboard.log.1.
const maxStartLogBytes = 10 << 20

// startTimeout bounds how long a started Switchboard may take to answer.
const startTimeout = 30 * time.Second

// locate returns the base URL of the data directory's Switchboard and the
// token to use there, starting Switchboard when none answers and --start
// allows it.
func (b *bridge) locate(ctx context.Context) (base, token string, err error) {
	base, inst, err := b.running(ctx)
	if err != nil {
		return "", "", err
	}
	if base == "" {
		if !b.cfg.start {
			return "", "", fmt.Errorf("no Switchboard answers for %s; start it, or drop --start=false", b.cfg.data)
		}
		if base, inst, err = b.startLocked(ctx); err != nil {
			return "", "", err
		}
	}
	if b.cfg.token != "" {
		return base, b.cfg.token, nil
	}
	tokenFile := ""
	if inst != nil {
		tokenFile = inst.TokenFile
	}
	token, err = statusToken(b.cfg.data, tokenFile, b.getenv)
	if err != nil {
		return "", "", err
	}
	return base, token, nil
}

// running returns the base URL of a Switchboard that answers for the data
// directory (--addr first, then the instance file), or "" when none does.
func (b *bridge) running(ctx context.Context) (string, *instanceInfo, error) {
	if b.cfg.addr != "" && !zeroPort(b.cfg.addr) {
		if base := browseURL(b.cfg.addr); b.healthy(ctx, base) {
			return base, nil, nil
		}
	}
	info, err := readInstance(b.cfg.data)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, nil
	case err != nil:
		b.log.Warn("ignoring an unreadable instance file", "error", err)
		return "", nil, nil
	case !processAlive(info.PID) || !b.healthy(ctx, info.URL):
		return "", nil, nil
	}
	return info.URL, &info, nil
}

// zeroPort reports whether addr asks for any free port, which names no
// place to find a running Switchboard at.
func zeroPort(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	return err == nil && port == "0"
}

// healthy reports whether Switchboard answers its health check at base.
func (b *bridge) healthy(ctx context.Context, base string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+handlers.PathHealth, nil)
	if err != nil {
		return false
	}
	resp, err := b.http.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// startLocked starts Switchboard under the data directory's start lock.
// Whoever holds the lock starts it; everyone else waits for the lock and
// then finds the Switchboard it started, so one data directory never gets
// two supervisors from bridges starting at once.
func (b *bridge) startLocked(ctx context.Context) (string, *instanceInfo, error) {
	if err := os.MkdirAll(b.cfg.data, 0o700); err != nil {
		return "", nil, fmt.Errorf("start switchboard: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, startTimeout+5*time.Second)
	defer cancel()
	unlock, err := lockFile(ctx, filepath.Join(b.cfg.data, startLockName))
	if err != nil {
		return "", nil, fmt.Errorf("start switchboard: wait for another start to finish: %w", err)
	}
	defer unlock()
	if base, inst, err := b.running(ctx); err != nil || base != "" {
		return base, inst, err
	}
	if supervising(b.cfg.data) {
		return b.awaitRunning(ctx)
	}
	return b.start(ctx)
}

// supervising reports whether a Switchboard process holds the data
// directory (its lock file in DATA/running is locked), though none
// answers yet: one started by hand that is still starting, say. Starting
// another then would put two supervisors on one data directory.
func supervising(data string) bool {
	locks, _ := filepath.Glob(filepath.Join(data, "running", "*.lock"))
	for _, path := range locks {
		if lockHeld(path) {
			return true
		}
	}
	return false
}

// awaitRunning waits for the Switchboard that holds the data directory to
// answer, instead of starting a second one.
func (b *bridge) awaitRunning(ctx context.Context) (string, *instanceInfo, error) {
	b.log.Info("a Switchboard is starting for the data directory; waiting for it", "data", b.cfg.data)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if base, inst, err := b.running(ctx); err != nil || base != "" {
			return base, inst, err
		}
		select {
		case <-ctx.Done():
			return "", nil, fmt.Errorf("a Switchboard holds %s (see its running/ directory) but does not answer; stop it, or start it so that it writes %s", b.cfg.data, instanceFileName)
		case <-tick.C:
		}
	}
}

// start runs this executable as a detached Switchboard on the data
// directory and waits until it answers.
func (b *bridge) start(ctx context.Context) (string, *instanceInfo, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", nil, fmt.Errorf("start switchboard: %w", err)
	}
	logPath := filepath.Join(b.cfg.data, startLogName)
	if fi, err := os.Stat(logPath); err == nil && fi.Size() > maxStartLogBytes {
		_ = os.Rename(logPath, logPath+".1") // keep one older log, not an ever-growing one
	}
	logFile, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("start switchboard: %w", err)
	}
	defer logFile.Close() // the child has its own copy
	args := []string{"--data", b.cfg.data}
	if b.cfg.addr != "" {
		args = append(args, "--addr", b.cfg.addr)
	}
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.Env = childEnv(os.Environ())
	for _, k := range tokenVars { // main hid them from children; this one is Switchboard itself
		if v := b.getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return "", nil, fmt.Errorf("start switchboard: %w", err)
	}
	b.log.Info("started Switchboard in the background", "pid", cmd.Process.Pid, "data", b.cfg.data, "log", logPath)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps it if it dies while the bridge runs
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if info, err := readInstance(b.cfg.data); err == nil && info.PID == cmd.Process.Pid && b.healthy(ctx, info.URL) {
			return info.URL, &info, nil
		}
		select {
		case err := <-exited:
			return "", nil, fmt.Errorf("the Switchboard started in the background exited (%v); see %s", err, logPath)
		case <-ctx.Done():
			return "", nil, fmt.Errorf("the Switchboard started in the background did not answer within %s; see %s", startTimeout, logPath)
		case <-tick.C:
		}
	}
}

// childEnv is the bridge's environment for the Switchboard it starts,
// without the client token: Switchboard's servers inherit its environment,
// and the client's credential is not theirs to see.
func childEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "SWITCHBOARD_CLIENT_TOKEN=") {
			out = append(out, kv)
		}
	}
	return out
}

// readClientTokenFile reads a client token from a file the person named.
func readClientTokenFile(path string) (string, error) {
	tok, err := readTokenFile(path)
	if err != nil {
		return "", fmt.Errorf("client token: %w", err)
	}
	return tok, nil
}

// checkClientToken applies the access token's rules to a client token,
// which travels in the same header.
func checkClientToken(tok, from string) (string, error) {
	tok, err := checkToken(strings.TrimSpace(tok), from)
	if err != nil {
		return "", fmt.Errorf("client token: %w", err)
	}
	return tok, nil
}
