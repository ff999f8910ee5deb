package settingsfile_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/switchboard-mcp/switchboard/domain"
	"github.com/switchboard-mcp/switchboard/settingsfile"
)

const threeServers = `{
  "mcpServers": {
    "alpha": {
      "command": "a"
    },
    "beta": {"command": "b"},
    "gamma": {
      "url": "https://g.example/mcp"
    }
  }
}
`

// oddFile has unrelated keys on either side, tabs, spaces before colons,
// a comma at the start of a line and both server groups.
const oddFile = "{\"$schema\":\"https://example.com/s.json\",\n" +
	"\t\"theme\" :  \"dark\",\n" +
	"   \"servers\":{\n" +
	"\t\"one\" :{\"type\":\"stdio\",\"command\":\"1\"} ,\n" +
	"\t  \"two\":   {\"url\":\"https://two.example/mcp\"}\n" +
	"\t,\"three\":{\"command\":\"3\"}},\n" +
	" \"mcpServers\" : { \"four\" : { \"command\" : \"4\" } },\n" +
	" \"inputs\": [ {\"id\": \"x\"} ]\n" +
	"}"

// replaceOnce replaces old, which must occur exactly once in s, so that a
// typo in an expected output cannot turn into "expect no change".
func replaceOnce(s, old, new string) string {
	if n := strings.Count(s, old); n != 1 {
		panic(fmt.Sprintf("%q occurs %d times, want once", old, n))
	}
	return strings.Replace(s, old, new, 1)
}

