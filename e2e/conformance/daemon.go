package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// daemon is one switchboard process started for one scenario, with its
// output kept in files: the runner waits until every holder of this
// program's stdout has closed it, so the daemon must never inherit it.
type daemon struct {
	cmd     *exec.Cmd
	base    string // http://127.0.0.1:PORT
	token   string // the owner's access token it printed
	logPath string
	done    chan struct{} // closed when the process has been waited for
	once    sync.Once
}

// listeningPrefix starts the first line switchboard prints on stdout.
const listeningPrefix = "switchboard listening on "

// startDaemon writes settings into dir and starts bin on a free loopback
// port with everything it keeps under dir: its data, its project, its
// token-sealing key file, a HOME of its own, and no keychain.
func startDaemon(ctx context.Context, bin, dir string, settings []byte) (*daemon, error) {
	settingsPath := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settingsPath, settings, 0o600); err != nil {
		return nil, err
	}
	data, project, home := filepath.Join(dir, "data"), filepath.Join(dir, "project"), filepath.Join(dir, "home")
	for _, p := range []string{data, project, home} {
		if err := os.MkdirAll(p, 0o700); err != nil {
			return nil, err
		}
	}
	logPath := filepath.Join(dir, "switchboard.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--settings", settingsPath, "--data", data, "--project", project)
	cmd.Dir = project
	cmd.Env = append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"SWITCHBOARD_KEY_FILE="+filepath.Join(dir, "oauth.key"),
		"SWITCHBOARD_KEYCHAIN=off",
		"SWITCHBOARD_OAUTH_CLIENT_METADATA_URL="+cimdURL,
	)
	cmd.Stderr = logFile
	cmd.SysProcAttr = daemonProcAttr()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		logFile.Close()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	d := &daemon{cmd: cmd, logPath: logPath, done: make(chan struct{})}
	lines := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		lines <- line
		_, _ = io.Copy(logFile, r) // the rest of stdout joins the log
	}()
	go func() {
		_ = cmd.Wait()
		logFile.Close()
		close(d.done)
	}()
	select {
	case line := <-lines:
		link, ok := strings.CutPrefix(strings.TrimSpace(line), listeningPrefix)
		base, token, found := strings.Cut(link, "/?token=")
		if !ok || !found || token == "" {
			d.stop()
			return nil, fmt.Errorf("switchboard's first line %q is not %q<url>/?token=<token>; its log:\n%s", line, listeningPrefix, d.tail(40))
		}
		d.base, d.token = base, token
		return d, nil
	case <-ctx.Done():
		d.stop()
		return nil, fmt.Errorf("switchboard did not say where it listens: %w", ctx.Err())
	}
}

// stop asks switchboard to shut down and kills its process group when it
// takes more than five seconds.
func (d *daemon) stop() {
	d.once.Do(func() {
		_ = signalGroup(d.cmd, false)
		select {
		case <-d.done:
		case <-time.After(5 * time.Second):
			_ = signalGroup(d.cmd, true)
			<-d.done
		}
	})
}

// copyLog writes switchboard's output after this program's own, so the
// runner's stderr.txt of a failed scenario says what the daemon saw.
func (d *daemon) copyLog(w io.Writer) {
	fmt.Fprintf(w, "--- switchboard output ---\n%s", d.tail(400))
}

// tail is the last n lines of the daemon's log.
func (d *daemon) tail(n int) string {
	b, err := os.ReadFile(d.logPath)
	if err != nil {
		return err.Error() + "\n"
	}
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n"))) + "\n"
}

// errNoProcess is returned when a signal is asked for before the start.
var errNoProcess = errors.New("switchboard is not running")
