//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The eras the client scenarios are run in: every scenario runs in each
// of these it is tagged with; a scenario tagged with neither (the
// 2025-03-26 back-compat ones) runs in the eras it is tagged with.
var conformanceEras = []string{"2025-11-25", "2026-07-28"}

// conformanceRun is one client scenario in one protocol era.
type conformanceRun struct{ scenario, era string }

// conformanceResult is how one run ended, for the table at the end.
type conformanceResult struct {
	run     conformanceRun
	passed  bool
	checks  int
	reasons []string // failed and warned checks, or why the run failed
}

// TestConformance runs the official MCP conformance runner's client
// scenarios (every one that is not an extension, in each era it is
// tagged with) against the real binary. The runner starts the driver in
// e2e/conformance for each scenario; the driver starts switchboard, signs
// in, answers elicitations and calls tools through its API only. A run
// passes when the runner says so and recorded at least one check.
// SWITCHBOARD_CONFORMANCE_RUN (a regexp on "scenario@era") picks runs;
// SWITCHBOARD_CONFORMANCE_REPORT writes the table as Markdown to a file;
// SWITCHBOARD_CONFORMANCE_PARALLEL sets how many run at once (default 4).
func TestConformance(t *testing.T) {
	node, runner := conformanceRunner(t)
	driver := buildConformanceDriver(t)
	runs := conformanceRuns(t, node, runner)
	if pat := os.Getenv("SWITCHBOARD_CONFORMANCE_RUN"); pat != "" {
		re := regexp.MustCompile(pat)
		runs = slices.DeleteFunc(runs, func(r conformanceRun) bool { return !re.MatchString(r.scenario + "@" + r.era) })
	}
	t.Logf("%d conformance runs", len(runs))

	var mu sync.Mutex
	var results []conformanceResult
	t.Cleanup(func() { reportConformance(t, results) })
	slots := make(chan struct{}, conformanceParallel())
	for _, r := range runs {
		t.Run(r.scenario+"@"+r.era, func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			res := runConformance(t, node, runner, driver, r)
			mu.Lock()
			results = append(results, res)
			mu.Unlock()
			if !res.passed {
				t.Errorf("%s in %s failed:\n  %s", r.scenario, r.era, strings.Join(res.reasons, "\n  "))
			}
		})
	}
}

// conformanceParallel is how many runs share the machine at once: each is
// a runner, a driver and a switchboard, mostly waiting, so four fit two
// cores.
func conformanceParallel() int {
	if n, err := strconv.Atoi(os.Getenv("SWITCHBOARD_CONFORMANCE_PARALLEL")); err == nil && n > 0 {
		return n
	}
	return 4
}

// conformanceRunner is Node 22 and the runner's entry point, both from
// e2e/node_modules (npm ci installs them, pinned in package.json).
func conformanceRunner(t *testing.T) (node, runner string) {
	t.Helper()
	node, _ = filepath.Abs(filepath.Join("node_modules", "node", "bin", "node"))
	runner, _ = filepath.Abs(filepath.Join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js"))
	for _, p := range []string{node, runner} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("the conformance runner is not installed (cd e2e && npm ci): %v", err)
		}
	}
	return node, runner
}

// buildConformanceDriver builds e2e/conformance beside nothing else; the
// runs name the switchboard binary under test in the environment.
func buildConformanceDriver(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "conformance-client")
	build := exec.Command("go", "build", "-o", out, "./e2e/conformance")
	build.Dir = ".."
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the conformance driver: %v\n%s", err, b)
	}
	return out
}

// scenarioLine is one "  - name [tag,tag]" line of `conformance list`.
var scenarioLine = regexp.MustCompile(`^\s+-\s+(\S+)\s+\[([^\]]*)\]`)

