//go:build e2e

package e2e

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	playwright "github.com/mxschmitt/playwright-go"
)

// Shared across the tests of this binary: starting the driver and the
// browser once keeps the suite fast.
var (
	binary  string // the switchboard binary under test
	browser playwright.Browser
	axeJS   string
)

func TestMain(m *testing.M) {
	os.Setenv("SWITCHBOARD_KEYCHAIN", "off") // never the developer's keychain
	code, err := setup(m)
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		if os.Getenv("CI") != "" {
			os.Exit(1) // CI must fail, never skip, when the browser is missing
		}
		fmt.Fprintln(os.Stderr, "e2e: skipping the browser suite (run `make test` to install what it needs)")
		os.Exit(0)
	}
	os.Exit(code)
}

func setup(m *testing.M) (int, error) {
	// Every instance requires its access token: plain http.Get and
	// http.Post calls of the tests send the one their instance printed.
	http.DefaultClient.Transport = bearerTransport{next: http.DefaultTransport}
	tmp, err := os.MkdirTemp("", "switchboard-e2e-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)

	// SWITCHBOARD_E2E_BINARY tests a binary built elsewhere (a release
	// artefact, or a snapshot while the tree does not build).
	binary = os.Getenv("SWITCHBOARD_E2E_BINARY")
	if binary == "" {
		binary = filepath.Join(tmp, "switchboard")
		build := exec.Command("go", "build", "-o", binary, "./cmd/switchboard")
		build.Dir = ".."
		if out, err := build.CombinedOutput(); err != nil {
			return 0, fmt.Errorf("build switchboard: %v\n%s", err, out)
		}
	}

	axe, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		return 0, fmt.Errorf("axe-core is not installed (cd e2e && npm ci): %w", err)
	}
	axeJS = string(axe)

	pw, err := startPlaywright(tmp)
	if err != nil {
		return 0, err
	}
	defer pw.Stop()
	exe, err := chromiumPath()
	if err != nil {
		return 0, err
	}
	browser, err = pw.Chromium.Launch(playwright.BrowserTypeLaunchOptions{
		ExecutablePath: playwright.String(exe),
		Headless:       playwright.Bool(true),
		Args: []string{"--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync"},
	})
	if err != nil {
		return 0, fmt.Errorf("launch chromium %s: %w", exe, err)
	}
	defer browser.Close()
	return m.Run(), nil
}

// startPlaywright runs the driver from the npm-installed playwright-core,
// so nothing is downloaded.
func startPlaywright(tmp string) (*playwright.Playwright, error) {
	core, err := filepath.Abs(filepath.Join("node_modules", "playwright-core"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(core, "cli.js")); err != nil {
		return nil, fmt.Errorf("playwright-core is not installed (cd e2e && npm ci): %w", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not installed: %w", err)
	}
	driver := filepath.Join(tmp, "driver")
	if err := os.MkdirAll(driver, 0o755); err != nil {
		return nil, err
	}
	if err := os.Symlink(core, filepath.Join(driver, "package")); err != nil {
		return nil, err
	}
	os.Setenv("PLAYWRIGHT_NODEJS_PATH", node)
	pw, err := playwright.Run(&playwright.RunOptions{DriverDirectory: driver, SkipInstallBrowsers: true, Verbose: false})
	if err != nil {
		return nil, fmt.Errorf("start the playwright driver: %w", err)
	}
	return pw, nil
}

func chromiumPath() (string, error) {
	for _, p := range []string{"/usr/lib/chromium/chromium", "/usr/bin/chromium"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("chromium is not installed (apt-get install chromium)")
}
