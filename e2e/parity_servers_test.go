//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// parityServer is one real server the parity test runs twice: once under
// Switchboard (entry) and once under the SDK client (direct), each side
// in directories of its own that the masks then hide.
type parityServer struct {
	name               string
	entry              map[string]any // the settings entry Switchboard runs
	direct             directSpec     // the same server for direct.mjs, without calls
	calls              []parityCall   // made in order, both ways; "<ROOT>" in an argument is each side's own directory
	sbRoot, directRoot string
	images             bool // browsers: pixels may differ between two Chromiums
	// links is the index of a gzip-file-as-resource call whose resource
	// link the not-found read uses (server-everything only), or -1.
	links int
}

// maskers returns the masks of each side.
func (s parityServer) maskers() (direct, sb masker) {
	direct = masker{literal: map[string]string{}, images: s.images}
	sb = masker{literal: map[string]string{}, images: s.images}
	if s.directRoot != "" {
		direct.literal[s.directRoot] = "<ROOT>"
		sb.literal[s.sbRoot] = "<ROOT>"
	}
	return direct, sb
}

// callsFor fills "<ROOT>" in the calls' arguments with root.
func callsFor(t *testing.T, calls []parityCall, root string) []parityCall {
	t.Helper()
	out := make([]parityCall, len(calls))
	for i, c := range calls {
		b, err := json.Marshal(c.Arguments)
		if err != nil {
			t.Fatal(err)
		}
		esc, _ := json.Marshal(root)
		b = []byte(strings.ReplaceAll(string(b), "<ROOT>", strings.Trim(string(esc), `"`)))
		out[i] = parityCall{Name: c.Name}
		if err := json.Unmarshal(b, &out[i].Arguments); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// nodeModule is the absolute path of a file of an npm-installed package,
// failing the test when the package is missing.
func nodeModule(t *testing.T, rel ...string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(append([]string{"node_modules"}, rel...)...))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s is not installed (cd e2e && npm ci): %v", filepath.Join(rel...), err)
	}
	return p
}

// stdioPair is a stdio server as a settings entry and as a direct spec.
func stdioPair(js string, args []string, env map[string]string, cwd string) (map[string]any, directSpec) {
	entry := map[string]any{"command": "node", "args": append([]string{js}, args...)}
	if len(env) > 0 {
		entry["env"] = env
	}
	if cwd != "" {
		entry["cwd"] = cwd
	}
	return entry, directSpec{Command: "node", Args: append([]string{js}, args...), Env: env, Cwd: cwd}
}

// paritySide runs the per-side part of a server's definition once for
// Switchboard and once for the direct client.
func paritySide(t *testing.T, build func(root string) (map[string]any, directSpec)) (map[string]any, directSpec, string, string) {
	t.Helper()
	sbRoot, directRoot := t.TempDir(), t.TempDir()
	entry, _ := build(sbRoot)
	_, spec := build(directRoot)
	return entry, spec, sbRoot, directRoot
}

