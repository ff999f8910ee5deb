//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// webkitPython is Debian's interpreter, the one python3-gi installs the
// WebKitGTK bindings for (a python3 earlier on PATH, e.g. pyenv's, lacks
// them).
const webkitPython = "/usr/bin/python3"

// TestWebKitSmoke loads the dashboard in WebKitGTK (e2e/webkit/smoke.py
// under xvfb-run): the page loads with the token, the event stream's first
// event lands, a server disabled through the API turns its chip disabled
// live, and another server's drawer opens. Safari's engine family is not
// covered by the Chromium suite, so this is its one check.
func TestWebKitSmoke(t *testing.T) {
	xvfb := webkitDeps(t)
	in := startWith(t, servers{"alpha": demoStdio("alpha", nil), "beta": demoStdio("beta", nil)})
	in.waitState(t, "alpha", "connected")
	in.waitState(t, "beta", "connected")

	// Every wait inside the script shares one budget; the context bounds
	// the whole process, Xvfb and WebKit's start-up included.
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLong)
	defer cancel()
	script, err := filepath.Abs(filepath.Join("webkit", "smoke.py"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, xvfb, "-a", "-s", "-screen 0 1400x900x24", webkitPython, script,
		"--expect", "alpha=disabled", "--drawer", "beta", "--timeout", fmt.Sprint(int(waitLong.Seconds())), in.link())
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "WEBKIT_DISABLE_COMPOSITING_MODE=1", "LIBGL_ALWAYS_SOFTWARE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // Xvfb and WebKit's helpers end with it
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", xvfb, err)
	}
	var out []string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		out = append(out, line)
		if line == "READY" {
			mark := in.events.len()
			if code, body := apiPost(t, in, "/api/v1/servers/alpha/disable"); code != 200 && code != 202 {
				t.Errorf("disable alpha: HTTP %d %s", code, clip(body))
			}
			in.waitStateAfter(t, mark, "alpha", "disabled")
		}
	}
	err = cmd.Wait()
	t.Logf("smoke.py stdout:\n%s", strings.Join(out, "\n"))
	if s := strings.TrimSpace(stderr.String()); s != "" {
		t.Logf("smoke.py stderr:\n%s", s)
	}
	if ctx.Err() != nil {
		t.Fatalf("WebKitGTK smoke test still running after %s: killed", 2*waitLong)
	}
	if err != nil {
		t.Fatalf("WebKitGTK smoke test failed (%v): %s", err, lastLine(stderr.String()))
	}
	if len(out) == 0 || !strings.HasPrefix(out[len(out)-1], "ok: ") {
		t.Errorf("smoke.py exited 0 without its ok line; stdout %q", out)
	}
}

// webkitDeps returns xvfb-run's path once WebKitGTK's Python bindings
// import; like the Chromium suite it fails under CI and skips elsewhere
// when they are missing (`make deps` installs them).
func webkitDeps(t *testing.T) string {
	t.Helper()
	xvfb, err := exec.LookPath("xvfb-run")
	if err == nil {
		probe := exec.Command(webkitPython, "-c", "import gi; gi.require_version('WebKit2', '4.1'); from gi.repository import WebKit2")
		if out, perr := probe.CombinedOutput(); perr != nil {
			err = fmt.Errorf("%s cannot import WebKit2 4.1: %v\n%s", webkitPython, perr, out)
		}
	}
	if err != nil {
		msg := fmt.Sprintf("WebKitGTK smoke test needs xvfb-run and gir1.2-webkit2-4.1 with python3-gi (make deps): %v", err)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return xvfb
}

// lastLine is the last non-empty line of s: the script's FAIL message.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