func TestRemoveServerKeepsEveryOtherByte(t *testing.T) {
	tests := []struct {
		name    string
		content string
		remove  string
		want    string
	}{
		{"first", threeServers, "alpha", `{
  "mcpServers": {
    "beta": {"command": "b"},
    "gamma": {
      "url": "https://g.example/mcp"
    }
  }
}
`},
		{"middle", threeServers, "beta", `{
  "mcpServers": {
    "alpha": {
      "command": "a"
    },
    "gamma": {
      "url": "https://g.example/mcp"
    }
  }
}
`},
		{"last", threeServers, "gamma", `{
  "mcpServers": {
    "alpha": {
      "command": "a"
    },
    "beta": {"command": "b"}
  }
}
`},
		// RemoveServerEntry leaves the group's closing brace at the removed
		// entry's indentation; "{\n  }" would be tidier.
		{"only", "{\n  \"mcpServers\": {\n    \"solo\": {\"command\": \"s\"}\n  }\n}\n", "solo",
			"{\n  \"mcpServers\": {\n  }\n}\n"},
		{"only-compact", `{"mcpServers":{"solo":{"command":"s"}},"x":1}`, "solo", `{"mcpServers":{},"x":1}`},
		{"odd-first", oddFile, "one", replaceOnce(oddFile,
			"\t\"one\" :{\"type\":\"stdio\",\"command\":\"1\"} ,\n\t  ", "\t")},
		{"odd-middle-comma-on-next-line", oddFile, "two", replaceOnce(oddFile,
			"\"two\":   {\"url\":\"https://two.example/mcp\"}\n\t,", "")},
		{"odd-last-comma-before-it", oddFile, "three", replaceOnce(oddFile,
			",\"three\":{\"command\":\"3\"}", "")},
		{"odd-only-in-second-group", oddFile, "four", replaceOnce(oddFile,
			"{ \"four\" : { \"command\" : \"4\" } }", "{ }")},
		{"crlf", "{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"a\"},\r\n    \"b\": {\"command\": \"b\"}\r\n  }\r\n}\r\n", "b",
			"{\r\n  \"mcpServers\": {\r\n    \"a\": {\"command\": \"a\"}\r\n  }\r\n}\r\n"},
		{"byte-order-mark-kept", "\uFEFF{\"mcpServers\": {\"a\": {\"command\": \"a\"}, \"b\": {\"command\": \"b\"}}}", "a",
			"\uFEFF{\"mcpServers\": {\"b\": {\"command\": \"b\"}}}"},
		{"escaped-name", `{"mcpServers": {"a\u0020b": {"command": "x"}, "c": {"command": "c"}}}`, "a b",
			`{"mcpServers": {"c": {"command": "c"}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeSettings(t, dir, tt.content, 0o600)
			var ed settingsfile.Editor
			if err := ed.RemoveServer(t.Context(), path, tt.remove); err != nil {
				t.Fatalf("RemoveServer(%s): %v", tt.remove, err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if names := dirNames(t, dir); !slices.Equal(names, []string{"settings.json"}) {
				t.Errorf("directory: got %v, want only settings.json", names)
			}
			if _, err := settingsfile.Load(path, noEnv); err != nil {
				t.Errorf("Load after removal: %v", err)
			}
		})
	}
}

func TestRemoveServerKeepsFileMode(t *testing.T) {
	for _, perm := range []os.FileMode{0o600, 0o640, 0o644} {
		t.Run(perm.String(), func(t *testing.T) {
			path := writeSettings(t, t.TempDir(), threeServers, perm)
			var ed settingsfile.Editor
			if err := ed.RemoveServer(t.Context(), path, "beta"); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != perm {
				t.Errorf("mode: got %v, want %v", got, perm)
			}
		})
	}
}

func TestRemoveServerFollowsSymlinks(t *testing.T) {
	root := t.TempDir()
	realDir := filepath.Join(root, "dotfiles")
	linkDir := filepath.Join(root, "config")
	for _, d := range []string{realDir, linkDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	target := writeSettings(t, realDir, threeServers, 0o600)
	// config/settings.json -> config/middle.json -> ../dotfiles/settings.json
	middle := filepath.Join(linkDir, "middle.json")
	link := filepath.Join(linkDir, "settings.json")
	if err := os.Symlink(filepath.Join("..", "dotfiles", "settings.json"), middle); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("middle.json", link); err != nil {
		t.Fatal(err)
	}

	var ed settingsfile.Editor
	if err := ed.RemoveServer(t.Context(), link, "beta"); err != nil {
		t.Fatalf("RemoveServer: %v", err)
	}

	for _, l := range []struct{ path, dest string }{{link, "middle.json"}, {middle, filepath.Join("..", "dotfiles", "settings.json")}} {
		if got, err := os.Readlink(l.path); err != nil || got != l.dest {
			t.Errorf("%s: got link to %q (%v), want a link to %q", l.path, got, err, l.dest)
		}
	}
	got, err := os.ReadFile(target)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), `"beta"`) || !strings.Contains(string(got), `"alpha"`) {
		t.Errorf("target after removal:\n%s\nwant alpha kept and beta gone", got)
	}
	if names := dirNames(t, realDir); !slices.Equal(names, []string{"settings.json"}) {
		t.Errorf("target directory: got %v, want only settings.json", names)
	}
	if names := dirNames(t, linkDir); !slices.Equal(names, []string{"middle.json", "settings.json"}) {
		t.Errorf("link directory: got %v, want only the two links", names)
	}
}

func TestRemoveServerFailureLeavesFileAlone(t *testing.T) {
	canceled, cancel := context.WithCancel(t.Context())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		content string
		remove  string
		check   func(error) bool
		want    string
	}{
		{"unknown-server", t.Context(), threeServers, "delta",
			func(err error) bool { return errors.Is(err, domain.ErrNotFound) }, "errors.Is domain.ErrNotFound"},
		{"group-not-object", t.Context(), `{"mcpServers": ["alpha"]}`, "alpha",
			func(err error) bool { return errors.Is(err, domain.ErrNotFound) }, "errors.Is domain.ErrNotFound"},
		{"malformed", t.Context(), "{\n  \"mcpServers\": {\n    \"alpha\": {\"command\": \"a\"},\n  }\n}\n", "alpha",
			func(err error) bool { var se *domain.SettingsError; return errors.As(err, &se) }, "a *domain.SettingsError"},
		{"canceled", canceled, threeServers, "beta",
			func(err error) bool { return errors.Is(err, context.Canceled) }, "errors.Is context.Canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := writeSettings(t, dir, tt.content, 0o600)
			var ed settingsfile.Editor
			err := ed.RemoveServer(tt.ctx, path, tt.remove)
			if !tt.check(err) {
				t.Errorf("got %v, want %s", err, tt.want)
			}
			got, rerr := os.ReadFile(path)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if string(got) != tt.content {
				t.Errorf("file changed to\n%s", got)
			}
			if names := dirNames(t, dir); !slices.Equal(names, []string{"settings.json"}) {
				t.Errorf("directory: got %v, want only settings.json", names)
			}
		})
	}
}

func TestRemoveServerMissingFile(t *testing.T) {
	var ed settingsfile.Editor
	err := ed.RemoveServer(t.Context(), filepath.Join(t.TempDir(), "settings.json"), "alpha")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("got %v, want an error wrapping fs.ErrNotExist", err)
	}
}

// Every goroutine removes a different server from the same file; without
// the Editor's lock, two would start from the same bytes and one removal
// would come back.
func TestRemoveServerConcurrentEditsAllLand(t *testing.T) {
	const n = 20
	var entries []string
	for i := range n {
		entries = append(entries, fmt.Sprintf(`"s%02d": {"command": "x"}`, i))
	}
	path := writeSettings(t, t.TempDir(), `{"mcpServers": {`+strings.Join(entries, ", ")+`}}`, 0o600)
	ed := &settingsfile.Editor{}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			if err := ed.RemoveServer(t.Context(), path, fmt.Sprintf("s%02d", i)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("RemoveServer: %v", err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"mcpServers": {}}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRemoveServerRemovesEveryDefinition(t *testing.T) {
	path := writeSettings(t, t.TempDir(), `{"mcpServers": {"a": {"command": "first"}, "b": {"command": "b"}, "a": {"command": "second"}}}`, 0o600)
	var ed settingsfile.Editor
	if err := ed.RemoveServer(t.Context(), path, "a"); err != nil {
		t.Fatal(err)
	}
	set, err := settingsfile.Load(path, noEnv)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range set.Servers {
		if s.Name == "a" {
			t.Errorf("server a still loads as %q after removal", s.Command)
		}
	}
}