// conformanceRuns asks the runner which client scenarios it has and in
// which eras each applies.
func conformanceRuns(t *testing.T, node, runner string) []conformanceRun {
	t.Helper()
	out, err := exec.Command(node, runner, "list").Output()
	if err != nil {
		t.Fatalf("conformance list: %v", err)
	}
	var runs []conformanceRun
	client := false
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, " ") {
			client = strings.HasPrefix(line, "Client scenarios")
			continue
		}
		m := scenarioLine.FindStringSubmatch(line)
		if !client || m == nil {
			continue
		}
		tags := strings.Split(m[2], ",")
		if slices.Contains(tags, "extension") {
			continue
		}
		eras := slices.DeleteFunc(slices.Clone(conformanceEras), func(e string) bool { return !slices.Contains(tags, e) })
		if len(eras) == 0 {
			eras = tags
		}
		for _, era := range eras {
			runs = append(runs, conformanceRun{scenario: m[1], era: era})
		}
	}
	if len(runs) == 0 {
		t.Fatalf("conformance list named no client scenarios:\n%s", out)
	}
	return runs
}

// conformanceCheck is one entry of the runner's checks.json.
type conformanceCheck struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Status       string          `json:"status"`
	Description  string          `json:"description"`
	ErrorMessage string          `json:"errorMessage"`
	Details      json.RawMessage `json:"details"`
}

// runConformance runs one scenario in one era and reads its verdict.
func runConformance(t *testing.T, node, runner, driver string, r conformanceRun) conformanceResult {
	t.Helper()
	res := conformanceResult{run: r}
	outDir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, runner, "client", "--command", driver,
		"--scenario", r.scenario, "--spec-version", r.era, "--timeout", "60000", "-o", outDir)
	cmd.Env = append(os.Environ(),
		"PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"SWITCHBOARD_CONFORMANCE_BINARY="+binary)
	out, runErr := cmd.CombinedOutput()

	var checks []conformanceCheck
	var driverLog []byte
	_ = filepath.WalkDir(outDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch d.Name() {
		case "checks.json":
			if b, err := os.ReadFile(p); err == nil {
				_ = json.Unmarshal(b, &checks)
			}
		case "stderr.txt":
			driverLog, _ = os.ReadFile(p)
		}
		return nil
	})
	res.checks = len(checks)
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			msg := c.ErrorMessage
			if msg == "" {
				msg = c.Description
			}
			res.reasons = append(res.reasons, fmt.Sprintf("%s %s: %s", c.Status, c.ID, oneLine(msg, 240)))
		}
	}
	res.passed = runErr == nil && len(checks) > 0
	if len(checks) == 0 {
		res.reasons = append(res.reasons, "no checks recorded")
	}
	if runErr != nil && len(res.reasons) == 0 {
		res.reasons = append(res.reasons, fmt.Sprintf("runner: %v: %s", runErr, oneLine(lastLines(string(out), 6), 400)))
	}
	if !res.passed {
		t.Logf("driver and switchboard log:\n%s", lastLines(string(driverLog), 80))
	}
	return res
}

// reportConformance logs the scenario × era table, and writes it as
// Markdown where SWITCHBOARD_CONFORMANCE_REPORT says.
func reportConformance(t *testing.T, results []conformanceResult) {
	slices.SortFunc(results, func(a, b conformanceResult) int {
		return strings.Compare(a.run.scenario+"@"+a.run.era, b.run.scenario+"@"+b.run.era)
	})
	var b strings.Builder
	passed := 0
	b.WriteString("| scenario | era | result | checks | why |\n|---|---|---|---|---|\n")
	for _, r := range results {
		verdict := "FAIL"
		if r.passed {
			verdict = "pass"
			passed++
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %s |\n", r.run.scenario, r.run.era, verdict, r.checks,
			strings.ReplaceAll(strings.Join(r.reasons, "; "), "|", "\\|"))
	}
	fmt.Fprintf(&b, "\n%d of %d runs passed\n", passed, len(results))
	t.Logf("conformance:\n%s", b.String())
	if p := os.Getenv("SWITCHBOARD_CONFORMANCE_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Errorf("write %s: %v", p, err)
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