// parityPage is the page the browser servers open: a title, a heading, a
// button and one console line, and no favicon request that could race.
func parityPage(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Parity page</title><link rel="icon" href="data:,"></head>`+
			`<body><h1>Hello</h1><button type="button">Press</button><script>console.log("loaded")</script></body></html>`)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/"
}

// parityServers is every server the parity tests run, with its fixed calls.
func parityServers(t *testing.T, everythingURL, page string) []parityServer {
	t.Helper()
	var list []parityServer

	fsJS := nodeModule(t, "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	entry, spec, sbRoot, directRoot := paritySide(t, func(root string) (map[string]any, directSpec) {
		return stdioPair(fsJS, []string{root}, nil, "")
	})
	list = append(list, parityServer{name: "filesystem", entry: entry, direct: spec, sbRoot: sbRoot, directRoot: directRoot, links: -1,
		calls: []parityCall{
			{"list_allowed_directories", map[string]any{}},
			{"write_file", map[string]any{"path": "<ROOT>/notes.txt", "content": "alpha\nbeta\ngamma\n"}},
			{"read_text_file", map[string]any{"path": "<ROOT>/notes.txt"}},
			{"read_text_file", map[string]any{"path": "<ROOT>/notes.txt", "head": 2}},
			{"edit_file", map[string]any{"path": "<ROOT>/notes.txt", "edits": []any{map[string]any{"oldText": "beta", "newText": "BETA"}}, "dryRun": true}},
			{"create_directory", map[string]any{"path": "<ROOT>/sub"}},
			{"write_file", map[string]any{"path": "<ROOT>/sub/readme.md", "content": "# Title\n"}},
			{"move_file", map[string]any{"source": "<ROOT>/sub/readme.md", "destination": "<ROOT>/sub/moved.md"}},
			{"list_directory", map[string]any{"path": "<ROOT>"}},
			{"list_directory_with_sizes", map[string]any{"path": "<ROOT>", "sortBy": "name"}},
			{"directory_tree", map[string]any{"path": "<ROOT>"}},
			{"search_files", map[string]any{"path": "<ROOT>", "pattern": "**/*.md"}},
			{"read_multiple_files", map[string]any{"paths": []any{"<ROOT>/notes.txt", "<ROOT>/sub/moved.md"}}},
			{"get_file_info", map[string]any{"path": "<ROOT>/notes.txt"}},
			{"read_text_file", map[string]any{"path": "/etc/hostname"}}, // outside the root: an isError result
		}})

	memJS := nodeModule(t, "@modelcontextprotocol", "server-memory", "dist", "index.js")
	entry, spec, sbRoot, directRoot = paritySide(t, func(root string) (map[string]any, directSpec) {
		return stdioPair(memJS, nil, map[string]string{"MEMORY_FILE_PATH": filepath.Join(root, "memory.jsonl")}, "")
	})
	list = append(list, parityServer{name: "memory", entry: entry, direct: spec, sbRoot: sbRoot, directRoot: directRoot, links: -1,
		calls: []parityCall{
			{"create_entities", map[string]any{"entities": []any{
				map[string]any{"name": "Ada", "entityType": "person", "observations": []any{"wrote the first program"}},
				map[string]any{"name": "Engine", "entityType": "machine", "observations": []any{"analytical"}},
			}}},
			{"create_relations", map[string]any{"relations": []any{map[string]any{"from": "Ada", "to": "Engine", "relationType": "programmed"}}}},
			{"add_observations", map[string]any{"observations": []any{map[string]any{"entityName": "Ada", "contents": []any{"born 1815"}}}}},
			{"search_nodes", map[string]any{"query": "Ada"}},
			{"open_nodes", map[string]any{"names": []any{"Engine"}}},
			{"delete_observations", map[string]any{"deletions": []any{map[string]any{"entityName": "Ada", "observations": []any{"born 1815"}}}}},
			{"read_graph", map[string]any{}},
			{"delete_relations", map[string]any{"relations": []any{map[string]any{"from": "Ada", "to": "Engine", "relationType": "programmed"}}}},
			{"delete_entities", map[string]any{"entityNames": []any{"Engine"}}},
			{"read_graph", map[string]any{}},
		}})

	evJS := nodeModule(t, "@modelcontextprotocol", "server-everything", "dist", "index.js")
	everythingCalls := []parityCall{
		{"echo", map[string]any{"message": "hello <b>&</b> ünïcode"}},
		{"get-sum", map[string]any{"a": 2, "b": 3.5}},
		{"get-tiny-image", map[string]any{}},
		{"get-annotated-message", map[string]any{"messageType": "error", "includeImage": true}},
		{"get-annotated-message", map[string]any{"messageType": "success", "includeImage": false}},
		{"get-resource-links", map[string]any{"count": 3}},
		{"get-resource-reference", map[string]any{"resourceType": "Text", "resourceId": 2}},
		{"get-resource-reference", map[string]any{"resourceType": "Blob", "resourceId": 3}},
		{"get-structured-content", map[string]any{"location": "Chicago"}},
		{"trigger-long-running-operation", map[string]any{"duration": 1, "steps": 2}},
		{"gzip-file-as-resource", map[string]any{"name": "parity.txt.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resource"}},
		{"gzip-file-as-resource", map[string]any{"name": "parity-link.txt.gz", "data": "data:text/plain;base64,aGVsbG8=", "outputType": "resourceLink"}},
	}
	entry, spec = stdioPair(evJS, []string{"stdio"}, nil, "")
	list = append(list, parityServer{name: "everything", entry: entry, direct: spec, calls: everythingCalls, links: len(everythingCalls) - 1})
	list = append(list, parityServer{name: "everything-http", entry: map[string]any{"url": everythingURL},
		direct: directSpec{URL: everythingURL}, calls: everythingCalls, links: len(everythingCalls) - 1})

	stJS := nodeModule(t, "@modelcontextprotocol", "server-sequential-thinking", "dist", "index.js")
	entry, spec = stdioPair(stJS, nil, map[string]string{"DISABLE_THOUGHT_LOGGING": "true"}, "")
	list = append(list, parityServer{name: "sequential-thinking", entry: entry, direct: spec, links: -1,
		calls: []parityCall{
			{"sequentialthinking", map[string]any{"thought": "Split the problem.", "thoughtNumber": 1, "totalThoughts": 3, "nextThoughtNeeded": true}},
			{"sequentialthinking", map[string]any{"thought": "Try another way.", "thoughtNumber": 2, "totalThoughts": 3, "nextThoughtNeeded": true, "branchFromThought": 1, "branchId": "alt"}},
			{"sequentialthinking", map[string]any{"thought": "Revise step one.", "thoughtNumber": 3, "totalThoughts": 3, "nextThoughtNeeded": false, "isRevision": true, "revisesThought": 1}},
		}})

	pwJS := nodeModule(t, "@playwright", "mcp", "cli.js")
	chromium := "/usr/bin/chromium"
	if _, err := os.Stat(chromium); err != nil {
		t.Fatalf("Debian's chromium is not installed (make deps-apt): %v", err)
	}
	entry, spec, sbRoot, directRoot = paritySide(t, func(root string) (map[string]any, directSpec) {
		return stdioPair(pwJS, []string{"--executable-path", chromium, "--headless", "--no-sandbox", "--isolated",
			"--output-dir", filepath.Join(root, "out")}, nil, root)
	})
	list = append(list, parityServer{name: "playwright", entry: entry, direct: spec, sbRoot: sbRoot, directRoot: directRoot, images: true, links: -1,
		calls: []parityCall{
			{"browser_navigate", map[string]any{"url": page}},
			{"browser_snapshot", map[string]any{}},
			{"browser_evaluate", map[string]any{"function": "() => document.title"}},
			{"browser_take_screenshot", map[string]any{}},
			{"browser_console_messages", map[string]any{}},
			{"browser_network_requests", map[string]any{}},
			{"browser_tabs", map[string]any{"action": "list"}},
			{"browser_close", map[string]any{}},
		}})

	cdJS := nodeModule(t, "chrome-devtools-mcp", "build", "src", "bin", "chrome-devtools-mcp.js")
	entry, spec, sbRoot, directRoot = paritySide(t, func(root string) (map[string]any, directSpec) {
		return stdioPair(cdJS, []string{"--executablePath", chromium, "--headless", "--isolated", "--chromeArg=--no-sandbox",
			"--no-usage-statistics", "--no-performance-crux"}, nil, root)
	})
	list = append(list, parityServer{name: "chrome-devtools", entry: entry, direct: spec, sbRoot: sbRoot, directRoot: directRoot, images: true, links: -1,
		calls: []parityCall{
			{"list_pages", map[string]any{}},
			{"navigate_page", map[string]any{"pageId": 1, "url": page}},
			{"take_snapshot", map[string]any{"pageId": 1}},
			{"evaluate_script", map[string]any{"pageId": 1, "function": "() => document.title"}},
			{"take_screenshot", map[string]any{"pageId": 1}},
			{"list_console_messages", map[string]any{"pageId": 1}},
		}})

	c7JS := nodeModule(t, "@upstash", "context7-mcp", "dist", "index.js")
	entry, spec = stdioPair(c7JS, nil, nil, "")
	// No network here: both calls fail, and must fail the same way.
	list = append(list, parityServer{name: "context7", entry: entry, direct: spec, links: -1,
		calls: []parityCall{
			{"resolve-library-id", map[string]any{"query": "react hooks", "libraryName": "react"}},
			{"query-docs", map[string]any{"libraryId": "/facebook/react", "query": "useEffect cleanup"}},
		}})
	return list
}
